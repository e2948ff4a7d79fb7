/* French Tarot's rules on bitmasks (T1-T24): the legal moves, a move's next position and
 * a finished deal's settlement, with basic's choice for every seat and phase (the bid, the
 * call, the écart, the chelem, the poignée, the card: rules/ai/tarot.py's basic level), so
 * that a whole playout runs here. tarot.h describes the layout. */
#include "tarot.h"
#include <math.h>
#include <stdlib.h>

#define SUIT_HALVES 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9
const int8_t HALF_POINTS[DECK] = {
    SUIT_HALVES, SUIT_HALVES, SUIT_HALVES, SUIT_HALVES,
    9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, /* T1 ... T21 */
    9,                                                              /* the Excuse */
};
const int HAND_OF[MAX_SEATS + 1] = {0, 0, 0, 24, 18, 15};
const int CHIEN_OF[MAX_SEATS + 1] = {0, 0, 0, 6, 6, 3};
static const int POIGNEE_SIZES[MAX_SEATS + 1][3] = {{0}, {0}, {0}, {13, 15, 18}, {10, 13, 15},
                                                    {8, 10, 13}}; /* T8, T21 */
static const int POIGNEE_VALUES[3] = {20, 30, 40};
static const int MULTIPLIERS[CONTRACTS] = {0, 1, 2, 4, 6}; /* T4 */
static const int TARGETS[4] = {56, 51, 41, 36};             /* T14, by the bouts */
/* rules/ai/tarot.py: the strength of an 18-card hand at which basic bids each contract. */
static const int BID_THRESHOLDS[CONTRACTS] = {0, 38, 46, 55, 63};
#define FOUR_PLAYER_HAND 18

const char *CONTRACT_NAMES[CONTRACTS] = {"pass", "prise", "garde", "garde_sans", "garde_contre"};
const char *PHASE_NAMES[PHASES] = {"bidding", "call", "discard", "chelem", "play", "over"};
const char *ACTION_NAMES[ACTIONS] = {"bid", "call", "discard", "chelem", "poignee", "play"};

/* -- following and winning tricks (T9, T10, T12, T23) ----------------------------------- */

static int top_trump(const uint8_t *t, int k) {
    int top = -1;
    for (int i = 0; i < k; i++)
        if (is_trump(t[i]) && t[i] > top) top = t[i];
    return top;
}

/* T9: the card that sets the suit to follow, -1 while only the Excuse is down. */
static int led_card(const uint8_t *t, int k) {
    for (int i = 0; i < k; i++)
        if (t[i] != EXCUSE) return t[i];
    return -1;
}

/* T9: the cards of `hand` that may go on the trick `t` of `k` cards. */
static Cards playable(Cards hand, const uint8_t *t, int k) {
    int led = led_card(t, k);
    if (led < 0) return hand;
    Cards excuse = hand & CARD(EXCUSE);
    if (suit_of(led) != TRUMP_SUIT) {
        Cards follow = hand & SUIT_MASK(suit_of(led));
        if (follow) return follow | excuse;
    }
    Cards trumps = hand & TRUMPS;
    if (!trumps) return hand;
    int top = top_trump(t, k);
    if (top >= 0) {
        Cards over = trumps & above(top);
        if (over) return over | excuse;
    }
    return trumps | excuse;
}

/* T9 and T23: the called card's suit may not open the deal's first trick, but for the
 * called card itself. */
Cards tarot_playable(const Pos *p, int seat) {
    Cards cards = playable(p->hand[seat], p->trick, p->ntrick);
    if (p->called >= 0 && !p->ntricks && !p->ntrick)
        cards &= ~(SUIT_MASK(suit_of(p->called)) & ~CARD(p->called));
    return cards;
}

/* T22, T24: the attack camp as a mask of seats. */
int tarot_attack(const Pos *p) {
    int camp = p->taker >= 0 ? 1 << p->taker : 0;
    return p->partner >= 0 ? camp | 1 << p->partner : camp;
}

/* T10, and T12's exception on the last trick: a camp that won every earlier trick and
 * leads the Excuse to the last one wins it. */
