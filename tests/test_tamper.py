"""A hand-edited database is caught: ``shinpan verify`` names the first entry altered,
removed or inserted, and a projection edited behind the ledger's back.

To edit the ledger at all, the append-only guard must be taken off first: on SQLite the
triggers are dropped (sqlite3, as someone with the file would), on PostgreSQL the user
triggers are disabled for the edit and enabled again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from conftest import PG_ADMIN, Backend, EventSetup, make_event, run_cli, run_shinpan
from shinpan.services import integrity, queries
from shinpan.store.chain import canonical, entry_hash
from shinpan.store.db import Database


@pytest.fixture
def ev(db: Database) -> EventSetup:
    """An event with a few rulings: #1 and #2 P001's extra cards (the second with a duel loss)."""
    setup = make_event(db, players=4)
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P003", "pregame.tardiness")
    setup.record("P004", "ingame.slow-play")
    assert integrity.verify(db).ok
    return setup


# -- editing the database by hand ------------------------------------------------------------


@contextmanager
def by_hand(backend: Backend) -> Iterator[Callable[..., list[tuple[Any, ...]]]]:
    """A raw connection to the database with the ledger's guard taken off; ``sql(query, *args)``."""
    if backend.is_postgres:
        pg = psycopg.connect(PG_ADMIN, autocommit=True)
        pg.execute(f"SET search_path TO {backend.schema}")  # type: ignore[arg-type]
        pg.execute("ALTER TABLE entries DISABLE TRIGGER USER")

        def pg_sql(query: str, *args: Any) -> list[tuple[Any, ...]]:
            cur = pg.execute(query.replace("?", "%s"), args)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

        try:
            yield pg_sql
        finally:
            pg.execute("ALTER TABLE entries ENABLE TRIGGER USER")
            pg.close()
        return
    assert backend.path is not None
    lite = sqlite3.connect(str(backend.path), isolation_level=None)
    lite.execute("DROP TRIGGER entries_no_update")
    lite.execute("DROP TRIGGER entries_no_delete")

    def lite_sql(query: str, *args: Any) -> list[tuple[Any, ...]]:
        return lite.execute(query, args).fetchall()

    try:
        yield lite_sql
    finally:  # put back as they were, as a careful forger would (verify checks they are there)
        for action in ("UPDATE", "DELETE"):
            lite.execute(
                f"CREATE TRIGGER entries_no_{action.lower()} BEFORE {action} ON entries "
                "BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: entries cannot be changed or deleted'); END"
            )
        lite.close()


def ruling_entry(ev: EventSetup, number: int) -> int:
    return int(queries.get_ruling(ev.db, ev.id, number)["entry"])


def verify_fails(ev: EventSetup, backend: Backend, *expected: str) -> str:
    """verify through the service and through the command: both say the chain is broken."""
    result = integrity.verify(ev.db)
    assert not result.ok
    run = run_shinpan("verify", db=backend.url)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    for text in expected:
        assert text in run.stdout, f"{text!r} not in {run.stdout!r}"
    return run.stdout


# -- the ledger ----------------------------------------------------------------------------------


def test_a_penalty_edited_inside_an_entry_is_named(ev: EventSetup, backend: Backend) -> None:
    seq = ruling_entry(ev, 2)
    with by_hand(backend) as sql:
        ((body,),) = sql("SELECT body FROM entries WHERE event_id = ? AND seq = ?", ev.id, seq)
        data = json.loads(body)
        assert data["rulings"][0]["penalties"] == ["warning1", "duel_loss"]
        data["rulings"][0]["penalties"] = ["caution"]  # a friend's duel loss made to vanish
        sql("UPDATE entries SET body = ? WHERE event_id = ? AND seq = ?", canonical(data), ev.id, seq)
    result = integrity.verify(ev.db)
    assert [(b.event_id, b.seq) for b in result.breaks] == [(ev.id, seq)]
    assert "altered" in result.breaks[0].problem
    out = verify_fails(ev, backend, f"event {ev.id}, entry {seq}: was altered")
    assert out.count("BROKEN") == 1


def test_an_edit_whose_hash_was_recomputed_breaks_the_next_link(ev: EventSetup, backend: Backend) -> None:
    seq = ruling_entry(ev, 2)
    with by_hand(backend) as sql:
        ((kind, cid, chash, actor, at, refs, body, prev),) = sql(
            "SELECT kind, command_id, command_hash, actor, recorded_at, refs, body, prev_hash "
            "FROM entries WHERE event_id = ? AND seq = ?",
            ev.id,
            seq,
        )
        forged_body = body.replace('"duel_loss"', '"caution"')
        forged = entry_hash(
            seq=seq,
            kind=kind,
            command_id=cid,
            command_hash=chash,
            actor=actor,
            recorded_at=at,
            refs=refs,
            body=forged_body,
            prev_hash=prev,
        )
        sql(
            "UPDATE entries SET body = ?, hash = ? WHERE event_id = ? AND seq = ?",
            forged_body,
            forged,
            ev.id,
            seq,
        )
    verify_fails(ev, backend, f"event {ev.id}, entry {seq + 1}:")


def test_an_entry_removed_from_the_middle_is_named(ev: EventSetup, backend: Backend) -> None:
    seq = ruling_entry(ev, 3)
    with by_hand(backend) as sql:
        sql("DELETE FROM entries WHERE event_id = ? AND seq = ?", ev.id, seq)
    result = integrity.verify(ev.db)
    assert [(b.event_id, b.seq) for b in result.breaks] == [(ev.id, seq)]
    verify_fails(ev, backend, f"event {ev.id}, entry {seq}: was removed")


