"""French Tarot's state, move and score sheet as JSON (API.md, "States: Tarot",
"Settlements")."""

from __future__ import annotations

from marshmallow import (
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from rules.tarot import (
    BIDS,
    CALLING,
    CONTRACTS,
    COUNTS,
    DECK,
    GAME,
    MAX_PLAYERS,
    PLAYERS,
    POIGNEE_VALUES,
    UNKNOWN,
    TarotState,
    score,
)
from rules.tarot.sheet import sheet_problems
from schemas.common import (
    BaseSchema,
    Bounded,
    CardCode,
    CardList,
    CardLists,
    ListOf,
    MoveSchema,
    StateSchema,
    StrictBoolean,
    StrictInteger,
    one_of,
    request_schemas,
    seat_field,
    seated,
)
from schemas.game import GameSchemas, Post
from schemas.views import HIDDEN, View, hide_hands, with_derived

# T18: the schemas bound a seat by the largest table; the state's own count (its number of
# hands) bounds it in the rules (`seat_problems`) and, for a request's seats, below.
SEAT = MAX_PLAYERS
LOW, HIGH = min(COUNTS), max(COUNTS)
# The longest lists of any count (T19, T20): bounds checked before the items.
MAX_CHIEN = max(c.chien for c in COUNTS.values())
MAX_TRICKS = max(c.hand for c in COUNTS.values())


class Hands(CardLists):
    """One list of card codes a seat, for any count of players (T18)."""

    def __init__(self, **kwargs):
        super().__init__(DECK, LOW, most=HIGH, **kwargs)


CAMP_NAMES = ("taker", "defense")


class PlayEntry(BaseSchema):
    seat = seat_field(SEAT, required=True)
    card = CardCode(DECK, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["card"]


class TrickEntry(BaseSchema):
    cards = ListOf(fields.Nested(PlayEntry), MAX_PLAYERS, required=True)
    winner = seat_field(SEAT, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["cards"], data["winner"]


class PoigneeEntry(BaseSchema):
    seat = seat_field(SEAT, required=True)
    cards = CardList(DECK, required=True, max_length=22)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["cards"]


class TarotStateSchema(StateSchema):
    game = one_of("tarot", required=True)
    dealer = seat_field(SEAT, required=True)
    # T5: the taker holds the chien beside its hand until it discards (T19: any count).
    hands = Hands(required=True)
    chien = CardList(DECK, MAX_CHIEN, required=True)
    chien_shown = CardList(DECK, MAX_CHIEN, required=True)
    bids = ListOf(one_of(*BIDS), MAX_PLAYERS, required=True)  # T4: each seat bids once
    taker = seat_field(SEAT, allow_none=True)
    contract = one_of(*CONTRACTS, allow_none=True)
    called = CardCode(DECK, allow_none=True)  # T22: five-player states only
    partner = seat_field(SEAT, allow_none=True)
    ecart = CardList(DECK, MAX_CHIEN, required=True)
    chelem = StrictBoolean(required=True, allow_none=True)
    poignees = ListOf(fields.Nested(PoigneeEntry), MAX_PLAYERS, required=True)  # T8: once each
    trick = ListOf(fields.Nested(PlayEntry), MAX_PLAYERS, required=True)
    tricks = ListOf(fields.Nested(TrickEntry), MAX_TRICKS, required=True)
    phase = one_of("bidding", "call", "discard", "chelem", "play", "over")
    to_act = seat_field(SEAT, allow_none=True)
    result = fields.Dict(allow_none=True)


# Which field each action needs; every other optional field must be absent.
ACTION_FIELDS = {"bid": "contract", "call": "card", "discard": "cards", "chelem": "announce",
                 "poignee": "cards", "play": "card"}
OPTIONAL = ("contract", "cards", "announce", "card")


class TarotMoveSchema(MoveSchema):
    seat = seat_field(SEAT, required=True)
    action = one_of(*GAME.actions, required=True)
    contract = one_of(*BIDS)
    cards = CardList(DECK)
    announce = StrictBoolean()
    card = CardCode(DECK)

    @validates_schema(skip_on_field_errors=True)
    def _fields_of_the_action(self, data, **kwargs):
        needed = ACTION_FIELDS[data["action"]]
        errors = {}
        for name in OPTIONAL:
            if name == needed and name not in data:
                errors[name] = [f"'{data['action']}' needs a {name}."]
            elif name != needed and name in data:
                errors[name] = [f"No {name} goes with '{data['action']}'."]
        if errors:
            raise ValidationError(errors)


class HalfPoints(fields.Field):
    """T13, T14: card points, 0 to 91, whole or ending in .5; loaded as half points."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("Must be a number.")
        # The range first: a huge float (1e308) doubles to infinity, which int() refuses.
        if not 0 <= value <= 91 or value * 2 != int(value * 2):
            raise ValidationError("Card points run from 0 to 91 in half points.")
        return int(value * 2)


class SheetPoignee(BaseSchema):
    """A poignée shown: the camp that declared it, its level and, if the sheet says, the
    seat that showed it (so that a session counts each player's own, T8)."""

    camp = one_of(*CAMP_NAMES, required=True)
    level = one_of(*POIGNEE_VALUES, required=True)
    seat = seat_field(SEAT)

    @post_load
    def _pair(self, data, **kwargs):
        label = {"declared_by": data["camp"]}
        if "seat" in data:
            label["seat"] = data["seat"]
        return label, data["level"]


class SheetChelem(BaseSchema):
    announced = StrictBoolean(required=True)
    made_by = one_of(*CAMP_NAMES, allow_none=True, load_default=None)


class ScoreSheetSchema(BaseSchema):
    """`POST /v1/games/tarot/settlement`: loads as the arguments of rules.tarot.score."""

    players = Bounded(LOW, HIGH, load_default=PLAYERS)  # T18
    contract = one_of(*CONTRACTS, required=True)
    taker = seat_field(SEAT, load_default=0)
    partner = seat_field(SEAT, allow_none=True)  # T22, T24: five players only
    bouts = StrictInteger(required=True, validate=validate.Range(0, 3))
    points = HalfPoints(required=True)
    petit_au_bout = one_of(*CAMP_NAMES, allow_none=True, load_default=None)
    poignees = ListOf(fields.Nested(SheetPoignee), MAX_PLAYERS, load_default=list)
    chelem = fields.Nested(SheetChelem, allow_none=True, load_default=None)

    @validates_schema(skip_on_field_errors=True)
    def _seats_of_the_count(self, data, **kwargs):
        """T18: the taker (and the partner) among the deal's seats; T24: a partner named
        with five players, and only then."""
        players = data["players"]
        errors = {}
        for name in ("taker", "partner"):
            seat = data.get(name)
            if seat is not None and seat >= players:
                errors[name] = [f"Must be between 0 and {players - 1}."]
        if players == CALLING and "partner" not in data:
            errors["partner"] = ["Five players need the partner's seat, or null for a taker "
                                 "alone."]
        elif players != CALLING and "partner" in data:
            errors["partner"] = [f"No partner with {players} players."]
        if errors:
            raise ValidationError(errors)
        shown = poignee_seat_problems(players, data["taker"], data.get("partner"),
                                      data["poignees"])
        if shown:
            raise ValidationError(nested(shown))
        # A sheet that no deal produces (impossible points for the bouts, a chelem or petit
        # au bout the camp cannot have, poignées the table cannot show).
        partner = data.get("partner")
        chelem = data.get("chelem")
        problems = sheet_problems(
            players, data["contract"], data["bouts"], data["points"], data["petit_au_bout"],
            data["poignees"], chelem["made_by"] if chelem else None,
            None if partner == data["taker"] else partner, chelem is not None)
        if problems:
            raise ValidationError(nested({p.field: [p.message] for p in problems}))

    @post_load
    def _arguments(self, data, **kwargs):
        if data.get("partner") == data["taker"]:
            data["partner"] = None  # a taker alone, as score keepers write it (API.md)
        chelem = data.pop("chelem") or {"announced": False, "made_by": None}
        data["half_points"] = data.pop("points")
        data["chelem_announced"] = chelem["announced"]
        data["chelem_made_by"] = chelem["made_by"]
        return data


def poignee_seat_problems(players: int, taker: int, partner: int | None,
                          poignees) -> dict[str, list[str]]:
    """T8: a seat that a sheet names for a poignée is one of the deal's, of the camp that
    declared it, and shows one poignée at most."""
    attack = {taker, taker if partner is None else partner}
    seen: set[int] = set()
    for i, (label, _) in enumerate(poignees):
        seat = label.get("seat")
        if seat is None:
            continue
        if seat >= players:
            return {f"poignees.{i}.seat": [f"Must be between 0 and {players - 1}."]}
        if (seat in attack) != (label["declared_by"] == "taker"):
            camp = "the taker's camp" if seat in attack else "the defence"
            return {f"poignees.{i}.seat": [f"Seat {seat} plays in {camp}, not in the camp "
                                           "this poignée names."]}
        if seat in seen:
            return {f"poignees.{i}.seat": [f"Seat {seat} shows one poignée at most (T8)."]}
        seen.add(seat)
    return {}


def nested(flat: dict[str, list[str]]) -> dict:
    """{"a.0.b": messages} as marshmallow's nested errors, so that the problem names the
    field by its path (`poignees.1.level`)."""
    out: dict = {}
    for path, messages in flat.items():
        *parents, last = path.split(".")
        where = out
        for key in parents:
            where = where.setdefault(int(key) if key.isdigit() else key, {})
        where[int(last) if last.isdigit() else last] = messages
    return out


def _plays(all_codes, leader: int, cards, players: int) -> list[dict]:
    return [{"seat": (leader + j) % players, "card": all_codes[c]}
            for j, c in enumerate(cards)]


def dump_state(state: TarotState) -> dict:
    all_codes = DECK.codes
    hands = state.hands
    players = len(hands)
    out = {
        "game": "tarot",
        "dealer": state.dealer,
        "hands": [*map(DECK.codes_of, hands)],
        "chien": DECK.codes_of(state.chien),
        "chien_shown": DECK.codes_of(state.chien_shown),
        "bids": list(state.bids),
        "taker": state.taker,
        "contract": state.contract,
    }
    if players == CALLING:  # API.md, "Additions": five-player states only
        called = state.called
        out["called"] = None if called is None else all_codes[called]
        out["partner"] = state.partner
    out.update({
        "ecart": DECK.codes_of(state.ecart),
        "chelem": state.chelem,
        "poignees": [{"seat": s, "cards": DECK.codes_of(m)} for s, m in state.poignees],
        "trick": _plays(all_codes, state.leader, state.trick, players),
        "tricks": [{"cards": _plays(all_codes, leader, cards, players), "winner": winner}
                   for leader, cards, winner in state.tricks],
        "phase": state.phase,
        "to_act": state.to_act,
        "result": GAME.settlement(state),
    })
    return out


def _seat_error(seat, players: int) -> list[str] | None:
    if isinstance(seat, int) and seat >= players:
        return [f"Must be between 0 and {players - 1}."]
    return None


def _check_seats(data, **kwargs):
    """T18: a request's seats (`move.seat`, `seat`) and a deal's dealer among the seats of
    its count: the state's hands, or the deal's `players`."""
    if "state" in data:
        players = len(data["state"]["hands"])
    else:
        players = data.get("players", PLAYERS)
    errors: dict = {}
    for key in ("seat", "dealer"):
        wrong = _seat_error(data.get(key), players)
        if wrong:
            errors[key] = wrong
    wrong = _seat_error(getattr(data.get("move"), "seat", None), players)
    if wrong:
        errors["move"] = {"seat": wrong}
    if errors:
        raise ValidationError(errors)


REQUESTS = {name: seated(fast, _check_seats) for name, fast in request_schemas(
    GAME, TarotStateSchema, TarotMoveSchema,
    {"dealer": seat_field(SEAT, metadata={"description": "the dealer's seat (T2)"}),
     "players": Bounded(LOW, HIGH)}).items()}
SCORE_SHEET = ScoreSheetSchema()


def dump_view(view: View) -> dict:
    """Hidden: the other hands, a chien not shown, the non-trump part of the écart for a
    defender (its trumps were shown, T5)."""
    out = dump_state(view.public)
    hide_hands(out, view, len(view.public.hands))
    if view.public.partner == UNKNOWN:
        out["partner"] = HIDDEN  # T22: a seat that cannot know it yet
    chien, ecart = view.hidden[-2:]  # after one count a hand
    out["chien"] = [HIDDEN] * chien
    out["ecart"] = out["ecart"] + [HIDDEN] * ecart
    return with_derived(out, GAME, view)


def score_sheet(sheet: dict) -> dict:
    """T14–T17 for a deal played elsewhere, from its score sheet."""
    return score(**sheet)


SCHEMAS = GameSchemas(GAME, REQUESTS, dump_state, dump_view,
                      posts={"settlement": Post(SCORE_SHEET, score_sheet)})
