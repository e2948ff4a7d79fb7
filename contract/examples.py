"""The examples of openapi.yaml, made by asking the service itself: the requests are written
here (the games' records in contract/texts.yaml), each is sent through the Flask test client,
and its answer becomes the response example of the same name. contract/build.py puts them
in the document's `components/examples`; tests/test_openapi_examples.py checks that every
example still is what the service answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from service.app import TestingConfig, create_app

TEXTS = Path(__file__).resolve().parent / "texts.yaml"

GAME = "/v1/games/{game}"
DEAL = "/v1/games/{game}/deal"
LEGAL = "/v1/games/{game}/legal-moves"
MOVE = "/v1/games/{game}/move"
AI = "/v1/games/{game}/ai-move"
VIEW = "/v1/games/{game}/view"
RULES = "/v1/games/{game}/rules"
REPLAY = "/v1/games/{game}/replay"
RENDER = "/v1/games/{game}/render"
CARD = "/v1/games/{game}/cards/{name}.svg"
SESSION = "/v1/games/tarot/session"
# A Tarot evening (API.md "Additions"): the session file of the table page.
EVENING: dict[str, Any] = {"players": ["Anne", "Bruno", "Chloé", "Dmytro"], "dealer": 3, "deals": [
    {"contract": "garde", "taker": 1, "bouts": 2, "points": 45.5,
     "poignees": [{"camp": "taker", "level": "simple"}]},
    {"annulled": "all_pass"},
    {"contract": "prise", "taker": 2, "bouts": 1, "points": 30, "petit_au_bout": "defense"},
    {"contract": "garde_sans", "taker": 0, "bouts": 3, "points": 62,
     "petit_au_bout": "taker"},
]}
# Request examples kept in contract/texts.yaml (the game records of API.md): only their
# answers are made here.
RECORDS = {"durak": "DurakRecord", "tarot": "TarotRecord", "ganjifa": "GanjifaRecord"}


def first_moves(client, game: str, deal: dict, moves: int) -> dict:
    """The state after playing the first listed legal move `moves` times (or to the end)."""
    state = client.post(f"/v1/games/{game}/deal", json=deal).get_json()["state"]
    for _ in range(moves):
        listed = client.post(f"/v1/games/{game}/legal-moves",
                             json={"state": state}).get_json()["moves"]
        if not listed:
            break
        move = listed[0]
        state = client.post(f"/v1/games/{game}/move",
                            json={"state": state, "move": move}).get_json()["state"]
    return state


def played(client, game: str, state: dict, moves: list[dict]) -> dict:
    for move in moves:
        state = client.post(f"/v1/games/{game}/move",
                            json={"state": state, "move": move}).get_json()["state"]
    return state


def records() -> dict:
    examples = yaml.safe_load(TEXTS.read_bytes())["components"]["examples"]
    return {game: examples[name]["value"] for game, name in RECORDS.items()}


Case = tuple[str, str, str, str, str, object]

# The reads and deals, which need no state.
DEALING: list[Case] = [
    ("ok", "The service is up", "get", "/healthz", "", None),
    ("games", "The three games", "get", "/v1/games", "", None),
    ("durak", "Durak and its 36 cards", "get", GAME, "durak", None),
    ("durak", "Durak's rules", "get", RULES, "durak", None),
    ("durak", "Durak, reproducible (seed 1)", "post", DEAL, "durak", {"seed": 1}),
    ("tarot", "Tarot, seed 1, seat 3 deals", "post", DEAL, "tarot", {"seed": 1}),
    ("ganjifa", "Ganjifa by night, seed 0", "post", DEAL, "ganjifa",
     {"seed": 0, "period": "night"}),
    ("invalid-deck", "A stacked deck missing cards", "post", DEAL, "durak",
     {"deck": ["6S", "7S", "8S"]}),
]


def cases(client) -> list[Case]:
    """(example name, summary, method, path template, its parameter (a game or a slug),
    request body or None)."""
    states = example_states(client)
    return [*DEALING, *moving(**states), *answering(states["durak"], states["over"]),
            *SHEETS]


def example_states(client) -> dict[str, Any]:
    """The states the examples send, played through the service: Durak's first move and
    its end, Tarot's bidding and its écart, a Ganjifa deal where seat 2 may lay a Dukal,
    a Durak state missing a card, and a legal écart."""
    durak = first_moves(client, "durak", {"seed": 1}, 0)
    tarot = first_moves(client, "tarot", {"seed": 1}, 0)
    tarot_discard = played(client, "tarot", tarot, [
        {"seat": 0, "action": "bid", "contract": "garde"},
        *({"seat": seat, "action": "bid", "contract": "pass"} for seat in (1, 2, 3))])
    dukal = first_moves(client, "ganjifa", {"seed": 0}, 6)  # seat 2 may lay a Dukal
    over = first_moves(client, "durak", {"seed": 1}, 1000)
    broken = {**durak, "hands": [durak["hands"][0][1:], durak["hands"][1]]}
    chien = tarot_discard["chien"]
    taker_hand = tarot_discard["hands"][tarot_discard["taker"]]
    # T5: no trump, Excuse or King in the écart
    ecart = [c for c in taker_hand + chien if not c.startswith(("T", "K")) and c != "EX"][:6]
    return {"durak": durak, "tarot": tarot, "tarot_discard": tarot_discard, "dukal": dukal,
            "over": over, "broken": broken, "ecart": ecart,
            "king": next(c for c in taker_hand + chien if c.startswith("K"))}


def moving(durak: dict, tarot: dict, tarot_discard: dict, dukal: dict, broken: dict,
           ecart: list[str], king: str, **_: object) -> list[Case]:
    """legal-moves and move, legal, illegal and refused."""
    return [
        ("durak", "Durak: seat 1 leads", "post", LEGAL, "durak", {"state": durak}),
        ("tarot", "Tarot: the bidding", "post", LEGAL, "tarot", {"state": tarot}),
        ("ganjifa", "Ganjifa: a Dukal among the plays", "post", LEGAL, "ganjifa",
         {"state": dukal}),
        ("durak", "Durak: a legal attack", "post", MOVE, "durak",
         {"state": durak, "move": {"seat": 1, "action": "attack", "card": "6S"}}),
        ("durak-illegal", "Durak: not seat 0's turn (D6)", "post", MOVE, "durak",
         {"state": durak, "move": {"seat": 0, "action": "attack", "card": "6H"}}),
        ("durak-illegal-ru", "Durak: not seat 0's turn (D6), with Accept-Language: ru",
         "post", MOVE, "durak",
         {"state": durak, "move": {"seat": 0, "action": "attack", "card": "6H"}}),
        ("tarot", "Tarot: a garde", "post", MOVE, "tarot",
         {"state": tarot, "move": {"seat": 0, "action": "bid", "contract": "garde"}}),
        ("tarot-discard", "Tarot: the taker's écart (T5)", "post", MOVE, "tarot",
         {"state": tarot_discard, "move": {"seat": tarot_discard["taker"],
                                           "action": "discard", "cards": ecart}}),
        ("tarot-illegal", "Tarot: a King to the écart (T5)", "post", MOVE, "tarot",
         {"state": tarot_discard, "move": {
             "seat": tarot_discard["taker"], "action": "discard",
             "cards": [*ecart[:5], king]}}),
        ("tarot-illegal-fr", "Tarot: a King to the écart (T5), with Accept-Language: fr",
         "post", MOVE, "tarot",
         {"state": tarot_discard, "move": {
             "seat": tarot_discard["taker"], "action": "discard",
             "cards": [*ecart[:5], king]}}),
        ("ganjifa", "Ganjifa: a Dukal (G8)", "post", MOVE, "ganjifa",
         {"state": dukal, "move": {"seat": 2, "action": "dukal",
                                   "cards": ["3KRI", "4KRI", "5KRI", "MKRI", "RKRI"]}}),
        ("ganjifa-illegal", "Ganjifa: a Dukal without its Raja (G8)", "post", MOVE, "ganjifa",
         {"state": dukal, "move": {"seat": 2, "action": "dukal",
                                   "cards": ["3KRI", "5KRI", "MKRI"]}}),
        ("invalid-state", "A Durak state missing a card", "post", MOVE, "durak",
         {"state": broken, "move": {"seat": 1, "action": "attack", "card": "6S"}}),
        ("invalid-body", "A move without its card", "post", MOVE, "durak",
         {"state": durak, "move": {"seat": 1, "action": "attack"}}),
    ]


def answering(durak: dict, over: dict) -> list[Case]:
    """ai-move, view, replay and render."""
    return [
        ("durak", "Durak: the basic AI for the seat to act", "post", AI, "durak",
         {"state": durak, "level": "basic", "seed": 7}),
        ("no-legal-move", "A finished deal has no next move", "post", AI, "durak",
         {"state": over}),
        ("durak", "Durak: what seat 0 sees", "post", VIEW, "durak",
         {"state": durak, "seat": 0}),
        *((game, f"The {game} record replayed", "post", REPLAY, game, record)
          for game, record in records().items()),
        ("durak-illegal", "A replay stopped at an illegal move (D6)", "post", REPLAY, "durak",
         {"deal": {"seed": 1}, "moves": [{"seat": 0, "action": "attack", "card": "6H"}]}),
        ("durak", "Durak as seat 0 sees it, as text", "post", RENDER, "durak",
         {"state": durak, "seat": 0, "format": "text"}),
    ]


# A card's picture, Tarot's sheets and the problem pages.
SHEETS: list[Case] = [
    ("durak-AS", "The Ace of Spades", "get", CARD, "durak-AS", None),
    ("garde", "A garde made with two bouts and a poignée", "post",
     "/v1/games/tarot/settlement", "tarot",
     {"contract": "garde", "taker": 1, "bouts": 2, "points": 45.5,
      "poignees": [{"camp": "taker", "level": "simple"}]}),
    ("prise-lost", "A prise lost by 21 points, the Petit won by the defence in the last "
     "trick", "post", "/v1/games/tarot/settlement", "tarot",
     {"contract": "prise", "bouts": 1, "points": 30, "petit_au_bout": "defense"}),
    ("evening", "Four players, four deals, one of them all passed", "post", SESSION,
     "tarot", EVENING),
    ("impossible-deal", "A session whose second deal no deal produces: three bouts "
     "with 5 points", "post", SESSION, "tarot", {**EVENING, "deals": [
         EVENING["deals"][0], {"contract": "garde", "taker": 2, "bouts": 3,
                               "points": 5}]}),
    ("unknown-game", "What unknown-game means", "get", "/problems/{slug}",
     "unknown-game", None),
    ("invalid-state", "What invalid-state means", "get", "/problems/{slug}",
     "invalid-state", None),
]


def language_of(name: str) -> dict[str, str]:
    """The Accept-Language header an example is asked with: its name's last part when
    that is a language (`durak-illegal-ru`), none otherwise (English)."""
    last = name.rsplit("-", 1)[-1]
    return {"Accept-Language": last} if last in SPOKEN else {}


# The languages an example may be named after (the others are English, the default).
SPOKEN = ("fr", "ru", "fa", "hi", "hu", "uk")


# The problems every operation may answer (components/responses): (response, slug, method,
# path, raw body).
PROBLEMS = [
    ("BadRequest", "malformed-json", "post", "/v1/games/durak/deal", b'{"seed": 1'),
    ("NotFound", "unknown-game", "get", "/v1/games/chess", None),
    ("MethodNotAllowed", "method-not-allowed", "delete", "/v1/games/durak/deal", None),
    ("PayloadTooLarge", "body-too-large", "post", "/v1/games/durak/deal",
     b" " * (1024 * 1024 + 1)),
]


def problems() -> dict:
    """{component name: (summary, answer)} of PROBLEMS."""
    client = create_app(TestingConfig).test_client()
    out = {}
    for _response, slug, method, path, raw in PROBLEMS:
        r = client.open(path, method=method.upper(), data=raw,
                        content_type="application/json")
        out[f"Problem_{slug}"] = (f"{method.upper()} {path}: {slug}", r.get_json())
    return out


# Request examples that break the schema on purpose: their answers are examples, they are not.
NOT_REQUEST_EXAMPLES = {"invalid-body"}


def collect() -> dict:
    """{path: {method: {name: (summary, request body (None when openapi.yaml keeps it),
    status, answer, its media type)}}}."""
    client = create_app(TestingConfig).test_client()
    out: dict = {}
    for name, summary, method, template, game, body in cases(client):
        url = template.replace("{game}", game.split("-")[0]).replace("{slug}", game)
        url = url.replace("{name}", game.partition("-")[2])
        headers = language_of(name)
        r = client.get(url, headers=headers) if method == "get" else \
            client.post(url, json=body, headers=headers)
        answer: Any = r.get_json() if r.is_json else r.get_data(as_text=True)
        if template == AI and r.status_code == 200:
            answer["elapsed_ms"] = 1.5  # the one field that differs from run to run
        out.setdefault(template, {}).setdefault(method, {})[name] = (
            summary, None if template == REPLAY and name in RECORDS else body, r.status_code,
            answer, r.content_type)
    return out


def component_name(template: str, method: str, name: str, part: str) -> str:
    """`MovePost_durak-illegal_request`: the operation's last path segment, the method, the
    example's name and whether it is the request or the answer."""
    segment = template.rstrip("/").rsplit("/", 1)[-1]
    if segment.startswith("{"):  # /v1/games/{game}, /problems/{slug}
        segment = template.rstrip("/").rsplit("/", 2)[-2].removesuffix("s")
    op = segment.replace("-", " ").title().replace(" ", "")
    return f"{op}{method.title()}_{name}_{part}"


def components() -> dict:
    """openapi.yaml's `components/examples` that the service answers, by name."""
    examples = {}
    for template, methods in collect().items():
        for method, named in methods.items():
            for name, (summary, body, _status, answer, _media) in named.items():
                if body is not None and name not in NOT_REQUEST_EXAMPLES:
                    examples[component_name(template, method, name, "request")] = {
                        "summary": summary, "value": body}
                examples[component_name(template, method, name, "answer")] = {
                    "summary": summary, "value": answer}
    for name, (summary, answer) in problems().items():
        examples[name] = {"summary": summary, "value": answer}
    return examples
