"""An export is imported by deciding it again, and an import gives nobody a seat.

A forger who edits a ruling in an export can recompute every hash and the head: the chain
then holds, so the import runs every command of the file again through the services and
refuses the file at the first entry that is not what shinpan decides, naming it. An account
named in the file (by its uid, which any export shows) gets no seat: seats go to the accounts
the person importing names, or wait for their claim codes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import FLOOR_JUDGE, HEAD_JUDGE, Backend, EventSetup, make_event, new_backend, run_cli
from fixtures.make_event_export import build
from shinpan.engine.event_rules import Role
from shinpan.entries import KINDS
from shinpan.errors import InvalidInput, NotFound
from shinpan.files import reimport, transfer
from shinpan.services import accounts, integrity, queries
from shinpan.store.chain import canonical, entry_hash
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot
from shinpan.views.events import list_events

SLOW = "ingame.slow-play"


def rehashed(data: dict[str, Any]) -> dict[str, Any]:
    """What a forger does after editing: every hash of the chain and the head made again,
    with shinpan's own hashing."""
    prev = "0" * 64
    for item in data["entries"]:
        item["prev_hash"] = prev
        item["hash"] = prev = entry_hash(
            seq=item["seq"],
            kind=item["kind"],
            command_id=item["command_id"],
            command_hash=item["command_hash"],
            actor=item["actor"],
            recorded_at=item["recorded_at"],
            refs=canonical(item["refs"]),
            body=canonical(item["body"]),
            prev_hash=prev,
        )
    data["head"] = prev
    return data


def exported(ev: EventSetup, path: Path, url: str) -> dict[str, Any]:
    out = run_cli("export", "--event", str(ev.id), "-o", str(path), db=url)
    assert out.returncode == 0, out.stderr
    return dict(json.loads(path.read_text(encoding="utf-8")))