def test_an_entry_removed_and_the_rest_renumbered_is_caught(ev: EventSetup, backend: Backend) -> None:
    seq = ruling_entry(ev, 3)
    with by_hand(backend) as sql:
        sql("DELETE FROM entries WHERE event_id = ? AND seq = ?", ev.id, seq)
        for (n,) in sql("SELECT seq FROM entries WHERE event_id = ? AND seq > ? ORDER BY seq", ev.id, seq):
            sql("UPDATE entries SET seq = ? WHERE event_id = ? AND seq = ?", n - 1, ev.id, n)
    verify_fails(ev, backend, f"event {ev.id}, entry {seq}:", "removed")


def test_an_entry_inserted_in_the_middle_is_named(ev: EventSetup, backend: Backend) -> None:
    """A forger who knows the hash makes room at entry k and links a new entry to k-1."""
    k = ruling_entry(ev, 3)
    with by_hand(backend) as sql:
        ((before_hash,),) = sql("SELECT hash FROM entries WHERE event_id = ? AND seq = ?", ev.id, k - 1)
        for (n,) in sql(
            "SELECT seq FROM entries WHERE event_id = ? AND seq >= ? ORDER BY seq DESC", ev.id, k
        ):
            sql("UPDATE entries SET seq = ? WHERE event_id = ? AND seq = ?", n + 1, ev.id, n)
        body = canonical({"name": "Mallory", "level": 3, "role": "floor_judge"})
        digest = entry_hash(
            seq=k,
            kind="judge.added",
            command_id=None,
            command_hash=None,
            actor="HJ",
            recorded_at="2024-06-01T10:00:00.000000Z",
            refs="[]",
            body=body,
            prev_hash=before_hash,
        )
        sql(
            "INSERT INTO entries (event_id, seq, kind, command_id, command_hash, actor, recorded_at, refs, "
            "body, prev_hash, hash) VALUES (?, ?, 'judge.added', NULL, NULL, 'HJ', "
            "'2024-06-01T10:00:00.000000Z', '[]', ?, ?, ?)",
            ev.id,
            k,
            body,
            before_hash,
            digest,
        )
    result = integrity.verify(ev.db)
    assert [(b.seq, b.problem) for b in result.breaks] == [(k, "was inserted")]
    verify_fails(ev, backend, f"event {ev.id}, entry {k}: was inserted")


def test_only_the_tampered_event_is_reported(db: Database, backend: Backend) -> None:
    clean = make_event(db, players=2)
    dirty = make_event(db, players=2, name="other")
    clean.record("P001", "ingame.slow-play")
    dirty.record("P001", "ingame.slow-play")
    seq = ruling_entry(dirty, 1)
    with by_hand(backend) as sql:
        sql("UPDATE entries SET actor = 'nobody' WHERE event_id = ? AND seq = ?", dirty.id, seq)
    result = integrity.verify(db)
    assert [(b.event_id, b.seq) for b in result.breaks] == [(dirty.id, seq)]
    assert integrity.verify(db, clean.id).ok
    out = verify_fails(dirty, backend, f"event {dirty.id}, entry {seq}")
    assert f"event {clean.id}," not in out


# -- the projections ----------------------------------------------------------------------------


def test_a_projection_edited_behind_the_ledger_is_named_and_rebuild_fixes_it(
    ev: EventSetup, backend: Backend
) -> None:
    with by_hand(backend) as sql:
        sql("UPDATE rulings SET penalties = ? WHERE event_id = ? AND number = 2", '["caution"]', ev.id)
        sql("UPDATE players SET status = 'disqualified' WHERE event_id = ? AND number = 'P002'", ev.id)
    result = integrity.verify(ev.db)
    assert not result.breaks  # the chain itself holds
    assert {(d.table, d.key) for d in result.differences} == {
        ("rulings", (ev.id, 2)),
        ("players", (ev.id, "P002")),
    }
    out = verify_fails(
        ev, backend, f"DIFFERS rulings {ev.id}/2: penalties is", "P002: status is 'disqualified'"
    )
    assert "warning1" in out  # what the ledger gives
    fixed = run_cli("rebuild", db=backend.url)
    assert fixed.returncode == 0 and f"fixed rulings {ev.id}/2" in fixed.stdout
    assert queries.get_ruling(ev.db, ev.id, 2)["penalties"] == ["warning1", "duel_loss"]
    again = run_shinpan("verify", db=backend.url)
    assert again.returncode == 0, again.stdout
    assert again.stdout.startswith("正常:") and " / ok:" in again.stdout


def test_a_row_added_to_a_projection_is_caught(ev: EventSetup, backend: Backend) -> None:
    with by_hand(backend) as sql:
        sql("DELETE FROM duels WHERE event_id = ?", ev.id)
        sql("INSERT INTO drafts (event_id, name, round) VALUES (?, 'X', 1)", ev.id)
    result = integrity.verify(ev.db)
    tables = sorted({d.table for d in result.differences})
    assert tables == ["drafts", "duels"]
    check = run_cli("rebuild", "--check", db=backend.url)
    assert check.returncode == 1 and "DIFFERS" in check.stdout
    assert not integrity.verify(ev.db).ok  # --check changed nothing
    integrity.rebuild(ev.db)
    assert integrity.verify(ev.db).ok
