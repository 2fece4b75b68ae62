"""Getting an event out and in again: export, import, and backups of a live SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import (
    FLOOR_JUDGE,
    HEAD_JUDGE,
    Backend,
    EventSetup,
    Recorder,
    make_event,
    new_backend,
    require_postgres,
    run_cli,
    run_shinpan,
)
from shinpan.errors import Conflict, InvalidInput, StorageError
from shinpan.files import transfer
from shinpan.files.guidelines import default_guideline
from shinpan.services import corrections, deadlines, events, integrity, queries, recording, rounds
from shinpan.store.chain import GENESIS, canonical, entry_hash
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot as projections
from shinpan.views.events import list_events


@pytest.fixture
def ev(db: Database) -> EventSetup:
    """An event with a bit of everything: rulings, effects, a void, a deviation, a deadline."""
    setup = make_event(db, players=6)
    setup.record("P001", "pregame.tardiness")
    setup.record("P002", "ingame.slow-play")
    n = setup.record("P003", "ingame.extra-cards-drawn").rulings[0]["number"]
    setup.record("P003", "ingame.extra-cards-drawn")
    corrections.deviate(db, setup.id, n, ["caution"], "first event")
    v = setup.record("P005", "severe.cheating").rulings[0]["number"]
    corrections.void(db, setup.id, v, "it was the other player")
    deadlines.mark_missed(db, setup.id, 1, 0)
    rounds.start_round(db, setup.id)  # results once the round runs (T5)
    events.report_result(db, setup.id, 1, 2, result="a")
    return setup


def snapshot(db: Database, event_id: int) -> dict[str, Any]:
    with db.read() as conn:
        return projections(conn, event_id)


def export_file(ev: EventSetup, url: str, path: Path) -> dict[str, Any]:
    out = run_cli("export", "--event", str(ev.id), "-o", str(path), db=url)
    assert out.returncode == 0, out.stderr
    return dict(json.loads(path.read_text(encoding="utf-8")))


# -- export and import ------------------------------------------------------------------------


def test_an_exported_event_imports_into_an_empty_database_unchanged(
    ev: EventSetup, backend: Backend, other_backend: Backend, tmp_path: Path
) -> None:
    path = tmp_path / "event.json"
    data = export_file(ev, backend.url, path)
    assert data["format"] == "shinpan-event" and data["event"]["id"] == ev.id
    assert [e["seq"] for e in data["entries"]] == list(range(1, len(data["entries"]) + 1))
    imported = run_shinpan("import", str(path), "--json", db=other_backend.url)
    assert imported.returncode == 0, imported.stderr
    answer = json.loads(imported.stdout)
    assert answer["event"] == ev.id and set(answer["claim_codes"]) == {HEAD_JUDGE, FLOOR_JUDGE}
    other = Database(other_backend.url)
    try:
        assert snapshot(other, ev.id) == snapshot(ev.db, ev.id)
        assert queries.player_history(other, ev.id, "P003") == queries.player_history(ev.db, ev.id, "P003")
        again = transfer.export_event(other, ev.id)["entries"]
        assert again[:-1] == data["entries"] and again[-1]["kind"] == "event.imported"  # the import's note
        # the imported event goes on where it left off
        saved = recording.record(
            other, ev.id, recording.RecordInput(player="P002", infraction="ingame.slow-play")
        )
        assert saved.rulings[0]["offense"] == 2
        assert integrity.verify(other).ok
    finally:
        other.close()
    check = run_shinpan("verify", db=other_backend.url)
    assert check.returncode == 0 and check.stdout.startswith("正常:"), check.stdout + check.stderr


def test_an_export_moves_between_sqlite_and_postgresql(
    db: Database, backend: Backend, tmp_path: Path
) -> None:
    require_postgres()
    source = make_event(db, players=4)
    source.record("P001", "pregame.tardiness")
    source.record("P003", "players.wrong-opponent")
    data = transfer.export_event(db, source.id)

    kind = "sqlite" if backend.is_postgres else "postgres"
    maker = new_backend(kind, tmp_path / "other")
    target = next(maker)
    try:
        other = Database(target.url)
        try:
            assert transfer.import_event(other, json.loads(json.dumps(data))).event_id == source.id
            assert snapshot(other, source.id) == snapshot(db, source.id)
            assert integrity.verify(other).ok
        finally:
            other.close()
    finally:
        maker.close()


def test_importing_the_same_export_twice_is_refused(ev: EventSetup, tmp_path: Path, db_url: str) -> None:
    path = tmp_path / "event.json"
    export_file(ev, db_url, path)
    again = run_cli("import", str(path), db=db_url)  # into the database it came from
    assert again.returncode == 1 and "already in the database" in again.stderr
    assert [e.id for e in list_events(ev.db)] == [ev.id]


def test_a_modified_export_is_refused_and_nothing_is_imported(
    ev: EventSetup, other_backend: Backend, tmp_path: Path
) -> None:
    data = transfer.export_event(ev.db, ev.id)
    other = Database(other_backend.url)
    try:
        for n, change in enumerate(_modifications(data)):
            changed = json.loads(json.dumps(data))
            what = change(changed)
            path = tmp_path / f"changed-{n}.json"
            path.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
            result = run_cli("import", str(path), db=other_backend.url)
            assert result.returncode == 1, what
            assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr, result.stderr
            assert what in result.stderr, (what, result.stderr)
            assert list_events(other) == []
            with other.read() as conn:
                assert Statement("SELECT count(*) FROM rulings").scalar(conn) == 0
        with pytest.raises(InvalidInput, match="not a shinpan event export"):
            transfer.import_event(other, {"format": "something else"})
    finally:
        other.close()


def _modifications(data: dict[str, Any]) -> list[Any]:
    recorded = next(i for i, e in enumerate(data["entries"]) if e["kind"] == "ruling.recorded")

    def penalty(d: dict[str, Any]) -> str:
        d["entries"][recorded]["body"]["rulings"][0]["penalties"] = ["caution"]
        return f"entry {recorded + 1} does not verify"

    def removed(d: dict[str, Any]) -> str:
        del d["entries"][recorded]
        return "missing or out of order"

    def last_entry(d: dict[str, Any]) -> str:
        d["entries"][-1]["actor"] = "Mallory"
        return f"entry {len(d['entries'])} does not verify"

    def no_entries(d: dict[str, Any]) -> str:
        d["entries"] = []
        return "no entries"

    return [penalty, removed, last_entry, no_entries]


def _forged(*items: tuple[str, Any]) -> dict[str, Any]:
    """An export whose chain verifies (the forger knows the hash) but whose content is made up."""
    prev, out = GENESIS, []
    for seq, (kind, body) in enumerate(items, start=1):
        at = "2024-06-01T10:00:00.000000Z"
        digest = entry_hash(
            seq=seq,
            kind=kind,
            command_id=None,
            command_hash=None,
            actor="X",
            recorded_at=at,
            refs="[]",
            body=canonical(body),
            prev_hash=prev,
        )
        out.append(
            {
                "seq": seq,
                "kind": kind,
                "actor": "X",
                "recorded_at": at,
                "body": body,
                "refs": [],
                "command_id": None,
                "command_hash": None,
                "prev_hash": prev,
                "hash": digest,
            }
        )
        prev = digest
    return {"format": "shinpan-event", "version": 1, "event": {"id": 7}, "entries": out, "head": prev}


def test_an_export_made_by_hand_is_refused_cleanly(db_url: str, db: Database, tmp_path: Path) -> None:
    g = default_guideline()
    created = {
        "uid": "u-1", "name": "E", "rel": 3, "guideline": {"id": g.id, "version": g.version},
        "head_judge": {"name": "X", "level": 2, "account": None}, "confirmation_threshold": "warning1",
        "starts_on": None, "ends_on": None, "venue": None, "time_zone": "Asia/Tokyo",
    }  # fmt: skip
    unknown = {**created, "guideline": {"id": "g", "version": "1"}}
    second_head = {"name": "X", "level": 3, "role": "head_judge"}
    cut = _forged(
        ("event.created", created), ("judge.added", {"name": "F", "level": 1, "role": "floor_judge"})
    )
    cut["entries"] = cut["entries"][:1]  # the last entry cut off; the head still names it
    twice = {"players": [{"number": "1", "name": "A"}, {"number": "1", "name": "B"}]}
    cases: list[tuple[Any, str]] = [
        ({"format": "shinpan-event", "version": 1, "entries": [{"kind": "event.created", "body": [1]}]},
         "does not begin with the event's creation"),
        ({"format": "shinpan-event", "version": 1, "event": [], "entries": [{"kind": "event.created",
          "body": {"uid": "x"}}]}, "entry 1 is not a shinpan ledger entry"),
        (_forged(("event.created", {"uid": "u-2"})), "entry 1 (event.created) is not what shinpan writes: event.created: name is missing"),
        (_forged(("event.created", unknown)), "guideline g 1, which this shinpan does not have"),
        (_forged(("event.created", {**created, "head_judge": {"name": "H", "level": 1}})), "cannot be imported"),
        (_forged(("event.created", created), ("judge.added", second_head)), "'head_judge' cannot be imported"),
        (cut, "entries were cut off or altered"),
        (_forged(("event.created", created), ("nonsense", {})), "entry 2 (nonsense) is not what shinpan writes"),
        (_forged(("event.created", created), ("players.imported", twice)), "entry 2 (players.imported)"),
        ({"format": "shinpan-event", "version": 2}, "version 2 is not supported"),
        ([], "not a shinpan event export"),
    ]  # fmt: skip
    for n, (data, expected) in enumerate(cases):
        path = tmp_path / f"forged-{n}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = run_cli("import", str(path), db=db_url)
        assert result.returncode == 1, expected
        message = result.stderr.strip()
        assert message.startswith("error: ") and len(message.splitlines()) == 1, message
        assert expected in message, (expected, message)
        assert list_events(db) == []


def test_a_file_that_is_not_json_is_refused(tmp_path: Path, db_url: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\x00\xff not json")
    result = run_cli("import", str(path), db=db_url)
    assert result.returncode == 1 and "cannot read" in result.stderr


def test_importing_when_the_events_id_is_taken_gives_it_a_new_one(
    ev: EventSetup, other_backend: Backend
) -> None:
    data = transfer.export_event(ev.db, ev.id)
    other = Database(other_backend.url)
    try:
        make_event(other, players=2, name="already here")
        new_id = transfer.import_event(other, data).event_id
        assert new_id != ev.id
        assert snapshot(other, new_id)["rulings"].keys() != set() and integrity.verify(other).ok
        with pytest.raises(Conflict, match="already in the database"):
            transfer.import_event(other, data)
    finally:
        other.close()


# -- backups --------------------------------------------------------------------------------------


def _rulings_in(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM rulings").fetchone()[0])


def test_a_backup_is_a_consistent_copy(ev: EventSetup, backend: Backend, tmp_path: Path) -> None:
    target = tmp_path / "copies" / "backup.sqlite3"
    result = run_cli("backup", str(target), db=backend.url)
    if backend.is_postgres:
        assert result.returncode == 1 and "pg_dump" in result.stderr
        with pytest.raises(StorageError):
            transfer.backup(ev.db, target)
        return
    assert result.returncode == 0, result.stderr
    copy = Database(str(target))
    try:
        assert integrity.verify(copy).ok
        assert snapshot(copy, ev.id) == snapshot(ev.db, ev.id)
    finally:
        copy.close()
    again = run_cli("backup", str(target), db=backend.url)
    assert again.returncode == 1 and "already exists" in again.stderr


def test_a_backup_taken_while_another_process_writes_is_consistent(
    tmp_path: Path, recorders: Callable[..., Recorder]
) -> None:
    """SQLite only: backup copies SQLite files (PostgreSQL has pg_dump)."""
    path = tmp_path / "live.sqlite3"
    db = Database(str(path))
    ev = make_event(db, players=6)
    judge = recorders(f"sqlite:///{path}", ev.id, "live", 0, 7, ev.players)
    judge.wait_ready()
    judge.go()
    judge.wait_saved(5)  # the writer is under way
    copies = []
    try:
        for n in range(3):
            before = _count(db, ev.id)
            target = tmp_path / f"live-{n}.sqlite3"
            result = run_shinpan("backup", str(target), db=str(path))
            assert result.returncode == 0, result.stderr
            copies.append((target, before))
        assert judge.proc.poll() is None, "the writer stopped while the backups were taken"
    finally:
        judge.kill()
    saved = judge.finish(30)
    assert len(saved) > 0
    for target, before in copies:
        assert _rulings_in(target) >= before  # every ruling saved before the backup began
        check = run_cli("verify", db=str(target))
        assert check.returncode == 0, check.stdout
    assert _rulings_in(copies[-1][0]) > 0
    db.close()


def _count(db: Database, event_id: int) -> int:
    with db.read() as conn:
        return int(
            Statement("SELECT count(*) FROM rulings WHERE event_id = :e").scalar(conn, {"e": event_id})
        )
