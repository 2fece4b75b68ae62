"""Input of any size or shape ends in a clear answer: every row imported, or a refusal that
changes nothing. Large imports on SQLite and PostgreSQL; uploads, request bodies, CSV
exports and the head judge's desk over HTTP (the app under Starlette's test client).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from conftest import Clock, player_rows
from shinpan.engine.event_rules import Role
from shinpan.errors import Conflict
from shinpan.files.csvio import MAX_BYTES, PairingRow, PlayerRow
from shinpan.reports.formats import inert
from shinpan.services import appeals, events, recording
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from web_support import ROLES, World, in_english, ledger_size, worlds

HJ = ROLES[0]

# SQLITE_MAX_VARIABLE_NUMBER as SQLite itself builds it (Debian raises it to 250,000):
# the tests hold the SQLite connection to it, so a query over-long for either backend fails.
SQLITE_DEFAULT_VARIABLES = 32766
PG_MAX_PARAMETERS = 65535
MANY = PG_MAX_PARAMETERS + 465  # 66,000 players: more than either backend binds at once


@pytest.fixture
def bounded_db(db: Database) -> Database:
    """The test's database; on SQLite, held to SQLite's default number of bound parameters."""
    if db.dialect == "sqlite":

        def _limit(dbapi_conn: Any) -> None:
            dbapi_conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_DEFAULT_VARIABLES)

        db.connect_hooks.append(_limit)
        db.close()  # connections made before the limit are not reused
    return db


def _player_count(db: Database, event_id: int) -> int:
    with db.read() as conn:
        return int(
            Statement("SELECT count(*) FROM players WHERE event_id = :e").scalar(conn, {"e": event_id})
        )


# -- 1. an import of any size -------------------------------------------------------------


def test_a_players_and_pairings_import_of_any_size_is_whole(bounded_db: Database, clock: Clock) -> None:
    db = bounded_db
    event_id = events.create_event(db, name="大規模大会", head_judge="HJ", head_judge_level=2, now=clock.now)
    rows = player_rows(MANY)
    assert events.import_players(db, event_id, rows, now=clock.now) == MANY
    assert _player_count(db, event_id) == MANY

    # A number registered already, last in the new list, is found and nothing is added.
    again = [*player_rows(3, prefix="NEW"), rows[-1]]
    with pytest.raises(Conflict, match=rows[-1].number):
        events.import_players(db, event_id, again, now=clock.now)
    assert _player_count(db, event_id) == MANY

    numbers = [r.number for r in rows]
    pairings = [PairingRow(t + 1, numbers[2 * t], numbers[2 * t + 1]) for t in range(MANY // 2)]
    assert events.import_pairings(db, event_id, 1, pairings, now=clock.now) == MANY // 2


# -- over HTTP: one world per database ------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=4)


def _padded_players_csv(numbers: list[str], size: int) -> bytes:
    """A players CSV of exactly ``size`` bytes: the header, blank lines (spaces), then the
    players, so a file cut short loses them."""
    head = "番号,名前,フリガナ\n".encode()
    rows = "".join(f"{n},選手 {n},せんしゅ\n" for n in numbers).encode()
    room = size - len(head) - len(rows)
    line = b" " * 99_999 + b"\n"  # under the csv module's field limit
    whole, rest = divmod(room, len(line))
    return head + line * whole + (b" " * (rest - 1) + b"\n" if rest else b"") + rows


def _upload_players(w: World, content: bytes) -> Any:
    return w.clients[HJ].post(
        f"/api/events/{w.event}/players",
        files={"file": ("players.csv", content, "text/csv")},
        data={"command_id": w.cid("upload")},
    )


def test_a_csv_at_the_limit_imports_every_row_and_one_byte_more_is_refused_whole(world: World) -> None:
    at_limit = [f"L{n}" for n in range(1, 4)]
    content = _padded_players_csv(at_limit, MAX_BYTES)
    assert len(content) == MAX_BYTES
    r = _upload_players(world, content)
    assert r.status_code == 200, r.text[:500]
    assert r.json() == {"imported": 3}
    for number in at_limit:
        assert world.clients[HJ].get(f"/api/events/{world.event}/players/{number}").status_code == 200

    before = ledger_size(world)
    over = [f"M{n}" for n in range(1, 4)]
    with in_english(world.clients[HJ]) as hj:
        r = hj.post(
            f"/api/events/{world.event}/players",
            files={"file": ("players.csv", _padded_players_csv(over, MAX_BYTES + 1), "text/csv")},
            data={"command_id": world.cid("upload")},
        )
    assert r.status_code == 413, r.text[:500]
    assert r.json()["field"] == "file" and "too large" in r.json()["detail"]
    assert f"the limit is {MAX_BYTES // 2**20} MB" in r.json()["detail"]
    assert ledger_size(world) == before
    assert world.clients[HJ].get(f"/api/events/{world.event}/players/M1").status_code == 404

    far_over = _padded_players_csv(over, MAX_BYTES + 2**20)  # refused before the route reads it
    r = _upload_players(world, far_over)
    assert r.status_code == 413, r.text[:500]
    assert f"{MAX_BYTES // 2**20} MB" in r.json()["detail"]
    assert ledger_size(world) == before


# -- 2. request bodies and the lists inside them -----------------------------------------------


def _record_body(w: World, **extra: Any) -> dict[str, Any]:
    return {"command_id": w.cid(), "player": w.players[0], "infraction": "ingame.slow-play", **extra}


def test_a_json_body_over_the_limit_is_refused_before_it_is_read(world: World) -> None:
    before = ledger_size(world)
    url = f"/api/events/{world.event}/rulings"
    huge = _record_body(world, note="x" * (30 * 2**20))  # 30 MB of JSON
    payload = json.dumps(huge).encode()
    with in_english(world.clients[HJ]) as hj:
        declared = hj.post(url, content=payload, headers={"content-type": "application/json"})
        streamed = hj.post(  # chunked: no Content-Length, the bytes are counted as they come
            url,
            content=(payload[i : i + 2**20] for i in range(0, len(payload), 2**20)),
            headers={"content-type": "application/json"},
        )
    assert "content-length" not in streamed.request.headers
    for r in (declared, streamed):
        assert r.status_code == 413, r.text[:300]
        assert "too large" in r.json()["detail"]
    assert ledger_size(world) == before
    r = world.clients[HJ].post(url, json=_record_body(world, note="短い"))
    assert r.status_code == 201, r.text  # the limit leaves ordinary requests alone


TOO_MANY = ["warning1"] * 21
Oversized = Callable[[World], tuple[str, dict[str, Any]]]


def _recording(**extra: Any) -> Oversized:
    return lambda w: (f"/api/events/{w.event}/rulings", _record_body(w, **extra))


def _deviating(w: World) -> tuple[str, dict[str, Any]]:
    number = w.record(w.players[1], "ingame.slow-play")
    body = {"command_id": w.cid(), "reason": "状況を考慮", "penalties": TOO_MANY}
    return f"/api/events/{w.event}/rulings/{number}/deviate", body


def _deciding_an_appeal(w: World) -> tuple[str, dict[str, Any]]:
    number = w.record(w.players[2], "ingame.slow-play")
    appeal = appeals.file_appeal(w.db, w.event, number, w.players[2], "納得できない", command_id=w.cid())
    body = {"command_id": w.cid(), "reason": "変更", "outcome": "changed", "penalties": TOO_MANY}
    return f"/api/events/{w.event}/appeals/{appeal}/decision", body


OVERSIZED: dict[str, Oversized] = {
    "21 penalties": _recording(penalties=TOO_MANY),
    "a 41-character penalty code": _recording(penalties=["w" * 41]),
    "11 facts": _recording(facts={f"q{i}": True for i in range(11)}),
    "a 41-character fact": _recording(facts={"q" * 41: True}),
    "21 penalties deviated to when recording": _recording(
        deviation={"penalties": TOO_MANY, "reason": "考慮"}
    ),
    "21 penalties deviated to later": _deviating,
    "21 penalties in an appeal decision": _deciding_an_appeal,
}


@pytest.mark.parametrize("shape", list(OVERSIZED))
def test_lists_inside_a_request_are_bounded(world: World, shape: str) -> None:
    url, body = OVERSIZED[shape](world)
    before = ledger_size(world)
    r = world.clients[HJ].post(url, json=body)
    assert r.status_code == 422, r.text
    assert {e["field"].split(".")[0] for e in r.json()["errors"]} <= {"penalties", "facts", "deviation"}
    assert ledger_size(world) == before


# -- 3. CSV files a spreadsheet opens --------------------------------------------------------

FORMULA = '=HYPERLINK("http://x","y")'


@pytest.mark.parametrize("cell", [FORMULA, "+81 90", "-", "-1", "@SUM(A1)", "\tA", "\rA"])
def test_a_cell_that_would_start_a_formula_is_made_text(cell: str) -> None:
    assert inert(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["", "山田 太郎", "warning1+match-loss", "12", "a=b", "'quoted"])
def test_other_cells_are_left_as_they_are(cell: str) -> None:
    assert inert(cell) == cell


def test_names_that_look_like_formulas_come_out_of_the_penalty_report_csv_as_text(world: World) -> None:
    names = {"X1": FORMULA, "X2": "-", "X3": "@SUM(A1)", "X4": "+81 90"}
    events.import_players(
        world.db,
        world.event,
        [PlayerRow(n, name, "", None) for n, name in names.items()],
        command_id=world.cid("formula"),
    )
    events.add_judge(world.db, world.event, name=FORMULA, level=1, role=Role.floor_judge)
    for number in names:
        recording.record(
            world.db,
            world.event,
            recording.RecordInput(player=number, infraction="ingame.slow-play"),
            judge=FORMULA,
            command_id=world.cid("formula"),
        )
    got = world.clients[HJ].get(f"/api/events/{world.event}/reports/penalties?format=csv&lang=both")
    assert got.status_code == 200, got.text
    header, *rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    column = {name.split(" / ")[1]: n for n, name in enumerate(header)}
    by_player = {row[column["player id"]]: row for row in rows}
    for number, name in names.items():
        row = by_player[number]
        assert row[column["player name"]] == "'" + name
        assert row[column["issued by"]] == "'" + FORMULA
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


# -- 4. the head judge's desk --------------------------------------------------------------------


def test_a_deadline_outcome_other_than_done_or_missed_is_refused_and_records_nothing(world: World) -> None:
    given_at = (datetime.now(UTC) - timedelta(minutes=30)).isoformat()  # its 10 minutes have run out
    number = world.record(world.players[3], "pregame.tardiness", given_at=given_at)
    desk = f"/events/{world.event}/desk/deadline/{number}/0"
    before = ledger_size(world)
    for outcome in ("dnoe", "Missed", "missed "):
        r = world.clients[HJ].post(f"{desk}/{outcome}", data={"command_id": world.cid()})
        assert r.status_code == 422, (outcome, r.status_code)
        assert ledger_size(world) == before
    assert world.rulings_of(world.players[3])[-1]["number"] == number  # no follow-up ruling
    r = world.clients[HJ].post(f"{desk}/missed", data={"command_id": world.cid()})
    assert r.status_code == 200, r.text
    assert world.rulings_of(world.players[3])[-1]["number"] > number  # the follow-up ruling (D7)
