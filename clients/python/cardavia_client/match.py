"""`cardavia match`: seeded deals between players, each move checked by the service.

    cardavia match durak --seats strong,http://127.0.0.1:9000/ --deals 100 --budget 200

A player is a level of the service's AI (`random`, `basic`, `strong`: it plays through
`ai-move`) or an outside bot: the URL of an HTTP endpoint that is asked each of its moves
and told how each deal ended (cardavia_client.bots says how). Deal i is dealt from seed
`--seed` + i, and the players rotate round the table: player j sits at seat (j + i) mod n,
so over n deals every player has held every seat of every seeded deal's neighbourhood.
Every move, the AI's too, goes through `/move`; a bot's move that is illegal, unreadable
or late forfeits its deal, which is left out of the figures and counted against the bot
(exit status 1). A bot that cannot be reached at all (nothing listens at its URL) stops
the match. Each deal is kept as a game record (`replay` takes it as it is); `jobs` deals
are played at once, the same deals as one after another.

The figures are per player: the mean score with Student's t 95% interval, and the share
of deals won with Wilson's 95% interval (Durak: of the decided deals, a draw deciding
nothing; Tarot: won by the seat's camp, of the deals not annulled; Ganjifa: a win shared by
k players counts 1/k). An annulled Tarot deal (T3) scores 0 for every seat.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import requests

from cardavia_client.bots import BOT_TIMEOUT, BotUnreachable, Forfeit, ask_bot, tell_bot
from cardavia_client.client import Client, ProblemError
from cardavia_client.stats import mean_ci, wilson
from cardavia_client.types import GameRecord, Move, MoveResult, State

__all__ = ["BOT_TIMEOUT", "BotUnreachable", "Forfeit", "wilson"]

LEVELS = ("random", "basic", "strong")
# Why a Tarot deal was annulled (T3), as the settlement's `annulled` names it.
ANNULLED = {"all_pass": "every seat passed", "petit_sec": "a petit sec"}
# A deal longer than this is a bug somewhere: no deal of these games comes near it.
MAX_MOVES = 1000
# The prod stack answers an `ai-move` past its limits 429 or 503 with `Retry-After: 1`
# (several deals at once, `--jobs`, from one address), and the service 429 once the
# address has spent its share of search time (a refusal costs nothing of it, and its
# Retry-After says when the share holds the search): asked again after the Retry-After,
# or a second, for at most this long before the match stops with the service's problem.
BUSY_RETRY_S = (1.0, 300.0)


@dataclass
class Player:
    """One entry of `--seats`: a level of the service's AI, or a bot's URL."""

    spec: str

    @property
    def is_bot(self) -> bool:
        return self.spec not in LEVELS


def labels(specs: list[str]) -> list[str]:
    """Each player's name for a terminal: its spec, numbered by its place in --seats when
    another player has the same (`basic #1`, `basic #2`)."""
    return [f"{s} #{j}" if specs.count(s) > 1 else s for j, s in enumerate(specs, 1)]


def plural(n: float, noun: str) -> str:
    return f"{n:g} {noun}" + ("" if n == 1 else "s")


def parse_seats(text: str) -> list[Player]:
    """`strong,basic,http://…`: one player per seat, in the order of the first deal's seats."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part not in LEVELS and not part.startswith(("http://", "https://")):
            raise ValueError(f"{part!r} is neither a level ({', '.join(LEVELS)}) nor an "
                             "http(s) URL")
        out.append(Player(part))
    if len(out) < 2:
        raise ValueError("a match needs at least two seats")
    return out


@dataclass
class DealResult:
    """One deal: its seed, which player sat at each seat, the seats' scores (None when
    forfeit) and the settlement; or the forfeiting player and why. `record` is the deal
    as a game record (`{"game", "deal", "moves"}`, for `replay`), ending with a forfeiting
    bot's illegal move; `deal_id` is what its bots were told the deal is."""

    seed: int
    players_at: list[int]
    moves: int
    settlement: dict[str, Any] | None = None
    forfeit: int | None = None
    reason: str | None = None
    record: GameRecord | None = None
    deal_id: str = ""

    @property
    def scores(self) -> list[float]:
        assert self.settlement is not None
        return [float(s) for s in self.settlement["scores"]]


def ai_seed(deal_seed: int, move_index: int) -> int:
    """The AI's seed for one move: the same move again for the same match."""
    return deal_seed * 1000 + move_index


class Stopped(Exception):
    """Another deal of the match stopped it (a bot out of reach, Ctrl-C)."""


