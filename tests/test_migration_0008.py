"""Migration 0008 brings a database of revision 0007 to the format (T7–T9) and the playoff's
first round (T10) kept on the event's row: filled in from the ledger's ``event.format`` and
``playoff.started`` entries, so that best of one decides D10 for events made before, on
SQLite and PostgreSQL; the projections still equal a rebuild from the ledger."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from conftest import HEAD_JUDGE, Backend, core_of, make_event
from shinpan.services import events, formats, integrity, playoff, rounds
from shinpan.store.connection import Statement
from shinpan.store.db import HEAD, Database
from shinpan.store.schema import metadata
from shinpan.store.snapshots import match_at

COLUMNS = ("match_format", "time_out", "tiebreakers", "format_seed", "playoff_round")
ROW = Statement(f"SELECT {', '.join(COLUMNS)} FROM events WHERE event_id = :e")


def test_a_database_of_revision_0007_gets_the_format_and_the_playoff_on_the_events_row(
    backend: Backend,
) -> None:
    db = Database(backend.url)
    try:
        chosen = make_event(db, players=8, pair=False)
        plain = make_event(db, players=4, name="形式を選ばない大会")
        formats.set_format(db, chosen.id, match_format="bo1", time_out="both-lose", actor=HEAD_JUDGE)
        chosen.pair(1, [("P001", "P002"), ("P003", "P004"), ("P005", "P006"), ("P007", "P008")])
        rounds.start_round(db, chosen.id)
        for table in range(1, 5):
            events.report_result(db, chosen.id, 1, table, result="a")
        events.end_round(db, chosen.id, 1)
        playoff.start_playoff(db, chosen.id, 4, actor=HEAD_JUDGE)
        with db.read() as conn:
            expected = tuple(ROW.first(conn, {"e": chosen.id}))
            assert tuple(ROW.first(conn, {"e": plain.id})) == (None,) * 5
    finally:
        db.close()
    assert expected[:2] == ("bo1", "both-lose") and expected[4] == 2

    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:  # as revision 0007 left it
            for column in COLUMNS:
                conn.execute(text(f"ALTER TABLE events DROP COLUMN {column}"))
            conn.execute(text("UPDATE alembic_version SET version_num = '0007'"))
    finally:
        old.close()

    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD
            assert tuple(ROW.first(conn, {"e": chosen.id})) == expected
            assert tuple(ROW.first(conn, {"e": plain.id})) == (None,) * 5
            semi = match_at(conn, chosen.id, 2, 1)
            assert semi is not None and semi.duels_to_win == 1  # best of one, read by the planner
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert integrity.verify(upgraded).ok
    finally:
        upgraded.close()
