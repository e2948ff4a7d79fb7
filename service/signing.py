"""Signed states: with CARDAVIA_STATE_KEY set, every state the service returns carries an
HMAC-SHA256 signature and every state it receives must carry a valid one (API.md).

The signature covers a canonical encoding of the whole state as JSON (keys sorted, no
spaces, the `signature` field left out), so changing any field (one card of a hand, a
trick's winner, a bid) invalidates it. Keys rotate: the service signs with the newest key,
CARDAVIA_STATE_KEY, and still accepts states signed with any key of
CARDAVIA_STATE_OLD_KEYS (comma-separated) until those are removed.

Settings fail closed: a key that is set but empty or blank, or an empty item in the list of
old keys, stops the service at start rather than serving unsigned states or breaking a
rotation. Keys are trimmed, so "k0, k1" is the keys k0 and k1.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

import orjson

FIELD = "signature"
PREFIX = "v1."  # the scheme's version, so that another encoding can come beside it


def canonical(state: dict) -> bytes:
    return orjson.dumps({k: v for k, v in state.items() if k != FIELD},
                        option=orjson.OPT_SORT_KEYS)


def _mac(key: bytes, message: bytes) -> str:
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return PREFIX + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class Signer:
    def __init__(self, key: str, old_keys: tuple[str, ...] = ()):
        self.key = key.encode()
        self.keys = (self.key, *(k.encode() for k in old_keys))

    @classmethod
    def from_config(cls, key: str | None, old_keys: str | None) -> Signer | None:
        """The signer of the settings, None when no key is set; ValueError, saying which
        setting is wrong, for a blank key or an empty old key."""
        if key is None:
            if old_keys is not None:
                raise ValueError("CARDAVIA_STATE_OLD_KEYS is set but CARDAVIA_STATE_KEY is "
                                 "not: set the key that signs new states too, or unset both.")
            return None
        if not key.strip():
            raise ValueError("CARDAVIA_STATE_KEY is set but blank: set a secret key to sign "
                             "states, or unset it to serve unsigned states.")
        olds = () if old_keys is None else tuple(k.strip() for k in old_keys.split(","))
        if "" in olds:
            raise ValueError("CARDAVIA_STATE_OLD_KEYS has an empty key: list the old keys "
                             "separated by commas (\"k0, k1\"), or unset it.")
        return cls(key.strip(), olds)

    def sign(self, state: dict) -> dict:
        state[FIELD] = _mac(self.key, canonical(state))
        return state

    def valid(self, state: dict) -> bool:
        given = state.get(FIELD)
        if not isinstance(given, str) or not given.isascii():  # compare_digest takes ASCII
            return False
        message = canonical(state)
        return any(hmac.compare_digest(given, _mac(k, message)) for k in self.keys)