@dataclass
class Match:
    """What every deal of a match shares: the game, its players in --seats order, the AI's
    budget, the deal's options beside its seed (`players` among them when the count is
    not the game's default), a bot's time to answer one move, and the flag that stops the
    deals still being played."""

    game: str
    players: list[Player]
    budget_ms: int = 200
    options: dict[str, Any] = field(default_factory=dict)
    move_timeout: float | None = None  # None: bots.BOT_TIMEOUT's
    stop: threading.Event = field(default_factory=threading.Event)
    # Told each refusal of an ai-move the match waits out, and how long it waits.
    waiting: Callable[[ProblemError, float], None] | None = None

    def deal(self, client: Client, session: requests.Session, index: int, seed: int
             ) -> DealResult:
        """Deal `seed` played to its end, player j at seat (j + index) mod n, each bot told
        how it ended."""
        n = len(self.players)
        playing = Playing(self, client, session, [(s - index) % n for s in range(n)], seed)
        result = playing.play()
        playing.tell_bots(result)
        return result

    def ai_move(self, client: Client, state: State, seat: int, level: str, seed: int
                ) -> Move:
        """The service's AI move, asked again while the service is busy (429, 503)."""
        pause, patience = BUSY_RETRY_S
        waited = 0.0
        while True:
            try:
                return client.ai_move(self.game, state, seat=seat, level=level, seed=seed,
                                      budget_ms=self.budget_ms).move
            except ProblemError as e:
                if e.status not in (429, 503) or waited >= patience or self.stop.is_set():
                    raise
                wait = min(max(pause, e.retry_after or 0), patience - waited)
                if self.waiting is not None:
                    self.waiting(e, wait)
            time.sleep(wait)
            waited += wait


@dataclass
class Playing:
    """One deal being played: its players' places, its moves so far, its bots' name for it."""

    match: Match
    client: Client
    session: requests.Session
    players_at: list[int]
    seed: int
    moves: list[Move] = field(default_factory=list)
    state: State = field(default_factory=dict)  # the last one, as the deal went
    deal_id: str = field(default_factory=lambda: secrets.token_hex(8))

    def record(self, *extra: Move) -> GameRecord:
        return {"game": self.match.game, "deal": {"seed": self.seed, **self.match.options},
                "moves": [*self.moves, *extra]}

    def result(self, **how: Any) -> DealResult:
        extra = how.pop("extra", ())
        return DealResult(self.seed, self.players_at, len(self.moves), **how,
                          record=self.record(*extra), deal_id=self.deal_id)

    def play(self) -> DealResult:
        m, client = self.match, self.client
        state: State = client.deal(m.game, seed=self.seed, **m.options).state
        self.state, settlement = state, None
        while (seat := state["to_act"]) is not None:
            if m.stop.is_set():
                raise Stopped
            if len(self.moves) >= MAX_MOVES:
                raise RuntimeError(f"deal {self.seed} did not end after {MAX_MOVES} moves")
            j = self.players_at[seat]
            player = m.players[j]
            if player.is_bot:
                try:
                    move, result = self.bot_move(state, seat, player.spec)
                except Forfeit as e:
                    return self.result(forfeit=j, reason=str(e), extra=e.moves)
            else:
                move = m.ai_move(client, state, seat, player.spec,
                                 ai_seed(self.seed, len(self.moves)))
                result = client.move(m.game, state, move)
                if not result.legal:  # the service's own AI: a fault of the service
                    raise RuntimeError(f"the {player.spec} AI played an illegal move in deal "
                                       f"{self.seed}: {json.dumps(move)}")
            assert result.state is not None
            self.state = state = result.state
            settlement = result.settlement
            self.moves.append(move)
        return self.result(settlement=settlement)

    def bot_move(self, state: State, seat: int, url: str) -> tuple[Move, MoveResult]:
        """A bot's move and what the service makes of it; a Forfeit (holding the move when
        it was read and found illegal) when it cannot be played."""
        m, client = self.match, self.client
        asked = {"game": m.game, "deal": self.deal_id, "seat": seat,
                 "view": client.view(m.game, state, seat),
                 "legal_moves": [mv for mv in client.legal_moves(m.game, state).moves
                                 if mv["seat"] == seat]}
        move = ask_bot(self.session, url, asked, m.move_timeout or BOT_TIMEOUT[1])
        try:
            result = client.move(m.game, state, move)
        except ProblemError as e:  # a move the service cannot read (422)
            raise Forfeit(f"not a move: {e}") from None
        if not result.legal:
            assert result.reason is not None
            raise Forfeit(f"illegal move {json.dumps(move)}: {result.reason.message}",
                          moves=[move])
        return move, result

    def tell_bots(self, result: DealResult) -> None:
        """Every bot's seat told how the deal ended (bots.tell_bot)."""
        m = self.match
        forfeit = None if result.forfeit is None else {
            "seat": self.players_at.index(result.forfeit), "reason": result.reason}
        told = {"settlement": result.settlement, "forfeit": forfeit}
        for seat, j in enumerate(self.players_at):
            if m.players[j].is_bot:
                tell_bot(self.session, m.players[j].spec, m.game, self.deal_id, seat,
                         self.client.view(m.game, self.state, seat), told,
                         m.move_timeout or BOT_TIMEOUT[1])