int tarot_trick_winner(const Pos *p, const uint8_t *cards) {
    int n = p->n, leader = p->leader;
    if (cards[0] == EXCUSE && p->ntricks == HAND_OF[n] - 1) {
        int camp = tarot_attack(p), leads = camp >> leader & 1, all = 1;
        for (int k = 0; k < p->ntricks && all; k++)
            all = (camp >> p->tricks[k].winner & 1) == leads;
        if (all) return leader;
    }
    int best = top_trump(cards, n);
    if (best < 0) {
        best = led_card(cards, n);
        int suit = suit_of(best);
        for (int i = 0; i < n; i++)
            if (suit_of(cards[i]) == suit && cards[i] > best) best = cards[i];
    }
    int i = 0;
    while (cards[i] != best) i++;
    return (leader + i) % n;
}

/* T22: whether `seat` knows the partner (rules/tarot/call.py `partner_known`). */
int tarot_partner_known(const Pos *p, int seat) {
    int called = p->called;
    if (called < 0 || p->phase == OVER || p->called_out) return 1;
    if (has(p->shown | p->hand[seat], called)) return 1;
    return seat == p->taker && has(p->ecart, called);
}

/* -- the legal moves --------------------------------------------------------------------- */

/* T22: the four Kings, then each lower court rank once the hand holds all four of every
 * rank above it. */
static Cards callable(Cards hand) {
    Cards cards = 0;
    for (int r = 13; r >= 10; r--) {
        Cards court = CARD(r) | CARD(14 + r) | CARD(28 + r) | CARD(42 + r);
        cards |= court;
        if ((hand & court) != court) break;
    }
    return cards;
}

static int declared(const Pos *p, int seat) {
    for (int i = 0; i < p->npoignees; i++)
        if (p->poignee_seat[i] == seat) return 1;
    return 0;
}

/* T8, T21: one canonical poignée per level the seat can show, smallest first: the lowest
 * trumps, with the Excuse last when it stands in for the missing one. */
static int poignees(const Pos *p, int seat, Cards *out) {
    Cards pool = p->hand[seat] & TRUMPS;
    if (seat == p->taker) pool |= p->ecart & TRUMPS;
    int have = ncards(pool), k = 0;
    for (int level = 0; level < 3; level++) {
        int size = POIGNEE_SIZES[p->n][level];
        if (have >= size) {
            Cards shown = 0, rest = pool;
            for (int i = 0; i < size; i++) {
                shown |= rest & -rest;
                rest &= rest - 1;
            }
            out[k++] = shown;
        } else if (have == size - 1 && has(p->hand[seat], EXCUSE)) {
            out[k++] = pool | CARD(EXCUSE);
        }
    }
    return k;
}

void tarot_poignee_of(const Pos *p, int seat, Cards *out) {
    Cards shown[3];
    int k = poignees(p, seat, shown);
    *out = k ? shown[k - 1] : 0;
}

static int highest_bid(const Pos *p) {
    int best = PASS;
    for (int i = 0; i < p->nbids; i++)
        if (p->bids[i] > best) best = p->bids[i];
    return best;
}

/* Every legal move in the rules' order; the écart as one template move (its size in
 * `arg`): every card of `must` and the rest from `from` (T5, T20). */
int tarot_legal(const Pos *p, Move *out, Cards *must, Cards *from) {
    int seat = p->to_act, k = 0;
    Move m = {0, 0, (int8_t)seat, -1, 0};
    switch (p->phase) {
    case BIDDING:
        m.action = A_BID;
        out[k++] = m;
        for (int c = highest_bid(p) + 1; c < CONTRACTS; c++) {
            m.arg = (int8_t)c;
            out[k++] = m;
        }
        return k;
    case CALL:
        m.action = A_CALL;
        for (Cards c = callable(p->hand[seat]); c; c &= c - 1) {
            m.card = (int8_t)first_card(c);
            out[k++] = m;
        }
        return k;
    case DISCARD: {
        Cards hand = p->hand[seat], ordinary = hand & ORDINARY;
        int size = CHIEN_OF[p->n];
        int short_ = ncards(ordinary) < size;
        *must = short_ ? ordinary : 0;
        *from = short_ ? hand & TRUMPS & ~BOUTS : ordinary;
        m.action = A_DISCARD;
        m.arg = (int8_t)size;
        out[k++] = m;
        return k;
    }
    case CHELEM:
        m.action = A_CHELEM;
        out[k++] = m;
        m.arg = 1;
        out[k++] = m;
        return k;
    case PLAY:
        m.action = A_PLAY;
        for (Cards c = tarot_playable(p, seat); c; c &= c - 1) {
            m.card = (int8_t)first_card(c);
            out[k++] = m;
        }
        if (!p->ntricks && !declared(p, seat)) {
            Cards shown[3];
            int levels = poignees(p, seat, shown);
            m.action = A_POIGNEE;
            m.card = -1;
            for (int i = 0; i < levels; i++) {
                m.cards = shown[i];
                out[k++] = m;
            }
        }
        return k;
    default:
        return 0;
    }
}

