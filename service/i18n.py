"""Languages at the HTTP edge: `Accept-Language` negotiation and the message catalogues.

`rules/` answers with codes and values (a reason, a state's problem); their words are the
catalogues' (`service/locales/<lang>.json` and each game's `rules/<game>/locales/`), read
once at import, English included (rules/texts.py reads and says them). Only
human-readable text changes: codes, rule ids and card codes are never translated.

A text that a catalogue lacks is answered in English, and `Content-Language` says so.
"""

from __future__ import annotations

import re

from rules.reasons import Reason
from rules.texts import catalogue, say
from schemas.registry import GAMES
from service import call

DEFAULT = "en"
LANGUAGES = ("en", "hi", "hu", "fa", "uk", "fr", "ru")  # DEFAULT first: it wins ties and `*`
CATALOGUES: dict[str, dict[str, str]] = {lang: catalogue(lang, "messages") for lang in LANGUAGES}
EN = CATALOGUES[DEFAULT]


# -- negotiation (RFC 9110 §12.5.4, ranges matched as RFC 4647 lookup) -----------------------

# Only so much of a header is read: a browser names a few languages (Chrome and Firefox
# send a user's list, each range some 10 bytes), and every header is different to a client
# that means harm, so no cache spares a long one its parse.
MAX_RANGES = 16
MAX_HEADER = 256
_Q = re.compile(r"-?\d+(\.\d+)?", re.ASCII)  # RFC 9110's qvalue, as werkzeug reads it


def negotiate(header: str | None) -> str:
    """The language to answer in for an `Accept-Language` value: the supported language of
    highest quality, the earlier range winning ties; English when none is acceptable. Its
    first MAX_RANGES ranges within MAX_HEADER characters are read, no more.

    Ranges are matched on primary subtags (`hu-HU;level=1` is a range for `hu`), an invalid
    q skipped, and a range naming the language exactly decides for it over a longer one
    (`hu;q=0, hu-HU` excludes Hungarian), then by quality, then `*`."""
    ranges = _ranges(header) if header else []
    best, best_rank = DEFAULT, (0.0, False, False)
    for lang in _offered(ranges):
        for exact, not_any, q, primary in ranges:
            if primary == lang or not not_any:  # the most specific range for lang
                if q > 0 and (q, not_any, exact) > best_rank:
                    best, best_rank = lang, (q, not_any, exact)
                break
    return best


def _ranges(header: str) -> list[tuple[bool, bool, float, str]]:
    """(exact, not `*`, q, primary subtag) of each range read, the most specific first,
    then by quality; the header's order among equals."""
    pieces = header[:MAX_HEADER].split(",", MAX_RANGES)[:MAX_RANGES]
    if len(header) > MAX_HEADER and len(pieces) < MAX_RANGES:
        pieces.pop()  # cut inside: its tag may be a part of another
    out = []
    for piece in pieces:
        tag, *params = piece.split(";")
        tag = tag.strip(" \t").lower()
        q = 1.0
        extra = False
        for param in params:
            name, _, value = param.partition("=")
            if name.strip(" \t").lower() != "q":
                extra = True
                continue
            value = value.strip(" \t")
            if _Q.fullmatch(value) is None or not 0 <= float(value) <= 1:
                break
            q = float(value)
        else:
            if tag:
                primary = tag.split("-", 1)[0]
                out.append((primary == tag and not extra, tag != "*" or extra, q, primary))
    out.sort(key=lambda r: (r[1], r[0], r[2]), reverse=True)  # stable: ties keep order
    return out


def _offered(ranges: list[tuple[bool, bool, float, str]]) -> list[str]:
    """The supported languages in the order the ranges name them, the ones only `*` accepts
    after, English first among those: of two of equal quality the earlier wins."""
    named: dict[str, int] = {}
    for _, _, _, primary in ranges:
        named.setdefault(primary, len(named))
    return sorted(LANGUAGES, key=lambda lang: named.get(lang, len(named)))


# -- the request's language ------------------------------------------------------------------


LANG = "cardavia.lang"  # WSGI environ keys, set by service/edge.py
ANSWERED = "cardavia.answered"


def language() -> str:
    """The negotiated language of the current request."""
    environ = call.environ()
    lang = environ.get(LANG)
    if lang is None:
        lang = environ[LANG] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return lang