# -- the figures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """How a game's deals are counted, as its GameInfo says (`won_by`, `score_bounds`)."""

    won_by: str  # "score", "camp" (deals may be annulled) or "winners" (a shared win)
    bounds: tuple[float, float] | None = None  # a seat's lowest and highest in one deal

    @classmethod
    def of(cls, info: dict[str, Any], players: int) -> Scoring:
        bounds = info.get("score_bounds", {}).get(str(players))
        return cls(info["won_by"], None if bounds is None else (bounds[0], bounds[1]))


@dataclass
class Figures:
    """One player's figures over the deals that were played out."""

    player: str
    deals: int = 0
    forfeits: int = 0
    scores: list[float] = field(default_factory=list)
    wins: float = 0.0  # a shared win counts its share
    losses: int = 0
    draws: int = 0
    annulled: int = 0  # the deals that no camp won (Tarot's T3)

    def count(self, score: float, settlement: dict[str, Any], seat: int) -> None:
        """One deal played out, settled by `settlement`, at `seat`."""
        self.deals += 1
        self.scores.append(score)
        winners = settlement.get("winners")
        if winners:
            if seat in winners:
                self.wins += 1 / len(winners)
        elif "annulled" in settlement:
            self.annulled += 1
        elif score > 0:
            self.wins += 1
        elif score < 0:
            self.losses += 1
        else:
            self.draws += 1

    def as_dict(self, scoring: Scoring) -> dict[str, Any]:
        """The figures, counted as `scoring` says."""
        mean, ci = mean_ci(self.scores)
        if ci is not None and scoring.bounds is not None:
            # Student's t takes the mean for normal, and over few deals of a bounded score
            # it reaches past what any deal can give (a Durak mean of -1.0 "from -5.3"): the
            # interval is clipped to the possible range, as Wilson's stays within 0-100%.
            ci = (max(ci[0], scoring.bounds[0]), min(ci[1], scoring.bounds[1]))
        out: dict[str, Any] = {"player": self.player, "deals": self.deals,
                               "forfeits": self.forfeits, "mean_score": mean, "score_ci": ci}
        if scoring.won_by == "winners":
            out.update(win_share=self.wins / self.deals if self.deals else None,
                       won_ci=wilson(self.wins, self.deals))
            return out
        decided = int(self.wins) + self.losses
        out.update(wins=int(self.wins), losses=self.losses, draws=self.draws,
                   won_of_decided=self.wins / decided if decided else None,
                   won_ci=wilson(self.wins, decided))
        if scoring.won_by == "camp":  # won by the seat's camp (T17), or annulled (T3)
            out["annulled"] = self.annulled
        return out


def figures(scoring: Scoring, players: list[Player], results: list[DealResult]) -> list[dict]:
    per = [Figures(p.spec) for p in players]
    for r in results:
        if r.forfeit is not None:
            per[r.forfeit].forfeits += 1
            continue
        assert r.settlement is not None
        for seat, j in enumerate(r.players_at):
            per[j].count(r.scores[seat], r.settlement, seat)
    return [f.as_dict(scoring) for f in per]


def annulled(results: list[DealResult]) -> dict[str, int]:
    """The deals played out that were annulled, counted by why (Tarot's T3)."""
    out: dict[str, int] = {}
    for r in results:
        why = r.settlement.get("annulled") if r.settlement else None
        if why:
            out[why] = out.get(why, 0) + 1
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def report(game: str, deals: int, seed: int, budget_ms: int, table: list[dict],
           deal: dict[str, Any] | None = None, annulled: dict[str, int] | None = None) -> str:
    """The figures for a terminal: a player's counts, then a line a figure. `deal`: the
    options every deal had; `annulled`: the deals annulled, by why (`annulled(results)`)."""
    dealt = "".join(f", {k} {json.dumps(v)}" for k, v in (deal or {}).items())
    seeds = f"seed {seed}" if deals == 1 else f"seeds {seed}-{seed + deals - 1}"
    lines = [f"{game}{dealt}: {plural(deals, 'deal')} ({seeds}), the players "
             f"rotating round the table,", f"AI budget {budget_ms} ms; 95% intervals in brackets"]
    if annulled:
        whys = [ANNULLED.get(k, k) for k in annulled] if len(annulled) == 1 else \
            [f"{n} {ANNULLED.get(k, k)}" for k, n in annulled.items()]
        lines.append(f"{sum(annulled.values())} of {plural(table[0]['deals'], 'deal')} annulled "
                     f"({', '.join(whys)}): scored 0, neither won nor lost")
    names = labels([f["player"] for f in table])
    for i, f in enumerate(table, 1):
        # A line a figure: all on one line would pass an 80-column terminal.
        lines += [f"  {i}. {names[i - 1]}: {counts_said(f)}",
                  *(f"     {x}" for x in (won_said(f), mean_said(f)) if x)]
    return "\n".join(lines)