/* -- the moves ----------------------------------------------------------------------------- */

/* T5, T6: the chien shown and taken in a prise or garde, else the chelem decision. */
static void after_call(Pos *p) {
    if (p->contract == PRISE || p->contract == GARDE) {
        p->hand[p->taker] |= p->chien;
        p->shown = p->chien;
        p->chien = 0;
        p->phase = DISCARD;
    } else {
        p->phase = CHELEM;
    }
}

/* T3, T4: the auction once every seat has bid. */
static void bid(Pos *p, int seat, int contract) {
    int n = p->n;
    p->bids[p->nbids++] = (int8_t)contract;
    if (p->nbids < n) {
        p->to_act = (int8_t)((seat + 1) % n);
        return;
    }
    int best = PASS, at = -1;
    for (int i = 0; i < n; i++)
        if (p->bids[i] > best) best = p->bids[i], at = i;
    if (at < 0) { /* T3: all passed */
        p->phase = OVER;
        p->to_act = -1;
        return;
    }
    p->taker = p->to_act = (int8_t)((p->dealer + 1 + at) % n);
    p->contract = (int8_t)best;
    if (n == CALLING) /* T22: the call comes first */
        p->phase = CALL;
    else
        after_call(p);
}

/* T22: the called card's holder beside the taker is the partner; none when the taker holds
 * it or it lies in the chien. */
static void call(Pos *p, int seat, int card) {
    p->called = (int8_t)card;
    p->partner = -1;
    for (int s = 0; s < p->n; s++)
        if (has(p->hand[s], card)) p->partner = (int8_t)(s == seat ? -1 : s);
    after_call(p);
}

static void play_card(Pos *p, int seat, int card) {
    int n = p->n;
    p->hand[seat] &= ~CARD(card);
    p->trick[p->ntrick++] = (uint8_t)card;
    if (card == p->called) p->called_out = 1;
    if (p->ntrick < n) {
        p->to_act = (int8_t)((seat + 1) % n);
        return;
    }
    int winner = tarot_trick_winner(p, p->trick);
    Trick *t = &p->tricks[p->ntricks++];
    t->leader = p->leader;
    t->winner = (int8_t)winner;
    memcpy(t->card, p->trick, MAX_SEATS);
    p->ntrick = 0;
    p->leader = (int8_t)winner;
    if (p->ntricks == HAND_OF[n]) {
        p->phase = OVER;
        p->to_act = -1;
    } else {
        p->to_act = (int8_t)winner;
    }
}

void tarot_apply(Pos *p, const Move *m) {
    int seat = m->seat;
    switch (m->action) {
    case A_PLAY:
        play_card(p, seat, m->card);
        break;
    case A_BID:
        bid(p, seat, m->arg);
        break;
    case A_CALL:
        call(p, seat, m->card);
        break;
    case A_DISCARD:
        p->hand[seat] &= ~m->cards;
        p->ecart = m->cards;
        p->phase = CHELEM;
        break;
    case A_POIGNEE:
        p->poignee_seat[p->npoignees] = (int8_t)seat;
        p->poignee[p->npoignees++] = m->cards;
        break;
    case A_CHELEM: /* T7: an announced chelem lets the taker lead the first trick */
        p->chelem = (int8_t)(m->arg != 0);
        p->leader = p->to_act = (int8_t)(m->arg ? p->taker : (p->dealer + 1) % p->n);
        p->phase = PLAY;
        break;
    }
}

/* -- basic's bid, call, écart and chelem (rules/ai/tarot.py) -------------------------------- */

/* A rough count of tricks and points: trumps and bouts first, then Kings and long suits. */
int tarot_strength(Cards hand) {
    Cards trumps = hand & TRUMPS;
    int n = ncards(trumps);
    int score = 2 * n + ncards(trumps >> HIGH_TRUMP);
    if (has(hand, MONDE)) score += 10;
    if (has(hand, EXCUSE)) score += 8;
    if (has(hand, PETIT)) score += n >= 6 ? 8 : n >= 4 ? 4 : 1;
    for (int s = 0; s < 4; s++) {
        Cards suit = hand & SUIT_MASK(s);
        int length = ncards(suit);
        score += 6 * ((suit & KINGS) != 0) + 3 * has(suit, s * 14 + 12) + 2 * has(suit, s * 14 + 11);
        if (length >= 5)
            score += 2 * (length - 4);
        else if (length == 0 && n >= 5)
            score += 4;
    }
    return score;
}

