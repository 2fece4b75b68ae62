"""The code printed on a table's result slip (T11: the winner reports with it).

A match's code is a pure function of the event's secret, the round and the table:
:func:`match_code` is an HMAC-SHA256 keyed with the secret over ``round`` and ``table``,
written in eight characters of an alphabet a person cannot misread (no ``0``/``O``/``Q``,
``1``/``I``/``L``, ``2``/``Z``, ``5``/``S``, ``8``/``B``, ``U``/``V``), shown as two groups of
four (``K7RX-M4HD``). 22 characters to the place, 8 places: about 36 bits, so a guess at
another table's code succeeds once in 5 × 10¹⁰ tries, and nobody can work out one table's
code from another's without the secret.

The secret is given by the caller (:mod:`shinpan.services.codes`: the event's ``uid`` keyed
with the installation's code key, which no export carries): the same code is printed again
however often the slips are, and nowhere else is it written down. Typing is forgiving:
:func:`normalise_code` accepts lower case, full-width characters, spaces and dashes, and
:func:`code_matches` compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

ALPHABET = "34679ACDEFGHJKMNPRTWXY"  # 22 characters, none read as another
LENGTH = 8
GROUP = 4


def match_code(secret: str, round_no: int, table: int) -> str:
    """The code of the match at ``table`` in round ``round_no``: ``K7RX-M4HD``."""
    if not secret:
        raise ValueError("a match code needs the event's secret")
    message = f"shinpan result slip\x00{round_no}\x00{table}".encode()
    return _written(hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest())


def player_code(secret: str, player_id: str) -> str:
    """A player's registration code (``K7RX-M4HD``), printed on the slip the desk hands them:
    with it a player submits their own decklist (T13) and drops from the event themselves
    (T14's self-service) on the players' pages. Made like :func:`match_code`, over the
    player's id instead of a table, so one player's code says nothing of another's."""
    if not secret:
        raise ValueError("a player's code needs the event's secret")
    message = f"shinpan player\x00{player_id}".encode()
    return _written(hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest())


def player_code_matches(secret: str, player_id: str, typed: str) -> bool:
    """Whether ``typed`` is that player's registration code (compared in constant time)."""
    expected = player_code(secret, player_id)
    return hmac.compare_digest(expected.encode(), normalise_code(typed).encode())


def _written(digest: bytes) -> str:
    """Eight characters of the alphabet from a digest, as two groups of four."""
    value = int.from_bytes(digest, "big")
    chars = []
    for _ in range(LENGTH):
        value, index = divmod(value, len(ALPHABET))
        chars.append(ALPHABET[index])
    code = "".join(chars)
    return f"{code[:GROUP]}-{code[GROUP:]}"


def normalise_code(typed: str) -> str:
    """A code as a person typed it (``k7rx m4hd``, full-width, with or without the dash)
    in the form :func:`match_code` writes; what cannot be a code comes back as typed, upper case."""
    plain = unicodedata.normalize("NFKC", typed).upper()
    kept = "".join(c for c in plain if c not in " -‐‑–—ー_\t")
    if len(kept) != LENGTH:
        return kept
    return f"{kept[:GROUP]}-{kept[GROUP:]}"


def code_matches(secret: str, round_no: int, table: int, typed: str) -> bool:
    """Whether ``typed`` is the code of that match (compared in constant time)."""
    expected = match_code(secret, round_no, table)
    return hmac.compare_digest(expected.encode(), normalise_code(typed).encode())
