// The evening the table keeps while Tarot is played at it: each deal's settlement joins the
// evening of its player count, the next deal's dealer is the session's word (T2, T18), and
// each seat's running total is the session's. The sheet itself is on the score keeper page.

import { putEvening, sessionOf, sheetOfSettlement, tableEvening } from "./evenings.js";

export class TableEvening {
  // page: {service, t}, read afresh at each use (the language may change).
  constructor(page) {
    this.page = page;
    this.evening = null;
    this.answer = null;
  }

  names(count) {
    return Array.from({ length: count }, (_, seat) => this.page.t("seat", { n: seat }));
  }

  // The evening of `count` players brought up to date, with the service's totals.
  async show(count) {
    this.evening = tableEvening(count, this.names(count));
    this.answer = this.evening.deals.length
      ? await this.page.service.session(sessionOf(this.evening)) : null;
    return this.evening;
  }

  async nextDealer(count) {
    await this.show(count);
    return this.answer?.next_dealer ?? this.evening.dealer;
  }

  // A deal played at the table, `seat` the player's, joins the evening of its count.
  async addPlayed(count, result, seat) {
    const { unsaved, ...evening } = tableEvening(count, this.names(count));
    evening.deals = [...evening.deals, sheetOfSettlement(result)];
    evening.seat = seat;
    putEvening(evening);
    return this.show(count);
  }

  totals(count) {
    return this.evening?.table === count ? this.answer?.totals ?? null : null;
  }
}