/* T4, T19: the highest contract above the bids whose threshold, scaled to the hand's size,
 * the hand's strength reaches. */
static int basic_bid(Cards hand, const int8_t *bids, int nbids) {
    int highest = PASS;
    for (int i = 0; i < nbids; i++)
        if (bids[i] > highest) highest = bids[i];
    int strength = tarot_strength(hand) * FOUR_PLAYER_HAND, size = ncards(hand);
    for (int c = GARDE_CONTRE; c > highest; c--)
        if (strength >= BID_THRESHOLDS[c] * size) return c;
    return PASS;
}

/* How far `hand`'s strength lies from the band in which basic bids `bid` after `nbids`
 * bids: 0 when basic would bid it (rules/ai/tarot.py `bid_misfit`). */
double tarot_bid_misfit(Cards hand, const int8_t *bids, int nbids, int bid) {
    int highest = PASS;
    for (int i = 0; i < nbids; i++)
        if (bids[i] > highest) highest = bids[i];
    double s = (double)(tarot_strength(hand) * FOUR_PLAYER_HAND) / (double)ncards(hand);
    double low, high;
    if (bid == PASS) {
        low = -INFINITY;
        high = highest < GARDE_CONTRE ? BID_THRESHOLDS[highest + 1] : INFINITY;
    } else {
        if (bid <= highest) return 0.0; /* a bid basic never makes there */
        low = BID_THRESHOLDS[bid];
        high = bid < GARDE_CONTRE ? BID_THRESHOLDS[bid + 1] : INFINITY;
    }
    return s < low ? low - s : s >= high ? s - high + 1 : 0.0;
}

/* T22: a callable card the hand lacks, of the highest rank the list allows, in the suit
 * where the hand is longest and richest; with every callable card in hand, the cheapest. */
static int basic_call(Cards hand) {
    Cards options = callable(hand), lacking = options & ~hand;
    int best = -1, top = -1;
    if (!lacking) {
        for (Cards m = options; m; m &= m - 1)
            if (best < 0 || HALF_POINTS[first_card(m)] < HALF_POINTS[best]) best = first_card(m);
        return best;
    }
    for (Cards m = lacking; m; m &= m - 1)
        if (first_card(m) % 14 > top) top = first_card(m) % 14;
    int best_len = -1, best_half = -1;
    for (Cards m = lacking; m; m &= m - 1) {
        int c = first_card(m);
        if (c % 14 != top) continue;
        Cards suit = hand & SUIT_MASK(c / 14);
        int len = ncards(suit), half = 0;
        for (; suit; suit &= suit - 1) half += HALF_POINTS[first_card(suit)];
        if (len > best_len || (len == best_len && half > best_half))
            best = c, best_len = len, best_half = half;
    }
    return best;
}

/* T5, T20: every ordinary card first when they are short, then the lowest trumps (no
 * bout); otherwise the ordinary cards of the shortest suits without a King, dearest first,
 * the called card last. */
static Cards basic_discard(const Pos *p, int seat) {
    int size = ncards(p->shown);
    Cards hand = p->hand[seat], ordinary = hand & ORDINARY;
    int have = ncards(ordinary);
    if (have <= size) {
        Cards trumps = hand & TRUMPS & ~(CARD(PETIT) | CARD(MONDE));
        for (int i = have; i < size && trumps; i++) {
            ordinary |= trumps & -trumps;
            trumps &= trumps - 1;
        }
        return ordinary;
    }
    int key[DECK], cards[DECK], k = 0;
    for (Cards m = ordinary; m; m &= m - 1) {
        int c = first_card(m), s = c / 14;
        Cards suit = hand & SUIT_MASK(s);
        cards[k] = c;
        key[k++] = ((c == p->called) << 20 | ((suit & KINGS) != 0) << 19 | ncards(suit) << 12
                    | (9 - HALF_POINTS[c]) << 8 | c);
    }
    Cards out = 0;
    for (int i = 0; i < size; i++) { /* the `size` smallest keys */
        int at = i;
        for (int j = i + 1; j < k; j++)
            if (key[j] < key[at]) at = j;
        int kk = key[at], cc = cards[at];
        key[at] = key[i], cards[at] = cards[i];
        key[i] = kk, cards[i] = cc;
        out |= CARD(cc);
    }
    return out;
}

