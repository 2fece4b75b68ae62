"""For tests that end a round with tables still playing: a draw for each (T5, T8)."""

from __future__ import annotations

from shinpan.services.context import load_event
from shinpan.store.db import Database
from shinpan.store.rounds import unfinished_tables
from shinpan.tournament.rounds import OpenTable


def draws(db: Database, event: int, round_no: int | None = None) -> dict[int, OpenTable]:
    """A draw for each table of the round (default: the current one) still without a result."""
    with db.read() as conn:
        number = round_no or load_event(conn, event).current_round
        return dict.fromkeys(unfinished_tables(conn, event, number), OpenTable.draw)
