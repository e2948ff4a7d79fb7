"""The components of openapi.yaml made from code rather than written: each game's state as
its marshmallow schema loads it, the request bodies of every game, and the lists of values
the service knows (games, reason codes, problem slugs, languages)."""

from __future__ import annotations

from marshmallow import Schema

from contract.fields import Converter, ref
from rules.reasons import MESSAGES
from rules.tarot import BIDS, CONTRACTS, POIGNEE_VALUES
from schemas import durak, ganjifa, tarot
from schemas.common import MoveSchema, StateSchema
from schemas.records import replay_request
from schemas.registry import GAMES
from service import i18n, render_api
from service.problem_pages import PROBLEMS

# The nested schemas of a game's state that the document names otherwise than its game's
# title and the class's name (contract/fields.py): a new game needs no line here.
NESTED: dict[str, dict[type, str]] = {
    "durak": {durak.TableEntry: "DurakTableEntry", durak.HistoryBout: "DurakBout"},
    "tarot": {tarot.PlayEntry: "TarotPlay", tarot.TrickEntry: "TarotTrick",
              tarot.PoigneeEntry: "TarotShownPoignee"},
    "ganjifa": {ganjifa.TrickEntry: "GanjifaPlay", ganjifa.DiscardEntry: "GanjifaDukalDiscard",
                ganjifa.DukalEntry: "GanjifaDukal", ganjifa.CompletedTrick: "GanjifaTrick"},
}
# A field of one of these values is the component of that name.
ENUMS = {tuple(BIDS): "TarotBid", tuple(CONTRACTS): "TarotContract",
         ("taker", "defense"): "Camp", tuple(POIGNEE_VALUES): "PoigneeLevel"}


def state_schema(game_id: str) -> type[Schema]:
    return type(GAMES[game_id].requests["state"].schema.fields["state"].nested())


def game_components() -> dict[str, dict]:
    """Each game's state fields (`DurakStateFields`…) and the objects they nest."""
    out: dict[str, dict] = {}
    for game_id in GAMES:
        converter = Converter(game_id, NESTED.get(game_id, {}), ENUMS)
        out[f"{game_id.title()}StateFields"] = converter.schema(state_schema(game_id))
        out.update(converter.components())
    return out


class Envelope(Converter):
    """A request of every game: its state is a StateInput, its move a MoveInput. (apispec
    converts what they nest too, under its game's names; only the references are kept.)"""

    def __init__(self, game_id: str):
        super().__init__(None, NESTED.get(game_id, {}), ENUMS)

    def _name(self, schema) -> str:
        cls = schema if isinstance(schema, type) else type(schema)
        if issubclass(cls, StateSchema):
            return "StateInput"
        if issubclass(cls, MoveSchema):
            return "MoveInput"
        if cls.__name__ == "DealRequest":  # schemas/common.py's request_schemas
            return "DealRequest"
        return super()._name(schema)


REQUESTS = {"StateRequest": "state", "MoveRequest": "move", "AiMoveRequest": "ai",
            "ViewRequest": "view"}


def request_components() -> dict[str, dict]:
    """The request bodies that are the same for every game (but for the bounds of a seat,
    a Seat here): each converted from every game's schema, which must agree."""
    made: dict[str, list[dict]] = {}
    for game_id, schemas in GAMES.items():
        bodies = {name: schemas.requests[key].schema for name, key in REQUESTS.items()}
        bodies["RenderRequest"] = render_api.REQUESTS[game_id]
        bodies["ReplayRequest"] = replay_request(schemas).schema
        for name, schema in bodies.items():
            made.setdefault(name, []).append(Envelope(game_id).schema(schema))
    out = {}
    for name, each in made.items():
        body = each[0]
        if name == "ReplayRequest":  # `game` is the path's: a GameId, whichever game
            body["properties"]["game"] = ref("GameId")
            each = [{**e, "properties": {**e["properties"], "game": ref("GameId")}}
                    for e in each]
        if any(other != body for other in each):
            raise ValueError(f"{name} differs between the games: {each}")
        out[name] = body
    return out


def value_components() -> dict[str, dict]:
    return {
        "GameId": {"type": "string", "enum": list(GAMES)},
        "ReasonCode": {"type": "string", "enum": list(MESSAGES)},
        "ProblemSlug": {"type": "string", "enum": list(PROBLEMS)},
        "Language": {"type": "string", "enum": list(i18n.LANGUAGES)},
    }


def components() -> dict[str, dict]:
    """Every generated component schema, by name."""
    return {**value_components(), **game_components(), **request_components()}