def counts_said(f: dict[str, Any]) -> str:
    """A player's deals: played, won, lost, drawn, annulled, forfeit."""
    said = plural(f["deals"], "deal")
    if "won_of_decided" in f:
        said += f", {f['wins']} won, {f['losses']} lost"
        if "annulled" not in f or f["draws"]:  # a Tarot deal is won or lost, or annulled
            said += f", {f['draws']} drawn"
    if "annulled" in f:
        said += f", {f['annulled']} annulled"
    if f["forfeits"]:
        said += f", {f['forfeits']} forfeit"
    return said


def won_said(f: dict[str, Any]) -> str:
    """A player's share of wins, with its interval."""
    won = ""
    if "annulled" in f:
        won = f"its camp won {_pct(f['won_of_decided'])} of the deals not annulled"
    elif "won_of_decided" in f:
        won = f"won {_pct(f['won_of_decided'])} of the decided deals"
    elif "win_share" in f:
        won = f"win share {_pct(f['win_share'])}"
    if f.get("won_ci"):
        won += f" ({_pct(f['won_ci'][0])} to {_pct(f['won_ci'][1])})"
    return won


def mean_said(f: dict[str, Any]) -> str:
    lo_hi = f["score_ci"]
    return f"mean score {_num(f['mean_score'])}" + (
        f" ({_num(lo_hi[0])} to {_num(lo_hi[1])})" if lo_hi else "")


def run(client: Client, game: str, players: list[Player], deals: int, seed: int = 0,
        budget_ms: int = 200, progress: Callable[[DealResult], None] | None = None,
        deal: dict[str, Any] | None = None, *, jobs: int = 1,
        move_timeout: float | None = None,
        waiting: Callable[[ProblemError, float], None] | None = None
        ) -> tuple[list[DealResult], list[dict]]:
    """The whole match: every deal's result, in the order of their seeds, and each player's
    figures. Each deal is dealt with `deal`'s options (API.md's DealRequest: Durak's
    `transfer`, `cards`, …) and for as many players as there are seats; `jobs` deals are
    played at once, each by a client of its own; `progress` is given each result in
    the order of the seeds, as soon as every deal before it is over too; `waiting`, each
    refused ai-move that the match asks again, and the seconds until it does."""
    info = client.game(game)
    scoring = Scoring.of(dict(info), len(players))
    options: dict[str, Any] = dict(deal or {})
    if len(players) != info["players"]:
        options["players"] = len(players)
    m = Match(game, players, budget_ms, options, move_timeout, waiting=waiting)
    if jobs == 1:  # the caller's client, one deal after another
        with requests.Session() as session:
            results = []
            for i in range(deals):
                results.append(m.deal(client, session, i, seed + i))
                if progress is not None:
                    progress(results[-1])
    else:
        results = in_parallel(m, client, deals, seed, jobs, progress)
    return results, figures(scoring, players, results)


def in_parallel(m: Match, client: Client, deals: int, seed: int, jobs: int,
                progress: Callable[[DealResult], None] | None) -> list[DealResult]:
    """The deals played `jobs` at once, each thread with a client and a bot session of its
    own (a requests.Session is not shared between threads). The first error stops the
    others at their next move, and is raised."""
    local = threading.local()
    opened: list[Client | requests.Session] = []
    lock = threading.Lock()

    def play(i: int) -> DealResult:
        if not hasattr(local, "client"):
            local.client = Client(client.url, timeout=client.timeout,
                                  language=client.session.headers.get("Accept-Language"))
            local.session = requests.Session()
            with lock:
                opened.extend((local.client, local.session))
        return m.deal(local.client, local.session, i, seed + i)

    done: dict[int, DealResult] = {}
    said = 0
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="deal")
    try:
        futures = {pool.submit(play, i): i for i in range(deals)}
        pending: set[Future[DealResult]] = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for f in finished:
                done[futures[f]] = f.result()  # the first error is raised here
            while said in done:
                if progress is not None:
                    progress(done[said])
                said += 1
    except BaseException:
        m.stop.set()  # the deals being played stop at their next move, the others never start
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        for c in opened:
            c.close()
    return [done[i] for i in range(deals)]