/* T7: only a hand that can hardly lose a trick announces: the Monde, the Excuse, and
 * trumps in five sixths of its cards. */
static int basic_announce(Cards hand) {
    return 6 * ncards(hand & TRUMPS) >= 5 * ncards(hand) && has(hand, MONDE) && has(hand, EXCUSE);
}

/* -- basic's card (rules/ai/tarot.py `_play`, `_lead`) ---------------------------------------- */

/* What a card is worth keeping: points, and the Petit dearest of all; ties by index. */
static inline int cost(int c) { return (c == PETIT ? 20 : HALF_POINTS[c]) << 7 | c; }

static int cheapest(Cards cards) {
    int best = first_card(cards), key = cost(best);
    for (Cards m = cards & (cards - 1); m; m &= m - 1) {
        int c = first_card(m);
        if (cost(c) < key) best = c, key = cost(c);
    }
    return best;
}

static int dearest(Cards cards) { /* by points, then index */
    int best = -1, key = -1;
    for (Cards m = cards; m; m &= m - 1) {
        int c = first_card(m), k = HALF_POINTS[c] << 7 | c;
        if (k > key) best = c, key = k;
    }
    return best;
}

static inline int beats(int card, int best) {
    if (card == EXCUSE) return 0;
    if (is_trump(card)) return !is_trump(best) || card > best;
    return suit_of(card) == suit_of(best) && card > best;
}

/* The cards of `cards` (no Excuse) that beat `best`. */
static inline Cards beaters(Cards cards, int best) {
    if (is_trump(best)) return cards & TRUMPS & ~((CARD(best) << 1) - 1);
    return (cards & TRUMPS) | (cards & SUIT_MASK(suit_of(best)) & ~((CARD(best) << 1) - 1));
}

/* The seats `seat` knows play in its camp (T22): its camp, or itself alone while it
 * cannot tell the partner. */
static int allies(const Pos *p, int seat) {
    if (p->taker < 0 || !tarot_partner_known(p, seat)) return 1 << seat;
    int camp = tarot_attack(p);
    return camp >> seat & 1 ? camp : ((1 << p->n) - 1) & ~camp;
}

static int lead(const Pos *p, int seat, Cards cards) {
    if (cards & KINGS) return first_card(cards & KINGS);
    if (p->called >= 0 && seat == p->taker && !tarot_partner_known(p, seat)) {
        /* Look for the partner: a low card of the called suit lets the called card win. */
        Cards suit = cards & SUIT_MASK(suit_of(p->called));
        if (suit) return first_card(suit);
    }
    Cards trumps = cards & TRUMPS;
    int long_trumps = ncards(trumps) * FOUR_PLAYER_HAND >= 8 * HAND_OF[p->n];
    if (seat == p->taker && long_trumps && last_card(trumps) >= HIGH_TRUMP)
        return last_card(trumps); /* draw the defenders' trumps from the top */
    Cards plain = cards & ~TRUMPS;
    if (!plain) return cheapest(cards);
    int best = -1, key = 0;
    for (Cards m = plain; m; m &= m - 1) { /* the longest suit's lowest card */
        int c = first_card(m), k = -ncards(p->hand[seat] & SUIT_MASK(c / 14)) * 128 + c;
        if (best < 0 || k < key) best = c, key = k;
    }
    return best;
}

