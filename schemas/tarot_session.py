"""`POST /v1/games/tarot/session`: an evening's players and score sheets (API.md
"Additions"), as rules.tarot.session takes them."""

from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, pre_load, validates_schema

from rules.tarot import PLAYERS
from rules.tarot.session import ANNULMENTS, Annulled
from schemas.common import BaseSchema, Bounded, ListOf, one_of, seat_field
from schemas.names import likeness, normal, refused_character
from schemas.tarot import HIGH, LOW, SCORE_SHEET, SEAT

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
    """A name in its one form (schemas/names.py): what a spreadsheet, a terminal or a page
    shows is what the players typed, and nothing hidden beside it."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str):
            raise ValidationError("A name is a string.")
        refused = refused_character(value)
        if refused is not None:
            raise ValidationError(f"A name may not hold the control character {refused} "
                                  "(line breaks, NUL, direction marks).")
        name = normal(value)
        if not name or max(len(name), len(value)) > MAX_NAME:
            raise ValidationError(f"A name is a non-empty string of at most {MAX_NAME} "
                                  "characters.")
        return name


class SessionSchema(BaseSchema):
    """The players' names, the deals' sheets in order, the first deal's dealer."""

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
        alike = look_alikes(data["players"])
        if alike:
            errors["players"] = alike
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


def look_alikes(names: list[str]) -> dict[int, list[str]]:
    """Each name that reads as an earlier one (schemas/names.py), by its index."""
    first: dict[str, int] = {}
    errors = {}
    for i, name in enumerate(names):
        seen = first.setdefault(likeness(name), i)
        if seen != i:
            errors[i] = [f'The players\' names must differ: "{name}" reads as '
                         f'"{names[seen]}" (player {seen + 1}).']
    return errors


ANNULLED_SHEET = AnnulledSheet()
SESSION = SessionSchema()