def fell_back() -> None:
    """Part of this answer could not be said in the negotiated language: it is English."""
    call.environ()[ANSWERED] = DEFAULT


def problem_text(key: str, title: str, detail: str, detail_key: str | None = None,
                 params: dict | None = None, words: dict | None = None) -> tuple[str, str]:
    """A problem's title and detail in the request's language: the catalogue's
    `<key>.title` and `<detail_key or key.detail>`, formatted with `params`, those that
    `words` names (a game's name) being the catalogue's entry of the key it gives, so that
    no English word stands in a sentence of another language."""
    lang = language()
    if lang == DEFAULT:
        return title, detail
    cat, params = CATALOGUES[lang], params or {}
    detail_key = detail_key or f"{key}.detail"
    try:
        if (EN[f"{key}.title"] == title and EN[detail_key].format(**params) == detail
                and f"{key}.title" in cat and detail_key in cat):
            said = {**params, **{name: cat[k] for name, k in (words or {}).items()}}
            return cat[f"{key}.title"], cat[detail_key].format(**said)
    except (KeyError, IndexError):
        pass
    fell_back()
    return title, detail


# -- reasons and problems ------------------------------------------------------------------


def reason_message(reason: Reason, lang: str | None = None) -> str:
    """`reason.message` in the request's language: the catalogue's `reason.<code>` said
    with the reason's values (rules/texts.py); English when an entry is missing there."""
    lang = lang or language()
    if lang == DEFAULT:
        return reason.message
    text = say(CATALOGUES[lang], f"reason.{reason.code}", reason.details)
    if text is None:
        fell_back()
        return reason.message
    return text


# -- games and cards ---------------------------------------------------------------------------

def card_name(lang: str, game: str, suit: str, rank: str) -> str:
    """A card's name in `lang`, as its game names cards from the catalogue's words."""
    return GAMES[game].game.card_name(CATALOGUES[lang], suit, rank)


_infos: dict[tuple[str, str], dict] = {}
_cards: dict[tuple[str, str, int | None], list[dict]] = {}


def game_info(info: dict, lang: str | None = None) -> dict:
    """A GameInfo with its name, summary and deck description in the request's language."""
    lang = lang or language()
    if lang == DEFAULT:
        return info
    key = (info["id"], lang)
    out = _infos.get(key)
    if out is None:
        out = _localize_info(info, lang)
        _infos[key] = out
    if out is info:
        fell_back()
    return out


def _localize_info(info: dict, lang: str) -> dict:
    cat, game = CATALOGUES[lang], info["id"]
    deck = info["deck"]
    english = {f"game.{game}.name": info["name"], f"game.{game}.summary": info["summary"],
               f"game.{game}.deck.name": deck["name"], f"game.{game}.deck.origin": deck["origin"]}
    if any(EN.get(k) != v or k not in cat for k, v in english.items()):
        return info
    out = {**info, "name": cat[f"game.{game}.name"], "summary": cat[f"game.{game}.summary"],
           "deck": {**deck, "name": cat[f"game.{game}.deck.name"],
                    "origin": cat[f"game.{game}.deck.origin"]}}
    extra = GAMES[game].extra_info
    if extra is not None:
        out.update(extra(cat))
    return out


def cards(game: str, listed: list[dict], lang: str | None = None, size: int | None = None
          ) -> list[dict]:
    """A game's card list (its deck of `size` cards, the default deck's for None) with
    names (and the words of a game's own card fields) in the request's language; codes,
    suits, ranks and labels as they are."""
    lang = lang or language()
    if lang == DEFAULT:
        return listed
    key = (game, lang, size)
    out = _cards.get(key)
    if out is None:
        out = _localize_cards(game, listed, lang)
        _cards[key] = out
    return out


def _localize_cards(game: str, listed: list[dict], lang: str) -> list[dict]:
    cat = CATALOGUES[lang]
    extra = GAMES[game].extra_card
    index = GAMES[game].game.all_cards.index  # a listing (`?cards=N`) is not index order
    out = []
    for card in listed:
        local = {**card, "name": card_name(lang, game, card["suit"], card["rank"])}
        if extra is not None:
            local.update(extra(index[card["code"]], cat))
        out.append(local)
    return out