static int follow(const Pos *p, int seat, Cards cards, Cards others) {
    int n = p->n, best = top_trump(p->trick, p->ntrick), best_seat = -1;
    if (best < 0 && (best = led_card(p->trick, p->ntrick)) >= 0) {
        for (int i = 0; i < p->ntrick; i++)
            if (suit_of(p->trick[i]) == suit_of(best) && p->trick[i] > best) best = p->trick[i];
    }
    for (int i = 0; best >= 0 && best_seat < 0; i++)
        if (p->trick[i] == best) best_seat = (p->leader + i) % n;
    int last = p->ntrick == n - 1, called = p->called;
    if (called >= 0 && has(cards, called) && best >= 0 && beats(called, best))
        return called; /* the partner wins and shows itself (T22) */
    if (best >= 0 && allies(p, seat) >> best_seat & 1) {
        /* The trick is ours: feed it points when it is safe, else play cheap. */
        if (last || best >= HIGH_TRUMP || (!is_trump(best) && has(KINGS, best))) {
            Cards plain = (others & ~TRUMPS) | (last ? others & CARD(PETIT) : 0);
            if (plain) return dearest(plain);
        }
        return cheapest(others);
    }
    Cards winners = best < 0 ? others : beaters(others, best);
    if (winners) {
        if (last) return has(winners, PETIT) ? PETIT : first_card(winners);
        Cards safe = winners & ~CARD(PETIT); /* a Petit risks capture */
        return first_card(safe ? safe : winners);
    }
    if (has(cards, EXCUSE)) {
        int low = 99;
        for (Cards m = others; m; m &= m - 1)
            if (HALF_POINTS[first_card(m)] < low) low = HALF_POINTS[first_card(m)];
        if (low >= 3) return EXCUSE; /* T11: cheaper than giving away a court card */
    }
    return cheapest(others);
}

static int basic_card(const Pos *p, int seat) {
    Cards cards = tarot_playable(p, seat);
    if (!(cards & (cards - 1))) return first_card(cards);
    if (has(cards, EXCUSE) && p->ntricks >= HAND_OF[p->n] - 3)
        return EXCUSE; /* T12: kept to the last trick, it is lost */
    Cards others = cards & ~CARD(EXCUSE);
    if (!p->ntrick) return lead(p, seat, others);
    return follow(p, seat, cards, others);
}

void tarot_basic(const Pos *p, int seat, Move *m) {
    m->seat = (int8_t)seat;
    m->card = -1;
    m->cards = 0;
    m->arg = 0;
    switch (p->phase) {
    case BIDDING:
        m->action = A_BID;
        m->arg = (int8_t)basic_bid(p->hand[seat], p->bids, p->nbids);
        return;
    case CALL:
        m->action = A_CALL;
        m->card = (int8_t)basic_call(p->hand[seat]);
        return;
    case DISCARD:
        m->action = A_DISCARD;
        m->cards = basic_discard(p, seat);
        return;
    case CHELEM:
        m->action = A_CHELEM;
        m->arg = (int8_t)basic_announce(p->hand[seat]);
        return;
    default:
        if (!p->ntricks && !declared(p, seat)) { /* T8, T21: the largest it can show */
            tarot_poignee_of(p, seat, &m->cards);
            if (m->cards) {
                m->action = A_POIGNEE;
                return;
            }
        }
        m->action = A_PLAY;
        m->card = (int8_t)basic_card(p, seat);
    }
}

/* -- the settlement (rules/tarot/scoring.py) ------------------------------------------------- */

static int floor_half(int x) { return x >= 0 ? x / 2 : -((1 - x) / 2); }

/* T5, T6, T11-T13: the attack camp's cards and half points at the end of a played deal. */
static void camp_cards(const Pos *p, int camp, int *half_out, int *bouts_out) {
    int n = p->n, last = HAND_OF[n] - 1, half = 0;
    Cards won = 0;
    if (p->contract == GARDE_SANS)
        won |= p->chien; /* T6 */
    else if (p->contract == PRISE || p->contract == GARDE)
        won |= p->ecart; /* T5 */
    for (int k = 0; k < p->ntricks; k++) {
        const Trick *t = &p->tricks[k];
        int wins = camp >> t->winner & 1;
        for (int i = 0; i < n; i++) {
            int c = t->card[i];
            if (c != EXCUSE) {
                if (wins) won |= CARD(c);
                continue;
            }
            int owner = (t->leader + i) % n, owns = camp >> owner & 1;
            if (k < last) { /* T11: it stays with its camp; half a point changes hands */
                if (owns) won |= CARD(EXCUSE);
                if (owns != wins) half += wins ? 1 : -1;
            } else if (t->winner == owner) { /* T12's exception: won by a chelem */
                if (owns) won |= CARD(EXCUSE);
            } else if (!owns) {
                won |= CARD(EXCUSE); /* T12: on the last trick it changes camp */
            }
        }
    }
    for (Cards m = won; m; m &= m - 1) half += HALF_POINTS[first_card(m)];
    *half_out = half;
    *bouts_out = ncards(won & BOUTS);
}

