"""The ledger commands of ``shinpan`` with ``--db URL``, stdin not a terminal. Errors are
one clear line and exit 1, never a traceback. On SQLite and on PostgreSQL.

Most commands run in this process (:func:`run_cli`, fast); those where the process itself
matters (what it prints, its exit status, the environment, no terminal) run as a new
process (:func:`run_shinpan`). ``ev`` (conftest) is an event of 8 players, round 1 paired,
made through the services."""

from __future__ import annotations

import codecs
import json
import os
import random
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import SHINPAN, EventSetup, make_event, run_cli, run_shinpan
from shinpan.services import corrections, events, queries
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.schema import players, rulings

PLAYERS_CSV = "番号,名前,フリガナ,所属\n101,山田 太郎,やまだ たろう,秋葉原店\n102,髙橋 ①子,たかはし いちこ,\n103,佐藤 花子,さとう はなこ,梅田店\n104,田中 一郎,たなか いちろう,\n"
PAIRINGS_CSV = "卓番号,プレイヤーA,プレイヤーB\n1,101,102\n2,103,104\n"


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, (
        f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    assert "Traceback" not in result.stderr
    return result.stdout


def refused(result: subprocess.CompletedProcess[str], *words: str, lines: int | None = 1) -> str:
    """Exit 1 with a clear message (one line unless said otherwise) naming ``words``; no traceback."""
    out = result.stdout + result.stderr
    assert result.returncode == 1, f"exit {result.returncode}\n{out}"
    assert "Traceback" not in out and "╭" not in out, out
    message = result.stderr.strip()
    assert message.startswith("error: "), out
    if lines is not None:
        assert len(message.splitlines()) == lines, message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def count(db: Database, table: Any) -> int:
    with db.read() as conn:
        return int(Statement(f"SELECT count(*) FROM {table.name}").scalar(conn) or 0)


# -- events -----------------------------------------------------------------------------------


def test_event_create_prints_the_new_id_and_event_list_shows_it(db_url: str) -> None:
    out = ok(
        run_shinpan(
            "event",
            "create",
            "--name",
            "関東地区大会",
            "--date",
            "2024-06-01",
            "--rel",
            "3",
            "--head-judge",
            "鈴木",
            "--head-judge-level",
            "2",
            db=db_url,
        )
    )
    first, *claim = out.strip().splitlines()
    assert first == "1"
    assert claim and "claim code for 鈴木's seat" in claim[0]  # no account named: the seat waits for it
    second = ok(
        run_shinpan(
            "event",
            "create",
            "--name",
            "二日目",
            "--head-judge",
            "鈴木",
            "--head-judge-level",
            "3",
            db=db_url,
        )
    )
    assert second.splitlines()[0] == "2"
    listed = json.loads(ok(run_shinpan("event", "list", "--json", db=db_url)))
    assert [(e["id"], e["name"], e["starts_on"], e["rel"], e["head_judge"]) for e in listed] == [
        (1, "関東地区大会", "2024-06-01", 3, "鈴木"),
        (2, "二日目", None, 3, "鈴木"),
    ]
    table = ok(run_shinpan("event", "list", db=db_url))
    assert "関東地区大会" in table and "鈴木" in table


def test_event_create_refuses_rel3_without_a_level_2_head_judge(db_url: str) -> None:
    refused(run_cli("event", "create", "--name", "E", "--head-judge", "H", db=db_url), "level 2")
    refused(
        run_cli("event", "create", "--name", "E", "--head-judge", "H", "--head-judge-level", "1", db=db_url),
        "level 1",
        "level 2",
    )
    assert json.loads(ok(run_cli("event", "list", "--json", db=db_url))) == []


# -- CSV imports ----------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932"], ids=["utf8", "utf8-bom", "shift_jis"])
def test_players_import_reads_utf8_with_or_without_bom_and_shift_jis(
    db: Database, db_url: str, tmp_path: Path, encoding: str
) -> None:
    setup = make_event(db, players=0, pair=False)
    path = tmp_path / "players.csv"
    path.write_bytes(PLAYERS_CSV.replace("\n", "\r\n").encode(encoding))
    if encoding == "utf-8-sig":
        assert path.read_bytes().startswith(codecs.BOM_UTF8)
    out = ok(run_cli("players", "import", "--event", str(setup.id), str(path), "--json", db=db_url))
    assert json.loads(out) == {"imported": 4}
    history = queries.player_history(db, setup.id, "102")
    assert history["player"]["name"] == "髙橋 ①子"
    assert history["player"]["reading"] == "たかはし いちこ"
    assert queries.player_history(db, setup.id, "101")["player"]["club"] == "秋葉原店"
    pairings = tmp_path / "round1.csv"
    pairings.write_bytes(PAIRINGS_CSV.encode(encoding))
    ok(run_cli("pairings", "import", "--event", str(setup.id), "--round", "1", str(pairings), db=db_url))
    assert [
        (m["table"], m["player_a"], m["player_b"]) for m in queries.round_matches(db, setup.id, 1)["matches"]
    ] == [
        (1, "101", "102"),
        (2, "103", "104"),
    ]


def _bad_player_files() -> dict[str, tuple[bytes, str]]:
    rng = random.Random(1998)
    garbage = rng.randbytes(10 * 1024 * 1024)
    alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789,,,,"  \n山田佐藤髙①'
    text = "番号,名前\n" + "".join(rng.choices(alphabet, k=4 * 1024 * 1024))  # ~10 MB in UTF-8
    full = '番号,名前,フリガナ\n1,山田,やまだ\n2,"佐藤,さとう\n3,田中,たなか\n'
    return {
        "wrong-columns": ("背番号,名前,得点\n1,山田,3\n".encode(), "背番号"),
        "duplicate-ids": ("番号,名前\n1,山田\n2,佐藤\n1,田中\n".encode(), "already appears on line 2"),
        "empty-name": ("番号,名前\n1,山田\n2,\n3,田中\n".encode(), "empty"),
        "truncated": (full.encode()[: full.encode().index("3,田中".encode())], "never closed"),
        "garbage-10MB": (garbage, "not a text CSV"),
        "text-garbage-10MB": (text.encode(), "line 2: "),
    }


def test_bad_player_files_are_reported_and_import_nothing(db: Database, db_url: str, tmp_path: Path) -> None:
    setup = make_event(db, players=0, pair=False)
    for name, (data, expected) in _bad_player_files().items():
        path = tmp_path / f"{name}.csv"
        path.write_bytes(data)
        started = time.monotonic()
        result = run_cli("players", "import", "--event", str(setup.id), str(path), db=db_url)
        assert time.monotonic() - started < 20, f"{name}: too slow to refuse"
        message = refused(result, "nothing imported", expected, lines=None)
        assert len(message) < 10_000, f"{name}: the report is {len(message)} characters"
        assert count(db, players) == 0, name


def test_pairings_of_unknown_or_removed_players_are_refused(
    ev: EventSetup, db_url: str, tmp_path: Path
) -> None:
    events.end_round(ev.db, ev.id, 1)
    path = tmp_path / "r2.csv"
    path.write_text("table,player a,player b\n1,P001,X404\n", encoding="utf-8")
    refused(
        run_cli("pairings", "import", "--event", str(ev.id), "--round", "2", str(path), db=db_url),
        "not registered",
        "X404",
    )
    cheated = ev.record("P001", "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [cheated])  # D17: the disqualification takes effect now
    path.write_text("table,player a,player b\n1,P001,P002\n", encoding="utf-8")
    refused(
        run_cli("pairings", "import", "--event", str(ev.id), "--round", "2", str(path), db=db_url),
        "失格で大会から外れているため、組み合わせできません: P001 / ",
        "disqualified, and cannot be paired: P001",
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("table,player a,player b\n1,P001,P001\n", encoding="utf-8")
    refused(
        run_cli("pairings", "import", "--event", str(ev.id), "--round", "2", str(bad), db=db_url),
        "nothing imported",
        lines=None,
    )
    assert queries.round_matches(ev.db, ev.id, 2)["matches"] == []


# -- recording and the head judge's commands ------------------------------------------------


def test_record_without_yes_and_without_a_terminal_shows_the_ruling_and_saves_nothing(
    ev: EventSetup, db_url: str
) -> None:
    result = run_shinpan(
        "record", "--event", str(ev.id), "--player", "P001", "ingame.slow-play", "--lang", "en", db=db_url
    )
    refused(result, "not saved", "--yes")
    assert "Single Warning" in result.stdout  # the preview was shown
    assert count(ev.db, rulings) == 0


def test_record_with_yes_saves_and_a_retry_with_the_command_id_does_not_save_twice(
    ev: EventSetup, db_url: str
) -> None:
    args = [
        "record",
        "--event",
        str(ev.id),
        "--player",
        "P001",
        "ingame.extra-cards-drawn",
        "--fact",
        "intentional=false",
        "--judge",
        "FJ",
        "--yes",
        "--json",
        "--command-id",
        "cli-1",
    ]
    first = json.loads(ok(run_cli(*args, db=db_url)))
    assert first["replayed"] is False
    (r,) = first["rulings"]
    assert (r["number"], r["player"], r["rule"], r["offense"], r["penalties"]) == (
        1,
        "P001",
        "ingame.extra-cards-drawn",
        1,
        ["warning1"],
    )
    again = json.loads(ok(run_cli(*args, db=db_url)))
    assert again["replayed"] is True and again["entry"] == first["entry"]
    assert count(ev.db, rulings) == 1
    other = [a if a != "P001" else "P002" for a in args]
    refused(run_cli(*other, db=db_url), "cli-1", "already used")
    human = ok(
        run_cli(
            "record",
            "--event",
            str(ev.id),
            "--player",
            "P001",
            "ingame.extra-cards-drawn",
            "--yes",
            "--lang",
            "en",
            db=db_url,
        )
    )
    assert "saved: ruling #2" in human
    saved = queries.get_ruling(ev.db, ev.id, 2)
    assert (saved["offense"], saved["penalties"], saved["judge"]) == (2, ["warning1", "duel_loss"], "HJ")


def test_confirm_void_deviate_and_history(ev: EventSetup, db_url: str) -> None:
    e = str(ev.id)
    for _ in range(2):
        ok(
            run_cli(
                "record", "--event", e, "--player", "P001", "ingame.extra-cards-drawn", "--yes", db=db_url
            )
        )
    ok(run_cli("record", "--event", e, "--player", "P003", "pregame.tardiness", "--yes", db=db_url))
    assert json.loads(ok(run_cli("confirm", "1", "--event", e, "--json", db=db_url))) == {"confirmed": [1]}
    refused(run_cli("confirm", "1", "--event", e, db=db_url), "not waiting")
    refused(run_cli("confirm", "2", "--event", e, "--judge", "FJ", db=db_url), "FJ", "may not")
    deviated = json.loads(
        ok(
            run_cli(
                "deviate",
                "2",
                "--event",
                e,
                "--penalty",
                "notice",
                "--reason",
                "first event for the player",
                "--json",
                db=db_url,
            )
        )
    )
    assert deviated["penalties"] == ["notice"]
    refused(
        run_cli("deviate", "2", "--event", e, "--penalty", "notice", "--reason", " ", db=db_url), "reason"
    )
    assert json.loads(
        ok(run_cli("void", "3", "--event", e, "--reason", "arrived on time", "--json", db=db_url))
    ) == {"voided": [3]}
    refused(run_cli("void", "3", "--event", e, "--reason", "again", db=db_url), "already voided")
    history = json.loads(ok(run_cli("history", "--event", e, "--player", "P001", "--json", db=db_url)))
    assert [(r["number"], r["penalties"], r["state"]) for r in history["rulings"]] == [
        (1, ["warning1"], "confirmed"),
        (2, ["notice"], "confirmed"),
    ]
    assert history["matches"][0]["duels"] == []  # the deviation took the duel loss back
    assert queries.player_history(ev.db, ev.id, "P003")["rulings"][0]["state"] == "voided"
    table = ok(run_cli("history", "--event", e, "--player", "P001", "--lang", "en", db=db_url))
    assert "選手 1" in table and "confirmed" in table


def test_deadlines_list_done_and_missed(ev: EventSetup, db_url: str) -> None:
    e = str(ev.id)
    ok(run_cli("record", "--event", e, "--player", "P001", "pregame.tardiness", "--yes", db=db_url))
    earlier = (datetime.now(UTC) - timedelta(minutes=20)).isoformat(timespec="seconds")  # D21
    ok(
        run_cli(
            "record",
            "--event",
            e,
            "--player",
            "P003",
            "pregame.tardiness",
            "--yes",
            "--given-at",
            earlier,
            db=db_url,
        )
    )
    listed = json.loads(ok(run_cli("deadlines", "--event", e, "--json", db=db_url)))
    assert sorted((d["ruling"], d["position"], d["due_kind"]) for d in listed) == [
        (1, 0, "minutes"),
        (1, 1, "end_of_match"),
        (2, 0, "minutes"),
        (2, 1, "end_of_match"),
    ]
    listing = ok(run_cli("deadlines", "--event", e, "--lang", "en", db=db_url))
    assert listing.count("overdue") == 1  # only P003's 10 minutes, which ran from 20 minutes ago (D21)
    refused(run_cli("deadlines", "--event", e, "missed", "1", db=db_url), "not due yet")  # D21
    ok(run_cli("deadlines", "--event", e, "done", "1", "--judge", "FJ", db=db_url))
    missed = json.loads(ok(run_cli("deadlines", "--event", e, "missed", "2", "--json", db=db_url)))
    (follow,) = missed["follow_up"]
    assert (follow["player"], follow["offense"], follow["follow_up"], follow["penalties"]) == (
        "P003",
        1,
        True,
        ["duel_loss"],
    )
    left = json.loads(ok(run_cli("deadlines", "--event", e, "--json", db=db_url)))
    assert [(d["ruling"], d["position"]) for d in left] == [(2, 1)]
    refused(run_cli("deadlines", "--event", e, "done", "1", db=db_url), "already done")
    refused(run_cli("deadlines", "--event", e, "later", "1", db=db_url), "使い方: shinpan deadlines", "usage")


def test_verify_and_rebuild(ev: EventSetup, db_url: str) -> None:
    ev.record("P001", "pregame.tardiness")
    out = ok(run_cli("verify", db=db_url))
    assert out.startswith("正常: 大会 1件、") and " / ok: 1 event(s)" in out and "every chain holds" in out
    report = json.loads(ok(run_cli("verify", "--json", "--event", str(ev.id), db=db_url)))
    assert report["ok"] is True and report["breaks"] == [] and report["differences"] == []
    assert (
        ok(run_cli("rebuild", "--check", db=db_url))
        == "表は台帳と一致しています / the tables match the ledger\n"
    )


# -- errors -------------------------------------------------------------------------------------


def test_errors_are_one_line_and_exit_1(ev: EventSetup, db_url: str, tmp_path: Path) -> None:
    e = str(ev.id)
    refused(
        run_cli("record", "--event", "99", "--player", "P001", "ingame.slow-play", "--yes", db=db_url),
        "no event 99",
    )
    refused(
        run_cli("record", "--event", e, "--player", "X1", "ingame.slow-play", "--yes", db=db_url),
        "no player X1",
    )
    refused(run_cli("record", "--event", e, "--player", "P001", "ingame.nonsense", "--yes", db=db_url))
    refused(
        run_cli(
            "record",
            "--event",
            e,
            "--player",
            "P001",
            "ingame.slow-play",
            "--fact",
            "oops",
            "--yes",
            db=db_url,
        ),
        "KEY=VALUE",
    )
    refused(run_cli("void", "42", "--event", e, "--reason", "x", db=db_url), "no ruling 42")
    refused(run_cli("history", "--event", e, "--player", "X1", db=db_url), "no player X1")
    refused(
        run_cli("players", "import", "--event", e, str(tmp_path / "missing.csv"), db=db_url), "cannot read"
    )
    # a real process: what a judge sees is one line, not a traceback
    refused(run_shinpan("event", "list", db="mysql://root@localhost/x"), "unsupported database")
    refused(run_shinpan("verify", db="postgresql://nobody@127.0.0.1:1/x?connect_timeout=2"), "cannot open")


TOO_BIG = "99999999999999999999"  # past SQLite's 64-bit integers and PostgreSQL's


def usage_error(result: subprocess.CompletedProcess[str], name: str) -> None:
    """Exit 2 with Click's one-line "Error: Invalid value for NAME" (after the usage); no traceback."""
    assert result.returncode == 2, f"exit {result.returncode}\n{result.stdout}{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"Error: Invalid value for '{name}'") and "2147483647" in last, last


def test_a_number_too_large_for_the_database_is_a_usage_error(ev: EventSetup, db_url: str) -> None:
    e, before = str(ev.id), count(ev.db, rulings)
    for args, name in (
        (["round", "end", "--event", TOO_BIG, "--round", "1"], "--event"),
        (["round", "end", "--event", e, "--round", TOO_BIG], "--round"),
        (["result", "--event", e, "--round", "1", "--table", TOO_BIG, "--match", "a"], "--table"),
        (
            ["record", "--event", e, "--player", "P001", "ingame.slow-play", "--table", TOO_BIG, "--yes"],
            "--table",
        ),
        (["confirm", TOO_BIG, "--event", e], "rulings"),
        (["void", TOO_BIG, "--event", e, "--reason", "x"], "ruling"),
        (["judge", "add", "--event", e, "--name", "J", "--level", TOO_BIG], "--level"),
        (["verify", "--event", TOO_BIG], "--event"),
        (["report", "penalties", "--event", TOO_BIG], "--event"),
    ):
        usage_error(run_cli(*args, db=db_url), name)
    refused(run_cli("deadlines", "--event", e, "done", TOO_BIG, db=db_url), "usage")
    assert count(ev.db, rulings) == before


def test_a_text_that_cannot_be_stored_is_one_line(db_url: str) -> None:
    # Bytes that are not UTF-8 on the command line reach Python as lone surrogates.
    done = run_shinpan(
        "event", "create", "--name", "大会\udcff", "--head-judge", "H", "--head-judge-level", "2", db=db_url
    )
    refused(done, "cannot be saved", "nothing was saved")
    assert json.loads(ok(run_shinpan("event", "list", "--json", db=db_url))) == []


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    text_file = tmp_path / "notes.txt"
    text_file.write_text("これはデータベースではありません\n" * 100, encoding="utf-8")
    refused(run_shinpan("event", "list", db=str(text_file)), "cannot open the database", "not a database")
    assert text_file.read_text(encoding="utf-8").startswith("これは")  # left as it was
    refused(
        run_cli("event", "list", db=str(text_file / "inside.sqlite3")), "cannot make the database's folder"
    )


def test_export_to_a_folder_that_does_not_exist_is_one_line(
    ev: EventSetup, db_url: str, tmp_path: Path
) -> None:
    target = tmp_path / "no" / "such" / "folder" / "e.json"
    refused(
        run_cli("export", "--event", str(ev.id), "-o", str(target), db=db_url), "cannot write", str(target)
    )
    assert not target.exists()


def test_import_of_json_no_export_can_be_is_one_line(ev: EventSetup, db_url: str, tmp_path: Path) -> None:
    exported = tmp_path / "e.json"
    ok(run_cli("export", "--event", str(ev.id), "-o", str(exported), db=db_url))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    surrogate = tmp_path / "surrogate.json"
    data = json.loads(exported.read_text(encoding="utf-8"))
    data["entries"][0]["actor"] = "HJ\udc80"
    surrogate.write_text(json.dumps(data), encoding="utf-8")  # ASCII JSON: written as \\udc80
    assert "\\udc80" in surrogate.read_text(encoding="utf-8")
    events_before = json.loads(ok(run_cli("event", "list", "--json", db=db_url)))
    refused(run_cli("import", str(deep), db=db_url), "cannot read", "nested too deeply")
    refused(run_cli("import", str(surrogate), db=db_url), "cannot read", "lone surrogate")
    assert json.loads(ok(run_cli("event", "list", "--json", db=db_url))) == events_before


def test_a_database_newer_than_shinpan_is_refused_by_every_command(db: Database, db_url: str) -> None:
    with db.write() as conn:
        Statement("UPDATE alembic_version SET version_num = '9999'").run(conn)
    for args in (["event", "list"], ["verify"], ["record", "--event", "1", "--player", "P", "x", "--yes"]):
        refused(run_cli(*args, db=db_url), "9999", "upgrade shinpan")


def test_the_database_can_come_from_the_environment(db_url: str) -> None:
    made = subprocess.run(
        [str(SHINPAN), "event", "create", "--name", "E", "--head-judge", "H", "--head-judge-level", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "SHINPAN_DATABASE_URL": db_url},
    )
    assert made.returncode == 0, made.stderr
    listed = json.loads(ok(run_shinpan("event", "list", "--json", db=db_url)))
    assert [e["name"] for e in listed] == ["E"]
