"""What the service answers, as typed values (API.md). States, moves and settlements stay the
JSON objects the service sends, so that a state is sent back exactly as it came (with its
signature, when the service signs states); the answers around them are dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

State = dict[str, Any]
"""A whole game state, as the service answers it; send it back as it is."""

Settlement = dict[str, Any]
"""A deal's settlement: Durak's `outcome`, Tarot's `scores` and bonuses, Ganjifa's
`captured` and `winners` (API.md, "Settlements")."""

Session = dict[str, Any]
"""A Tarot session's answer: `players`, `deals` (each one's `dealer`, `settlement` and
running `totals`), `totals`, `next_dealer` and `statistics` (API.md "Additions")."""


class Move(TypedDict, total=False):
    """One move: its `seat` and `action`, and the field the action needs (`card`, `cards`,
    `contract` or `announce`). A legal-moves template has `count`, `must_include` and
    `choose_from` instead: any `count` cards made of all of `must_include` plus cards of
    `choose_from`."""

    seat: int
    action: str
    card: str
    cards: list[str]
    contract: str
    announce: bool
    count: int
    must_include: list[str]
    choose_from: list[str]


class GameRecord(TypedDict):
    """One deal as one JSON document: the game, its DealRequest and every move in order."""

    game: str
    deal: dict[str, Any]
    moves: list[Move]


class GameInfo(TypedDict, total=False):
    """A game: `id`, `name`, `players`, `summary`, `deck` and its rule ids; what a client
    offers and checks (`counts` of players, the deal's `options`, each action's move
    fields), how a deal is won (`won_by`, `score_bounds`); `cards` (every card with its
    code, suit, rank, name and label) when asked for one game; `indices` (Durak's), the
    letters each convention prints on the courts and aces, by rank."""

    id: str
    name: str
    players: int
    summary: str
    deck: dict[str, Any]
    rules: list[str]
    counts: list[int]
    options: list[dict[str, Any]]
    actions: dict[str, list[str]]
    won_by: str
    score_bounds: dict[str, list[int]]
    cards: list[dict[str, Any]]
    indices: dict[str, dict[str, str]]


@dataclass(frozen=True)
class Reason:
    """Why a move is illegal: a reason `code`, the `rule` id of RULES.md, and a `message`
    in the negotiated language."""

    code: str
    rule: str
    message: str

    @classmethod
    def of(cls, data: dict[str, Any]) -> Reason:
        return cls(data["code"], data["rule"], data["message"])


@dataclass(frozen=True)
class Deal:
    """A new deal: its first `state`, and the `deck` order it was dealt from, so that
    `deal(game, deck=…)` deals the same state again."""

    state: State
    deck: list[str]


@dataclass(frozen=True)
class LegalMoves:
    """The seat to act (None once the deal is over) and every legal move."""

    to_act: int | None
    moves: list[Move]


@dataclass(frozen=True)
class MoveResult:
    """A move's answer. Legal: the next `state`, its `events` and the `settlement` when the
    move ended the deal. Illegal: `legal` is False and `reason` says why; nothing else."""

    legal: bool
    state: State | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    settlement: Settlement | None = None
    reason: Reason | None = None

    @classmethod
    def of(cls, data: dict[str, Any]) -> MoveResult:
        if not data["legal"]:
            return cls(False, reason=Reason.of(data["reason"]))
        return cls(True, data["state"], data["events"], data["settlement"])


@dataclass(frozen=True)
class AiMove:
    """The AI's move, the level that chose it and the time it took on the server."""

    move: Move
    level: str
    elapsed_ms: float


@dataclass(frozen=True)
class ReplayResult:
    """A replay's answer. `played` moves were legal; `state` is the state after them.
    All legal: `legal` is True and `settlement` is set when the deal is over. Otherwise the
    move at index `at` is the first illegal one, `move` and `reason` say which and why, and
    `state` is the state it was proposed in. With `include="all"`, `events` and `states`
    hold the events and the state after every move played."""

    legal: bool
    played: int
    state: State
    settlement: Settlement | None = None
    at: int | None = None
    move: Move | None = None
    reason: Reason | None = None
    events: list[list[dict[str, Any]]] | None = None
    states: list[State] | None = None

    @classmethod
    def of(cls, data: dict[str, Any]) -> ReplayResult:
        if data["legal"]:
            return cls(True, data["played"], data["state"], data["settlement"],
                       events=data.get("events"), states=data.get("states"))
        return cls(False, data["played"], data["state"], at=data["at"], move=data["move"],
                   reason=Reason.of(data["reason"]), events=data.get("events"),
                   states=data.get("states"))


@dataclass(frozen=True)
class Rule:
    """One rule of RULES.md: its id, title and text, in the negotiated language."""

    id: str
    title: str
    text: str
