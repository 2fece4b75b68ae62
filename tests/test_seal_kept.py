"""The printed head proves the whole chain up to it, and the installation remembers its seals.

``shinpan verify --head`` answers 一致 only when every entry from the first to the printed
one, hashed again from what it stores, ends in the printed head: a player's name changed in
the database file under the stored hashes is named, entry and all. Plain ``verify`` finds
in the ledger every seal this installation made (kept beside its key): a ledger cut back
past a seal, or a seal taken out, with the projections rebuilt so that the rest is whole,
is named too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Backend, EventSetup, make_event, run_cli
from shinpan.ledger_head import parse_head
from shinpan.services import integrity, seal
from shinpan.services.heads import read_head
from shinpan.store.db import Database
from test_tamper import by_hand


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """shinpan's data folder for this test: where a PostgreSQL installation keeps its key
    and its seals."""
    folder = tmp_path / "home"
    monkeypatch.setenv("SHINPAN_HOME", str(folder))
    monkeypatch.setenv("COLUMNS", "400")
    return folder


@pytest.fixture
def ev(db: Database) -> EventSetup:
    setup = make_event(db, players=4)
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P003", "pregame.tardiness")
    return setup


def head_now(ev: EventSetup) -> str:
    with ev.db.read() as conn:
        return read_head(conn, ev.id).short


def entry_of_kind(backend: Backend, ev: EventSetup, kind: str) -> int:
    with by_hand(backend) as sql:
        ((seq,),) = sql("SELECT MIN(seq) FROM entries WHERE event_id = ? AND kind = ?", ev.id, kind)
    return int(seq)


def test_a_name_changed_under_the_stored_hashes_is_named_by_the_printed_head(
    ev: EventSetup, backend: Backend
) -> None:
    head = head_now(ev)
    assert run_cli("verify", "--head", head, db=backend.url).returncode == 0
    target = entry_of_kind(backend, ev, "players.imported")
    with by_hand(backend) as sql:  # the body and the table: every stored hash as it was
        ((body,),) = sql("SELECT body FROM entries WHERE event_id = ? AND seq = ?", ev.id, target)
        assert "選手 1" in body
        sql(
            "UPDATE entries SET body = ? WHERE event_id = ? AND seq = ?",
            body.replace("選手 1", "偽名"),
            ev.id,
            target,
        )
        sql("UPDATE players SET name = '偽名' WHERE event_id = ? AND number = 'P001'", ev.id)
        assert sql("SELECT name FROM players WHERE event_id = ? AND number = 'P001'", ev.id) == [("偽名",)]

    caught = run_cli("verify", "--head", head, db=backend.url)
    assert caught.returncode == 1, caught.stdout
    n = parse_head(head).position
    assert caught.stdout.startswith(f"不一致: 大会 {ev.id} の第{target}項の内容が書き換えられています"), (
        caught.stdout
    )
    assert f"第1〜{n}項を内容から計算し直すと" in caught.stdout
    english = json.loads(run_cli("verify", "--head", head, "--lang", "en", "--json", db=backend.url).stdout)
    assert english["state"] == "not_held" and english["holds"] is False
    assert f"event {ev.id}'s entry {target} was altered" in english["message"]
    assert f"the first that differs is entry {target}" in english["message"]


def test_an_entry_taken_out_below_the_printed_head_is_named(ev: EventSetup, backend: Backend) -> None:
    head = head_now(ev)
    target = entry_of_kind(backend, ev, "players.imported")
    with by_hand(backend) as sql:
        sql("DELETE FROM entries WHERE event_id = ? AND seq = ?", ev.id, target)
    caught = run_cli("verify", "--head", head, db=backend.url)
    assert caught.returncode == 1
    assert f"不一致: 大会 {ev.id} の第{target}項が削除されています" in caught.stdout, caught.stdout


def test_a_head_before_a_later_change_still_holds(ev: EventSetup, backend: Backend) -> None:
    """A change after the printed entry is not the printout's business: its head holds."""
    head = head_now(ev)
    ev.record("P002", "ingame.slow-play")
    last = entry_of_kind(backend, ev, "ruling.recorded")  # the first ruling, before the head
    assert last < parse_head(head).position
    with by_hand(backend) as sql:
        ((top,),) = sql("SELECT MAX(seq) FROM entries WHERE event_id = ?", ev.id)
        sql("UPDATE entries SET actor = 'someone' WHERE event_id = ? AND seq = ?", ev.id, top)
    assert run_cli("verify", "--head", head, db=backend.url).returncode == 0
    assert run_cli("verify", db=backend.url).returncode == 1  # the chain itself is broken after it


