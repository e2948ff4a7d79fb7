"""`cardavia match`: seeded deals between players, each move checked by the service.

    cardavia match durak --seats strong,http://127.0.0.1:9000/ --deals 100 --budget 200

A player is a level of the service's AI (`random`, `basic`, `strong`: it plays through
`ai-move`) or an outside bot: the URL of an HTTP endpoint that receives, as a JSON POST,

    {"game": "durak", "seat": 1, "view": View, "legal_moves": [Move…]}

(`view` is what that seat may see, `legal_moves` that seat's listed moves, a template
among them where the game lists one) and answers the move it plays, as a Move object or as
`{"move": Move}`. Deal i is dealt from seed `--seed` + i, and the players rotate round the
table: player j sits at seat (j + i) mod n, so over n deals every player has held every
seat of every seeded deal's neighbourhood. Every move, the AI's too, goes through `/move`;
a bot's move that is illegal, unreadable or late forfeits its deal, which is left out of
the figures and counted against the bot (exit status 1). A bot that cannot be reached at
all (nothing listens at its URL) stops the match.

The figures are per player: the mean score with Student's t 95% interval, and the share
of deals won with Wilson's 95% interval (Durak: of the decided deals, a draw deciding
nothing; Tarot: won by the seat's camp, of the deals not annulled; Ganjifa: a win shared by
k players counts 1/k). An annulled Tarot deal (T3) scores 0 for every seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import requests
from urllib3.exceptions import NameResolutionError, NewConnectionError

from cardavia_client.client import Client, ProblemError
from cardavia_client.stats import mean_ci, wilson
from cardavia_client.types import Move, State

LEVELS = ("random", "basic", "strong")
# Why a Tarot deal was annulled (T3), as the settlement's `annulled` names it.
ANNULLED = {"all_pass": "every seat passed", "petit_sec": "a petit sec"}
# A bot has this long (connect, read) to answer one move; past it the deal is forfeit.
BOT_TIMEOUT = (5.0, 30.0)
# A deal longer than this is a bug somewhere: no deal of these games comes near it.
MAX_MOVES = 1000


class Forfeit(Exception):
    """A bot's answer that cannot be played: its deal ends there, counted against it."""


class BotUnreachable(Exception):
    """Nothing answers at a bot's URL: no deal can be played, so the match stops."""

    def __init__(self, url: str, why: str):
        super().__init__(f"cannot reach the bot at {url}: {why}")


def unreachable(e: requests.ConnectionError) -> str | None:
    """Why a bot's URL could not be connected to, and what to check; None when it was, and
    the answer broke off (a bot that failed on one move, which forfeits that deal)."""
    if isinstance(e, requests.ConnectTimeout):
        return f"connecting took longer than {BOT_TIMEOUT[0]:g} s; is the address right?"
    reason = getattr(e.args[0] if e.args else None, "reason", None)  # urllib3's MaxRetryError
    if isinstance(reason, NameResolutionError):
        return "unknown host; is the URL right?"
    if not isinstance(reason, NewConnectionError):
        return None
    cause = reason.__cause__ or reason.__context__
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused; is it running?"
    return str(cause or reason)


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
    forfeit) and the settlement; or the forfeiting player and why."""

    seed: int
    players_at: list[int]
    moves: int
    settlement: dict[str, Any] | None = None
    forfeit: int | None = None
    reason: str | None = None

    @property
    def scores(self) -> list[float]:
        assert self.settlement is not None
        return [float(s) for s in self.settlement["scores"]]


def ai_seed(deal_seed: int, move_index: int) -> int:
    """The AI's seed for one move: the same move again for the same match."""
    return deal_seed * 1000 + move_index


