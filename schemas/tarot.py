"""French Tarot's state, move and score sheet as JSON (API.md, "States: Tarot",
"Settlements")."""

from __future__ import annotations

from marshmallow import (
    ValidationError,
    fields,
    post_load,
    pre_load,
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
from rules.tarot.session import ANNULMENTS, Annulled
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
    camp = one_of(*CAMP_NAMES, required=True)
    level = one_of(*POIGNEE_VALUES, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return {"declared_by": data["camp"]}, data["level"]


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
    {"dealer": seat_field(SEAT), "players": Bounded(LOW, HIGH)}).items()}
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


# -- a session: an evening's score sheets (API.md "Additions") ------------------------------

MAX_DEALS = 500  # far beyond an evening; bounds a request's work
MAX_NAME = 40


class AnnulledSheet(BaseSchema):
    """T3: a deal with no score, everybody passed or a petit sec."""

    annulled = one_of(*ANNULMENTS, required=True)
    players = Bounded(LOW, HIGH)

    @post_load
    def _annulled(self, data, **kwargs):
        return Annulled(data["annulled"]), data.get("players")


class DealSheet(fields.Field):
    """One deal of a session: a score sheet as `/settlement` takes it, its `players` the
    session's unless given, or an annulled deal. Loads as (sheet, players given)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("Must be a score sheet (an object).")
        if "annulled" in value:
            return ANNULLED_SHEET.load(value)
        return SCORE_SHEET.load(value), value.get("players")


def session_count(body) -> int:
    """The count a session's sheet without `players` takes: the session's, when its list
    of names can be one; else the default (the names' own error is reported)."""
    names = body.get("players") if isinstance(body, dict) else None
    if isinstance(names, list) and LOW <= len(names) <= HIGH:
        return len(names)
    return PLAYERS


class PlayerName(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
            raise ValidationError(f"A name is a non-empty string of at most {MAX_NAME} "
                                  "characters.")
        return value


class SessionSchema(BaseSchema):
    """`POST /v1/games/tarot/session`: the players' names, the deals' sheets in order, the
    first deal's dealer."""

    players = ListOf(PlayerName(), HIGH, required=True)  # T18: 3 to 5 seats
    deals = ListOf(DealSheet(), MAX_DEALS, required=True)
    dealer = seat_field(SEAT, load_default=0)

    @pre_load
    def _count_of_the_sheets(self, data, **kwargs):
        """A sheet without `players` is of the session's count."""
        deals = data.get("deals") if isinstance(data, dict) else None
        if isinstance(deals, list) and len(deals) <= MAX_DEALS:
            count = session_count(data)
            data = {**data, "deals": [
                {**d, "players": count} if isinstance(d, dict) and "players" not in d
                and "annulled" not in d else d for d in deals]}
        return data

    @validates_schema(skip_on_field_errors=True)
    def _one_table(self, data, **kwargs):
        players = len(data["players"])
        errors: dict = {}
        if players < LOW:
            raise ValidationError({"players": [f"A session seats {LOW} to {HIGH} players."]})
        if len(set(data["players"])) != players:
            errors["players"] = ["The players' names must differ."]
        if data["dealer"] >= players:
            errors["dealer"] = [f"Must be between 0 and {players - 1}."]
        for i, (_, given) in enumerate(data["deals"]):
            if given is not None and given != players:
                errors.setdefault("deals", {})[i] = {"players": [
                    f"The session seats {players} players."]}
        if errors:
            raise ValidationError(errors)

    @post_load
    def _sheets(self, data, **kwargs):
        data["deals"] = [sheet for sheet, _ in data["deals"]]
        return data


ANNULLED_SHEET = AnnulledSheet()
SESSION = SessionSchema()


def score_sheet(sheet: dict) -> dict:
    """T14–T17 for a deal played elsewhere, from its score sheet."""
    return score(**sheet)


SCHEMAS = GameSchemas(GAME, REQUESTS, dump_state, dump_view,
                      posts={"settlement": Post(SCORE_SHEET, score_sheet)})
