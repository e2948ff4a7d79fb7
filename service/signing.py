"""Signed states: with CARDAVIA_STATE_KEY set, every state the service returns carries an
HMAC-SHA256 signature and every state it receives must carry a valid one (API.md).

The signature covers a canonical encoding of the whole state as JSON (keys sorted, no
spaces, the `signature` field left out), so changing any field (one card of a hand, a
trick's winner, a bid) invalidates it. Keys rotate: the service signs with the newest key,
CARDAVIA_STATE_KEY, and still accepts states signed with any key of
CARDAVIA_STATE_OLD_KEYS (comma-separated) until those are removed.
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
        if not key:
            return None
        return cls(key, tuple(k for k in (old_keys or "").split(",") if k))

    def sign(self, state: dict) -> dict:
        state[FIELD] = _mac(self.key, canonical(state))
        return state

    def valid(self, state: dict) -> bool:
        given = state.get(FIELD)
        if not isinstance(given, str):
            return False
        message = canonical(state)
        return any(hmac.compare_digest(given, _mac(k, message)) for k in self.keys)
