"""Participant ids, compared the same way in every path (D18).

An id is compared after Unicode NFKC normalization with the surrounding white space
removed: ``Ｂ`` and `` B `` are the participant ``B``. The same holds for sign-in names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_ID_LENGTH = 64


def normalize_id(raw: str) -> str:
    """D18: the form every path compares: NFKC, surrounding white space removed."""
    if raw.isascii():  # NFKC leaves ASCII as it is
        return raw.strip()
    return unicodedata.normalize("NFKC", raw).strip()


def check_id(raw: str) -> str:
    """D18: a participant id as stored, or ValueError saying why it cannot be one."""
    value = normalize_id(raw)
    if not value:
        raise ValueError("a participant id cannot be empty")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"a participant id has at most {MAX_ID_LENGTH} characters")
    return value


def first_clash(raw_ids: Iterable[str]) -> tuple[str, str] | None:
    """D18: two listed ids that normalize alike (the same participant twice), if any."""
    seen: dict[str, str] = {}
    for raw in raw_ids:
        key = normalize_id(raw)
        if key in seen:
            return seen[key], raw
        seen[key] = raw
    return None