def seal_it(ev: EventSetup, backend: Backend) -> int:
    done = run_cli("event", "seal", "--event", str(ev.id), "--yes", "--json", db=backend.url)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["seq"])


def kept_file(ev: EventSetup) -> Path:
    return seal.key_dir(ev.db) / seal.SEALS_FILE


def test_the_installation_keeps_its_seals_beside_its_key(
    ev: EventSetup, backend: Backend, home: Path
) -> None:
    seq = seal_it(ev, backend)
    folder = home if backend.is_postgres else Path(str(backend.path)).parent
    assert kept_file(ev) == folder / seal.SEALS_FILE
    (kept,) = seal.kept_seals(ev.db)
    assert (kept.event_id, kept.entry, kept.position) == (ev.id, seq, seq - 1)
    assert integrity.verify(ev.db).ok
    checked = run_cli("verify", db=backend.url)
    assert checked.returncode == 0 and f"大会 {ev.id} は第{seq - 1}項で封印済み" in checked.stdout


def test_a_ledger_cut_back_past_a_seal_is_named(ev: EventSetup, backend: Backend) -> None:
    seq = seal_it(ev, backend)
    first_ruling = entry_of_kind(backend, ev, "ruling.recorded")
    with by_hand(backend) as sql:  # the seal and the entries before it back to the first ruling
        sql("DELETE FROM entries WHERE event_id = ? AND seq >= ?", ev.id, first_ruling)
    assert run_cli("rebuild", db=backend.url).returncode == 0
    result = integrity.verify(ev.db)
    assert not result.breaks and not result.differences  # what is left is whole
    assert [(p.seq, p.problem) for p in result.seals] == [(seq, "missing")]
    out = run_cli("verify", db=backend.url)
    assert out.returncode == 1
    assert f"SEAL 大会 {ev.id} の封印(第{seq}項)が台帳にありません" in out.stdout, out.stdout
    en = run_cli("verify", "--lang", "en", "--json", db=backend.url)
    said = json.loads(en.stdout)
    assert en.returncode == 1 and not said["ok"]
    assert said["seals"] == [
        f"event {ev.id}, seal at entry {seq}: MISSING from the ledger: this installation made it, "
        "and the ledger was cut back past it or the seal's entry was taken out"
    ]


def test_a_seal_taken_out_is_named(ev: EventSetup, backend: Backend) -> None:
    """The seal entry alone deleted: the chain's walk names the gap, the kept seal the seal."""
    seq = seal_it(ev, backend)
    with by_hand(backend) as sql:
        sql("DELETE FROM entries WHERE event_id = ? AND seq = ?", ev.id, seq)
    result = integrity.verify(ev.db)
    assert [(p.seq, p.problem) for p in result.seals] == [(seq, "missing")]
    out = run_cli("verify", "--event", str(ev.id), db=backend.url)
    assert out.returncode == 1 and f"封印(第{seq}項)が台帳にありません" in out.stdout


def test_a_seal_of_an_event_another_database_holds_is_not_this_ones(
    ev: EventSetup, backend: Backend, tmp_path: Path
) -> None:
    """Two databases may share the folder (SQLite files side by side, or PostgreSQL's data
    folder): a seal is looked for in the database that has its event."""
    seal_it(ev, backend)
    other = make_event(ev.db, players=2)  # another event of the same database, never sealed
    assert integrity.verify(ev.db, other.id).ok
    assert integrity.verify(ev.db).ok


def test_the_readme_says_what_the_head_judge_gets() -> None:
    """The README's words to the head judge are the program's: its commands exist, its file
    is the one the seals are kept in, its refusal is the one a sealed event gives."""
    from shinpan.web.i18n import catalog

    readme = " ".join((Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8").split())
    assert "`shinpan verify --head 3-128-K7QM-2XPA-V9DN-HT4C` answers 一致 (exit 0) only" in readme
    assert "naming the first entry that differs" in readme
    assert f"`{seal.SEALS_FILE}` beside its key" in readme
    for command in ("shinpan event reopen --event E --reason", "shinpan event seal --event E"):
        assert f"`{command}" in readme
        words = command.split()[1:3]
        assert run_cli(*words, "--help").returncode == 0
    template = (
        "this event is sealed ({who} sealed it at {when}): to record anything, the head judge must reopen it"
    )
    said = catalog("ja")[template].replace("{when}", "…").replace("{who}", "…")
    assert f"「{said}」" in readme
