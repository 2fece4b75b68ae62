"""Participant ids, compared the same way in every path (D18), and the characters an id or
a name may not hold.

An id is compared after Unicode NFKC normalization with the surrounding white space
removed: ``Ｂ`` and `` B `` are the participant ``B``. The same holds for sign-in names.

Look-alikes: an id (a player's, a sign-in name) holds no format character (Unicode category
Cf: U+200B, U+200F, U+FEFF, …): invisible, ``P0\u200f02`` beside ``P002`` would be another
player that reads the same. A name (a player's, a club, an event, a judge, an account) holds
no bidirectional control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): one
reverses what follows it on the desk, on paper and in a CSV file. Every way in (CSV files,
the command line, the API, the web's forms) asks here: :func:`check_id_characters`,
:func:`check_name`, and :mod:`shinpan.files.csvio` with :func:`hidden_characters` and
:func:`direction_controls` for its line-by-line messages.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from shinpan.errors import InvalidInput

MAX_ID_LENGTH = 64
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _codes(chars: Iterable[str]) -> str:
    return ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(chars))


def hidden_characters(value: str) -> str:
    """The format characters (Cf) an id holds, as ``U+200F, …`` ("" when none)."""
    if value.isascii():
        return ""
    return _codes(c for c in value if unicodedata.category(c) == "Cf")


def direction_controls(value: str) -> str:
    """The bidirectional controls a name holds, as ``U+202E, …`` ("" when none)."""
    if value.isascii():
        return ""
    return _codes(c for c in value if c in BIDI_CONTROLS)


def check_id_characters(value: str, field: str) -> None:
    """An id (a player's, a sign-in name) holds no invisible format character."""
    if chars := hidden_characters(value):
        raise InvalidInput(
            "an id cannot hold invisible characters ({chars}); type it again without them",
            field=field,
            chars=chars,
        )


def check_name(value: str, field: str) -> None:
    """A name holds no character that changes the direction of the text after it."""
    if chars := direction_controls(value):
        raise InvalidInput(
            "a name cannot hold characters that change the direction of text ({chars}); "
            "type it again without them",
            field=field,
            chars=chars,
        )


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
    if chars := hidden_characters(value):
        raise ValueError(f"a participant id cannot hold invisible characters ({chars})")
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