def written(data: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def nothing_imported(db: Database) -> None:
    assert list_events(db) == []
    with db.read() as conn:
        assert Statement("SELECT count(*) FROM entries").scalar(conn) == 0
        assert Statement("SELECT count(*) FROM rulings").scalar(conn) == 0


def first_slow_play(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The entry recording P002's first slow play, and its ruling: offence 1, warning1."""
    for n, item in enumerate(data["entries"], start=1):
        if item["kind"] == "ruling.recorded" and item["body"].get("record", {}).get("infraction") == SLOW:
            ruling = item["body"]["rulings"][0]
            assert (ruling["offense"], ruling["penalties"]) == (1, ["warning1"])
            return n, ruling
    raise AssertionError("no slow play recorded")


def test_every_kind_of_entry_is_decided_again_by_a_command_or_follows_from_one() -> None:
    """A new kind of entry is refused by every import until it says which command replays it."""
    replayed = {kind.kind for kind in reimport.COMMANDS}
    assert replayed | reimport.FOLLOWS_ONLY == set(KINDS)
    assert not replayed & reimport.FOLLOWS_ONLY


# -- forged rulings ---------------------------------------------------------------------------


@pytest.fixture
def slow(db: Database) -> EventSetup:
    """A small event whose P002 gets a first slow-play warning; other rulings after it."""
    setup = make_event(db, players=6)
    setup.record("P001", "pregame.tardiness")
    setup.record("P002", SLOW)
    setup.record("P003", "ingame.extra-cards-drawn")
    return setup


def forge_penalty(ruling: dict[str, Any]) -> str:
    ruling["penalties"] = ["disqualification"]
    return "rulings[0].penalties[0]"


def forge_offence(ruling: dict[str, Any]) -> str:
    ruling["offense"] = 3
    return "rulings[0].offense"


@pytest.mark.parametrize("forge", [forge_penalty, forge_offence], ids=["penalty", "offence"])
def test_a_forged_ruling_with_every_hash_recomputed_is_refused_naming_the_entry_and_the_field(
    slow: EventSetup, backend: Backend, other_backend: Backend, tmp_path: Path, forge: Callable[..., str]
) -> None:
    data = exported(slow, tmp_path / "event.json", backend.url)
    n, ruling = first_slow_play(data)
    field = forge(ruling)
    path = written(rehashed(data), tmp_path / "forged.json")
    refused = run_cli("import", str(path), db=other_backend.url)
    message = refused.stderr.strip()
    assert refused.returncode == 1 and message.startswith("error: ") and len(message.splitlines()) == 1
    assert f"{n}番目の記録 (ruling.recorded) の {field}" in message  # Japanese first
    assert f"entry {n} (ruling.recorded) differs in {field}" in message  # then English
    other = Database(other_backend.url)
    try:
        nothing_imported(other)
    finally:
        other.close()


def test_the_forged_file_is_refused_by_the_service_too_and_the_honest_one_imports(
    slow: EventSetup, other_backend: Backend
) -> None:
    honest = transfer.export_event(slow.db, slow.id)
    forged = json.loads(json.dumps(honest))
    n, ruling = first_slow_play(forged)
    forge_penalty(ruling)
    other = Database(other_backend.url)
    try:
        with pytest.raises(InvalidInput, match=rf"entry {n} \(ruling.recorded\)"):
            transfer.import_event(other, rehashed(forged))
        nothing_imported(other)
        event_id = transfer.import_event(other, honest).event_id
        history = queries.player_history(other, event_id, "P002")
        assert [r["penalties"] for r in history["rulings"]] == [["warning1"]]
        assert integrity.verify(other).ok
    finally:
        other.close()


def test_a_forged_effect_and_a_removed_one_are_refused(slow: EventSetup, other_backend: Backend) -> None:
    """A disqualification's status change kept while its ruling is voided; a ruling's entry
    claimed by nobody: each is an entry no command writes there."""
    slow.record("P005", "severe.cheating")
    honest = transfer.export_event(slow.db, slow.id)
    other = Database(other_backend.url)
    try:
        made_up = json.loads(json.dumps(honest))
        last = made_up["entries"][-1]
        made_up["entries"].append(
            {
                **last,
                "seq": last["seq"] + 1,
                "kind": "player.status",
                "command_id": None,
                "command_hash": None,
                "body": {"player": "P004", "status": "disqualified", "cause_ruling": 1},
                "refs": [],
            }
        )
        with pytest.raises(InvalidInput, match=rf"entry {last['seq'] + 1} \(player.status\)"):
            transfer.import_event(other, rehashed(made_up))
        nothing_imported(other)
    finally:
        other.close()


def test_a_command_given_twice_is_refused(slow: EventSetup, other_backend: Backend) -> None:
    """The same command id a second time: the service answers with the first, and writes nothing."""
    data = transfer.export_event(slow.db, slow.id)
    n, _ = first_slow_play(data)
    again = {**data["entries"][n - 1], "seq": len(data["entries"]) + 1}
    data["entries"].append(json.loads(json.dumps(again)))
    other = Database(other_backend.url)
    try:
        with pytest.raises(
            InvalidInput, match=rf"entry {again['seq']} \(ruling.recorded\).*command id was used"
        ):
            transfer.import_event(other, rehashed(data))
        nothing_imported(other)
    finally:
        other.close()


# -- every honest export imports, into either database ----------------------------------------


def test_an_event_with_every_kind_of_entry_imports_decided_again_into_sqlite_and_postgresql(
    db: Database, backend: Backend, tmp_path: Path
) -> None:
    """The demo event, then seats, Swiss pairing, an edited pairing, time given, results,
    drops, a disqualification, statements, appeals, deviations and voids: exported from one
    database and imported into a SQLite and a PostgreSQL one, entry for entry."""
    source = build(db)
    data = transfer.export_event(db, source)
    count = len(data["entries"])
    for kind in ("sqlite", "postgres"):
        maker = new_backend(kind, tmp_path / kind)
        target = next(maker)
        other = Database(target.url)
        try:
            imported = transfer.import_event(other, json.loads(json.dumps(data)))
            again = transfer.export_event(other, imported.event_id)
            assert again["entries"][:count] == data["entries"], (backend.name, kind)
            assert {e["kind"] for e in again["entries"][count:]} <= {"judge.seated", "event.imported"}
            with other.read() as conn:
                theirs = snapshot(conn, imported.event_id)
            with db.read() as conn:
                ours = snapshot(conn, source)
            assert {k: v for k, v in theirs.items() if k != "judges"} == {
                k: v for k, v in ours.items() if k != "judges"
            }
            assert integrity.verify(other).ok
        finally:
            other.close()
            maker.close()


def test_an_imported_event_exports_and_imports_again(
    slow: EventSetup, other_backend: Backend, tmp_path: Path
) -> None:
    """An import's own entries (the seats it left to claim codes, a seat claimed since)
    are decided again like any other."""
    other = Database(other_backend.url)
    try:
        first = transfer.import_event(other, transfer.export_event(slow.db, slow.id))
        accounts.join(other, first.claim_codes[FLOOR_JUDGE], "floor", "pin-1234")
        data = transfer.export_event(other, first.event_id)
        assert [e["kind"] for e in data["entries"][-1:]] == ["judge.claimed"]
        maker = new_backend("sqlite", tmp_path / "third")
        third = Database(next(maker).url)
        try:
            again = transfer.import_event(third, data)
            assert set(again.claim_codes) == {HEAD_JUDGE, FLOOR_JUDGE}
            assert integrity.verify(third).ok
        finally:
            third.close()
            maker.close()
    finally:
        other.close()


# -- imports grant nothing ----------------------------------------------------------------------


def test_an_import_naming_an_existing_accounts_uid_gives_that_account_no_seat(
    slow: EventSetup, backend: Backend, other_backend: Backend, tmp_path: Path
) -> None:
    other = Database(other_backend.url)
    try:
        mallory = accounts.add_user(other, "mallory", "pin-1234", level=3)
        data = exported(slow, tmp_path / "event.json", backend.url)
        data["entries"][0]["body"]["head_judge"]["account"] = mallory.uid
        last = data["entries"][-1]
        data["entries"].append(
            {
                **last,
                "seq": last["seq"] + 1,
                "kind": "judge.added",
                "refs": [],
                "command_id": "c" * 32,
                "command_hash": "d" * 64,
                "actor": HEAD_JUDGE,
                "body": {"name": "M", "level": 1, "role": "floor_judge", "account": mallory.uid},
            }
        )
        path = written(rehashed(data), tmp_path / "named.json")
        out = run_cli("import", str(path), "--json", db=other_backend.url)
        assert out.returncode == 0, out.stderr
        answer = json.loads(out.stdout)
        assert set(answer["claim_codes"]) == {HEAD_JUDGE, FLOOR_JUDGE, "M"}
        assert accounts.events_of(other, mallory) == []
        with other.read() as conn:
            held = Statement("SELECT count(*) FROM judges WHERE account IS NOT NULL").scalar(conn)
        assert held == 0
        assert integrity.verify(other).ok  # the seats' release is in the ledger: a rebuild keeps it
        integrity.rebuild(other)
        assert accounts.events_of(other, mallory) == []
    finally:
        other.close()


def test_map_account_binds_a_seat_and_a_claim_code_claims_another(
    slow: EventSetup, backend: Backend, other_backend: Backend, tmp_path: Path
) -> None:
    path = tmp_path / "event.json"
    exported(slow, path, backend.url)
    other = Database(other_backend.url)
    try:
        alice = accounts.add_user(other, "alice", "pin-1234", level=2)
        for wrong, said in (
            (f"{HEAD_JUDGE}=ghost", "no account named ghost"),
            ("Nobody=alice", "no judge's seat named Nobody"),
            (HEAD_JUDGE, "SEAT=ACCOUNT"),
        ):
            refused = run_cli("import", str(path), "--map-account", wrong, db=other_backend.url)
            assert refused.returncode != 0 and said in refused.stderr, refused.stderr
            nothing_imported(other)
        out = run_cli("import", str(path), "--map-account", f"{HEAD_JUDGE}=alice", db=other_backend.url)
        assert out.returncode == 0, out.stderr
        assert f"imported as event {slow.id}" in out.stdout
        assert f"claim code for {FLOOR_JUDGE}'s seat" in out.stdout and HEAD_JUDGE + "'s" not in out.stdout
        assert accounts.events_of(other, alice) == [(slow.id, Role.head_judge)]
        code = out.stdout.split(f"claim code for {FLOOR_JUDGE}'s seat (shown once; valid 7 days): ")[
            1
        ].split()[0]
        bob = accounts.join(other, code, "bob", "pin-5678")
        assert accounts.events_of(other, bob) == [(slow.id, Role.floor_judge)]
        with pytest.raises(NotFound):
            accounts.join(other, code, "carol", "pin-9012")  # a claim code claims once
        assert integrity.verify(other).ok
    finally:
        other.close()
