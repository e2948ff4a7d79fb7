"""Languages at the HTTP edge: `Accept-Language` negotiation and the message catalogues.

`rules/` speaks English only and stays so; here its English texts are swapped for the
negotiated language's, by key, from `service/locales/<lang>.json` (read once, at import).
Only human-readable text changes: codes, rule ids and card codes are never translated.

A text is translated only when the English catalogue still says exactly what the service
said in English; otherwise (a message added or reworded since the catalogue was written)
the answer stays English and `Content-Language` says so, rather than a stale translation.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
from flask import request

from rules import ganjifa, tarot
from rules.reasons import MESSAGES, Reason

DEFAULT = "en"
LANGUAGES = ("en", "hi", "hu", "fa", "uk")  # DEFAULT first: it wins ties and `*`
LOCALES = Path(__file__).resolve().parent / "locales"
CATALOGUES: dict[str, dict[str, str]] = {
    lang: orjson.loads((LOCALES / f"{lang}.json").read_bytes()) for lang in LANGUAGES
}
EN = CATALOGUES[DEFAULT]


# -- negotiation (RFC 9110 §12.5.4, ranges matched as RFC 4647 lookup) -----------------------

_QVALUE = re.compile(r"^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")
_negotiated: dict[str | None, str] = {}
_CACHE_LIMIT = 512  # a client population sends few distinct headers; bound a hostile one


def negotiate(header: str | None) -> str:
    """The language to answer in for an `Accept-Language` value: the supported language of
    highest quality, the earlier range winning ties; English when none is acceptable."""
    lang = _negotiated.get(header)
    if lang is None:
        lang = _negotiate(header)
        if len(_negotiated) >= _CACHE_LIMIT:
            _negotiated.clear()
        _negotiated[header] = lang
    return lang


def _negotiate(header: str | None) -> str:
    if not header:
        return DEFAULT
    # Per language: (specificity, quality, position) of the range that decides it. A range
    # naming the language exactly beats a longer one (`hu` over `hu-HU`), which beats `*`.
    decided: dict[str, tuple[int, float, int]] = {}
    wildcard: tuple[float, int] | None = None
    for position, item in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in item.split(";"))
        if not tag:
            continue
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                value = value.strip()
                if not _QVALUE.match(value):
                    break
                q = float(value)
        else:
            tag = tag.lower()
            if tag == "*":
                if wildcard is None:
                    wildcard = (q, position)
                continue
            primary = tag.split("-", 1)[0]
            if primary not in CATALOGUES:
                continue
            specificity = 2 if tag == primary else 1
            best = decided.get(primary)
            if best is None or specificity > best[0] or (
                    specificity == best[0] and q > best[1]):
                decided[primary] = (specificity, q, position)
    ranked = []
    for order, lang in enumerate(LANGUAGES):
        if lang in decided:
            _, q, position = decided[lang]
        elif wildcard is not None:
            q, position = wildcard
        else:
            continue
        if q > 0:
            ranked.append((-q, position, order, lang))
    return min(ranked)[3] if ranked else DEFAULT


# -- the request's language ------------------------------------------------------------------


LANG = "cardavia.lang"  # WSGI environ keys, set by service/edge.py
ANSWERED = "cardavia.answered"


def language() -> str:
    """The negotiated language of the current request."""
    environ = request.environ
    lang = environ.get(LANG)
    if lang is None:
        lang = environ[LANG] = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    return lang


def _fell_back() -> None:
    """Part of this answer could not be said in the negotiated language: it is English."""
    request.environ[ANSWERED] = DEFAULT


def problem_text(key: str, title: str, detail: str, detail_key: str | None = None,
                 params: dict | None = None) -> tuple[str, str]:
    """A problem's title and detail in the request's language: the catalogue's
    `<key>.title` and `<detail_key or key.detail>`, formatted with `params`."""
    lang = language()
    if lang == DEFAULT:
        return title, detail
    cat, params = CATALOGUES[lang], params or {}
    detail_key = detail_key or f"{key}.detail"
    try:
        if (EN[f"{key}.title"] == title and EN[detail_key].format(**params) == detail
                and f"{key}.title" in cat and detail_key in cat):
            return cat[f"{key}.title"], cat[detail_key].format(**params)
    except (KeyError, IndexError):
        pass
    _fell_back()
    return title, detail


# -- reasons -----------------------------------------------------------------------------------

# The English of every why-clause (T8 poignée, G8 Dukal), matched back to its key; a
# parametrised one as a pattern whose groups are its placeholders.
_WHY_EXACT: dict[str, str] = {}
_WHY_PATTERNS: list[tuple[re.Pattern, str]] = []
for _key, _template in EN.items():
    if _key.startswith("why."):
        if "{" in _template:
            _pattern = re.escape(_template)
            _pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", _pattern)
            _WHY_PATTERNS.append((re.compile(f"^{_pattern}$"), _key))
        else:
            _WHY_EXACT[_template] = _key

AVATAR_CODE = {name: code for code, name, _ in ganjifa.AVATARS}
_SUIT_LABEL = re.compile(r"^.+ \((\w+)\)$")


def _detail(lang: str, name: str, value):
    """One placeholder value of a reason in `lang`, or None when it cannot be said there.
    Numbers and card codes are the same in every language."""
    cat = CATALOGUES[lang]
    if not isinstance(value, str):
        return value
    if name == "phase":
        return cat.get(f"phase.{value}")
    if name == "action":
        return cat.get(f"action.{value}")
    if name == "highest" and value in tarot.CONTRACTS:
        return cat.get(f"contract.{value}")
    if name == "suit":
        m = _SUIT_LABEL.match(value)
        avatar = m and cat.get(f"ganjifa.avatar.{m.group(1)}")
        return avatar and f"{avatar} ({m.group(1)})"
    if name == "avatar":
        return cat.get(f"ganjifa.avatar.{AVATAR_CODE.get(value)}")
    if name == "why":
        return _why(lang, value)
    return value


def _why(lang: str, english: str) -> str | None:
    key, params = _WHY_EXACT.get(english), {}
    if key is None:
        for pattern, k in _WHY_PATTERNS:
            m = pattern.match(english)
            if m:
                key, params = k, m.groupdict()
                break
        else:
            return None
    template = CATALOGUES[lang].get(key)
    if template is None:
        return None
    local = {}
    for name, value in params.items():
        local[name] = _detail(lang, name, value)
        if local[name] is None:
            return None
    return template.format(**local)


def reason_message(reason: Reason, lang: str | None = None) -> str:
    """`reason.message` in the request's language."""
    lang = lang or language()
    english = reason.message
    if lang == DEFAULT:
        return english
    template = CATALOGUES[lang].get(f"reason.{reason.code}")
    if template is None or EN.get(f"reason.{reason.code}") != MESSAGES.get(reason.code):
        _fell_back()
        return english
    details = {}
    for name, value in (reason.details or {}).items():
        details[name] = _detail(lang, name, value)
        if details[name] is None:
            _fell_back()
            return english
    return template.format(**details)


