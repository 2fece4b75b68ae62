"""The codes printed on the tables' result slips, read from the ledger.

The code itself is :func:`shinpan.tournament.codes.match_code`, a pure function of the
event's secret, the round and the table; the secret is the event's ``uid``, written once
in the ledger's ``event.created`` entry. A winner's report (T11) checks a typed code with
:func:`code_is_right`; the slips print :func:`match_codes`.
"""

from __future__ import annotations

from collections.abc import Iterable

from shinpan.errors import NotFound
from shinpan.store.connection import Connection
from shinpan.store.events import identity
from shinpan.tournament.codes import code_matches, match_code, player_code, player_code_matches


def event_secret(conn: Connection, event_id: int) -> str:
    """The secret the event's match codes are made from (its uid)."""
    found = identity(conn, event_id)
    if found is None:
        raise NotFound("no event {event}", event=event_id)
    return found.uid


def match_codes(conn: Connection, event_id: int, round_no: int, tables: Iterable[int]) -> dict[int, str]:
    """The code of each listed table of the round, by table."""
    secret = event_secret(conn, event_id)
    return {table: match_code(secret, round_no, table) for table in tables}


def code_is_right(conn: Connection, event_id: int, round_no: int, table: int, typed: str) -> bool:
    """Whether ``typed`` is the code printed on that table's slip."""
    return code_matches(event_secret(conn, event_id), round_no, table, typed)


def player_codes(conn: Connection, event_id: int, players: Iterable[str]) -> dict[str, str]:
    """The registration code of each listed player, by player id (printed on their slip)."""
    secret = event_secret(conn, event_id)
    return {player: player_code(secret, player) for player in players}


def player_code_is_right(conn: Connection, event_id: int, player_id: str, typed: str) -> bool:
    """Whether ``typed`` is the registration code printed on that player's slip."""
    return player_code_matches(event_secret(conn, event_id), player_id, typed)