/* T14-T17, T24 (rules/tarot/scoring.py `score`). */
static void score(const Pos *p, Settled *s) {
    int mult = MULTIPLIERS[p->contract], target = TARGETS[s->bouts];
    int made = s->half >= 2 * target;
    int counted = made ? floor_half(s->half + 1) : floor_half(s->half);
    int base = (25 + abs(counted - target)) * mult, pd = made ? base : -base;
    if (s->petit >= 0) pd += s->petit ? 10 * mult : -10 * mult; /* T15 */
    for (int i = 0; i < p->npoignees; i++) { /* T17.3: to the camp that won the contract */
        int size = ncards(p->poignee[i]), value = 0;
        for (int level = 0; level < 3; level++)
            if (POIGNEE_SIZES[p->n][level] == size) value = POIGNEE_VALUES[level];
        pd += made ? value : -value;
    }
    if (p->chelem == 1) /* T16: an announced chelem not made fails, 200 to the defenders */
        pd += s->made_by == 1 ? 400 : -200;
    else if (s->made_by >= 0)
        pd += s->made_by ? 200 : -200;
    s->per_defender = pd;
    int sum = 0;
    for (int i = 0; i < p->n; i++) s->scores[i] = -pd;
    if (p->partner >= 0) s->scores[p->partner] = pd;
    s->scores[p->taker] = 0;
    for (int i = 0; i < p->n; i++) sum += s->scores[i];
    s->scores[p->taker] = -sum;
}

void tarot_settle(const Pos *p, Settled *s) {
    memset(s, 0, sizeof *s);
    s->petit = s->made_by = -1;
    if (p->taker < 0) { /* T3: all passed, or a petit sec at the deal */
        s->annulled = p->nbids ? 1 : 2;
        return;
    }
    int camp = tarot_attack(p);
    camp_cards(p, camp, &s->half, &s->bouts);
    /* T15: the last trick decides, or the one before when a chelem was completed with the
     * Excuse. */
    const Trick *last = &p->tricks[p->ntricks - 1];
    if (last->card[0] == EXCUSE && last->winner == last->leader) last--;
    for (int i = 0; i < p->n; i++)
        if (last->card[i] == PETIT) s->petit = camp >> last->winner & 1;
    int first = camp >> p->tricks[0].winner & 1, one = 1;
    for (int k = 1; k < p->ntricks && one; k++) one = (camp >> p->tricks[k].winner & 1) == first;
    s->made_by = one ? first : -1; /* T16 */
    score(p, s);
}

/* T17, T24: the seat's score mapped linearly onto [0, 1] (rules/ai/tarot.py `value`). */
double tarot_value(const Settled *s, int seat) {
    double v = 0.5 + s->scores[seat] / (2.0 * SCORE_SPAN);
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Basic's play for every seat to the end of the deal: the seat's value. */
double tarot_play_out(Pos *p, int seat) {
    Move m;
    while (p->phase != OVER) {
        tarot_basic(p, p->to_act, &m);
        tarot_apply(p, &m);
    }
    Settled s;
    tarot_settle(p, &s);
    return tarot_value(&s, seat);
}

/* The cards each seat played, the trick in progress included. */
static void played_by(const Pos *p, Cards *played) {
    int n = p->n;
    for (int s = 0; s < n; s++) played[s] = 0;
    for (int k = 0; k < p->ntricks; k++)
        for (int i = 0; i < n; i++) played[(p->tricks[k].leader + i) % n] |= CARD(p->tricks[k].card[i]);
    for (int i = 0; i < p->ntrick; i++) played[(p->leader + i) % n] |= CARD(p->trick[i]);
}

/* How far the other seats' hands in a whole deal lie from hands with which basic would
 * have bid as they did (rules/ai/tarot.py `bids_misfit`); `played` as `played_by` gives
 * it, or NULL. */
double tarot_bids_misfit(const Pos *world, int seat, const Cards *played) {
    int n = world->n;
    Cards held[MAX_SEATS], own[MAX_SEATS];
    if (!played) {
        played_by(world, own);
        played = own;
    }
    for (int s = 0; s < n; s++) held[s] = world->hand[s] | played[s];
    if (world->taker >= 0 && world->shown) /* the taker bid before taking the chien (T5) */
        held[world->taker] = (held[world->taker] | world->ecart) & ~world->shown;
    double total = 0;
    for (int i = 0; i < world->nbids; i++) {
        int s = (world->dealer + 1 + i) % n;
        if (s != seat) total += tarot_bid_misfit(held[s], world->bids, i, world->bids[i]);
    }
    return total;
}