def ask_bot(session: requests.Session, url: str, game: str, view: State, seat: int,
            legal: list[Move]) -> Move:
    """The bot's move, with `seat` filled in when the bot leaves it out."""
    body: dict[str, Any] = {"game": game, "seat": seat, "view": view, "legal_moves": legal}
    try:
        r = session.post(url, json=body, timeout=BOT_TIMEOUT)
    except requests.ReadTimeout:
        raise Forfeit(f"the bot did not answer within {BOT_TIMEOUT[1]:g} s") from None
    except requests.ConnectionError as e:
        why = unreachable(e)
        if why is not None:
            raise BotUnreachable(url, why) from None
        raise Forfeit(f"the bot's answer broke off: {e}") from None
    except requests.RequestException as e:
        raise Forfeit(f"the bot did not answer: {e}") from None
    if r.status_code != 200:
        raise Forfeit(f"the bot answered HTTP {r.status_code}: {r.text[:200]!r}")
    try:
        answer = r.json()
    except ValueError:
        raise Forfeit(f"the bot's answer is not JSON: {r.text[:200]!r}") from None
    if isinstance(answer, dict) and isinstance(answer.get("move"), dict):
        answer = answer["move"]
    if not isinstance(answer, dict) or "action" not in answer:
        raise Forfeit(f"the bot's answer is not a move: {json.dumps(answer)[:200]}")
    answer.setdefault("seat", seat)
    return answer  # type: ignore[return-value]


def play_deal(client: Client, session: requests.Session, game: str, players: list[Player],
              index: int, seed: int, budget_ms: int, options: dict[str, Any]) -> DealResult:
    """Deal `seed` played to its end, player j at seat (j + index) mod n."""
    n = len(players)
    players_at = [(s - index) % n for s in range(n)]
    state: State = client.deal(game, seed=seed, **options).state
    settlement = None
    moves = 0
    while (seat := state["to_act"]) is not None:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"deal {seed} did not end after {MAX_MOVES} moves")
        j = players_at[seat]
        player = players[j]
        if player.is_bot:
            own = [m for m in client.legal_moves(game, state).moves if m["seat"] == seat]
            try:
                move = ask_bot(session, player.spec, game, client.view(game, state, seat),
                               seat, own)
                result = client.move(game, state, move)
            except Forfeit as e:
                return DealResult(seed, players_at, moves, forfeit=j, reason=str(e))
            except ProblemError as e:  # a move the service cannot read (422)
                return DealResult(seed, players_at, moves, forfeit=j,
                                  reason=f"not a move: {e}")
            if not result.legal:
                assert result.reason is not None
                return DealResult(seed, players_at, moves, forfeit=j,
                                  reason=f"illegal move {json.dumps(move)}: "
                                         f"{result.reason.message}")
        else:
            move = client.ai_move(game, state, seat=seat, level=player.spec,
                                  seed=ai_seed(seed, moves), budget_ms=budget_ms).move
            result = client.move(game, state, move)
            if not result.legal:  # the service's own AI: a fault of the service
                raise RuntimeError(f"the {player.spec} AI played an illegal move in deal "
                                   f"{seed}: {json.dumps(move)}")
        assert result.state is not None
        state, settlement = result.state, result.settlement
        moves += 1
    return DealResult(seed, players_at, moves, settlement=settlement)


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
        budget_ms: int = 200, progress=None, deal: dict[str, Any] | None = None,
        ) -> tuple[list[DealResult], list[dict]]:
    """The whole match: every deal's result and each player's figures. Each deal is dealt
    with `deal`'s options (API.md's DealRequest: Durak's `passing`, `cards`, …) and for as
    many players as there are seats."""
    info = client.game(game)
    scoring = Scoring.of(dict(info), len(players))
    options: dict[str, Any] = dict(deal or {})
    if len(players) != info["players"]:
        options["players"] = len(players)
    results = []
    with requests.Session() as session:
        for i in range(deals):
            results.append(play_deal(client, session, game, players, i, seed + i, budget_ms,
                                     options))
            if progress is not None:
                progress(results[-1])
    return results, figures(scoring, players, results)