# -- games and cards ---------------------------------------------------------------------------

# Persian writes its own digits in card names; the others the ASCII ones.
_DIGITS = {lang: str.maketrans("0123456789", cat["digits"]) for lang, cat in CATALOGUES.items()}


def card_name(lang: str, game: str, suit: str, rank: str) -> str:
    """A card's name in `lang`, built from the catalogue's rank and suit names."""
    cat = CATALOGUES[lang]
    if game == "tarot" and suit == "T":
        return cat["tarot.trump"].format(n=rank.translate(_DIGITS[lang]))
    if game == "tarot" and suit == "EX":
        return cat["tarot.excuse"]
    if game == "ganjifa":
        local_rank = cat.get(f"ganjifa.rank.{rank}") or rank.translate(_DIGITS[lang])
        return cat["ganjifa.card"].format(rank=local_rank, suit=cat[f"ganjifa.avatar.{suit}"])
    return cat[f"{game}.card"].format(rank=cat[f"{game}.rank.{rank}"],
                                      suit=cat[f"{game}.suit.{suit}"])


_infos: dict[tuple[str, str], dict] = {}
_cards: dict[tuple[str, str], list[dict]] = {}


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
        _fell_back()
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
    if "avatars" in info:
        out["avatars"] = [{**a, "avatar": cat[f"ganjifa.avatar.{a['suit']}"],
                           "emblem": cat[f"ganjifa.emblem.{a['suit']}"]}
                          for a in info["avatars"]]
    return out


def cards(game: str, listed: list[dict], lang: str | None = None) -> list[dict]:
    """A game's card list with names (and Ganjifa's avatars and emblems) in the request's
    language; codes, suits, ranks and labels as they are."""
    lang = lang or language()
    if lang == DEFAULT:
        return listed
    key = (game, lang)
    out = _cards.get(key)
    if out is None:
        out = _localize_cards(game, listed, lang)
        _cards[key] = out
    return out


def _localize_cards(game: str, listed: list[dict], lang: str) -> list[dict]:
    cat = CATALOGUES[lang]
    out = []
    for card in listed:
        local = {**card, "name": card_name(lang, game, card["suit"], card["rank"])}
        if "avatar" in card:
            local["avatar"] = cat[f"ganjifa.avatar.{card['suit']}"]
            local["emblem"] = cat[f"ganjifa.emblem.{card['suit']}"]
        out.append(local)
    return out
