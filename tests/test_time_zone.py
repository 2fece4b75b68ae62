"""Every time shown is in the event's time zone: an event setting, Asia/Tokyo by default
(on the desk, the player's and the ruling's pages, the reports and their CSV)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command

from conftest import HEAD_JUDGE, Backend, core_of, make_event, run_cli
from shinpan import reports
from shinpan.errors import InvalidInput
from shinpan.reports.formats import HEAD_COLUMNS
from shinpan.reports.penalties import csv_header
from shinpan.services import events, recording
from shinpan.services.context import load_event
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.migrate import _config
from shinpan.store.projector import search_key
from web_support import World, build_world, database_url, in_english

AT = datetime(2026, 7, 4, 23, 30, tzinfo=UTC)  # 08:30 on the 5th in Tokyo, 19:30 on the 4th in New York


def test_an_event_is_in_tokyo_unless_it_says_otherwise(db: Database) -> None:
    plain = make_event(db, players=0, pair=False)
    elsewhere = events.create_event(
        db, name="NY Open", head_judge=HEAD_JUDGE, head_judge_level=2, time_zone="America/New_York"
    )
    with db.read() as conn:
        assert load_event(conn, plain.id).time_zone == "Asia/Tokyo"
        assert load_event(conn, elsewhere).time_zone == "America/New_York"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "JST+9", " "])
def test_a_zone_that_is_not_one_is_refused(db: Database, zone: str) -> None:
    if not zone.strip():  # blank: the default
        events.create_event(db, name="E", head_judge=HEAD_JUDGE, head_judge_level=2, time_zone=zone)
        return
    with pytest.raises(InvalidInput) as refused:
        events.create_event(db, name="E", head_judge=HEAD_JUDGE, head_judge_level=2, time_zone=zone)
    assert refused.value.field == "time_zone"


def test_the_zone_is_in_the_ledger_and_survives_a_rebuild(db: Database) -> None:
    from shinpan.services import integrity

    e = events.create_event(
        db, name="E", head_judge=HEAD_JUDGE, head_judge_level=2, time_zone="Europe/London"
    )
    integrity.rebuild(db)
    with db.read() as conn:
        assert load_event(conn, e).time_zone == "Europe/London"


def test_the_command_line_takes_the_zone(db_url: str) -> None:
    done = run_cli(
        "event",
        "create",
        "--name",
        "London",
        "--head-judge",
        "HJ",
        "--head-judge-level",
        "2",
        "--time-zone",
        "Europe/London",
        "--json",
        db=db_url,
    )
    assert done.returncode == 0, done.stderr
    refused = run_cli(
        "event",
        "create",
        "--name",
        "X",
        "--head-judge",
        "HJ",
        "--head-judge-level",
        "2",
        "--time-zone",
        "Nowhere/Land",
        db=db_url,
    )
    assert refused.returncode != 0 and "Nowhere/Land" in refused.stderr + refused.stdout


# -- reports -----------------------------------------------------------------------------


def _one_ruling(db: Database, zone: str | None) -> int:
    e = events.create_event(db, name="E", head_judge=HEAD_JUDGE, head_judge_level=2, time_zone=zone, now=AT)
    from shinpan.files.csvio import PlayerRow

    events.import_players(db, e, [PlayerRow("P1", "佐藤 翔太", "さとう しょうた", None)], now=AT)
    recording.record(db, e, recording.RecordInput("P1", "ingame.slow-play"), now=AT)
    return e


@pytest.mark.parametrize(
    ("zone", "shown", "label"),
    [
        (None, "2026-07-05 08:30:00", "Asia/Tokyo"),
        ("America/New_York", "2026-07-04 19:30:00", "America/New_York"),
    ],
)
def test_the_csv_gives_times_in_the_events_zone(
    db: Database, zone: str | None, shown: str, label: str
) -> None:
    report = reports.penalty_report(db, _one_ruling(db, zone))
    content = reports.render(report, "csv").content.decode("utf-8-sig")
    header, row = list(csv.reader(io.StringIO(content)))
    # every line ends with the ledger's head
    assert header == [*csv_header(zone or "Asia/Tokyo"), *HEAD_COLUMNS]
    issued = next(n for n, name in enumerate(header) if name.startswith("記録時刻"))
    assert header[issued].endswith(f"({label})")
    assert row[issued] == shown
    html = reports.render(report, "html").content.decode()
    assert shown in html and label in html


# -- screens -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def new_york(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with database_url("sqlite", tmp_path_factory.mktemp("tz")) as url:
        world = build_world(url, players=4, spare=0, time_zone="America/New_York")
        try:
            yield world
        finally:
            world.close()


def test_the_desk_and_the_rulings_pages_show_the_events_time(new_york: World) -> None:
    w = new_york
    number = w.record("P001", "ingame.slow-play")
    with w.db.read() as conn:
        stamp = Statement("SELECT recorded_at FROM rulings WHERE number = :n").scalar(conn, {"n": number})
    at = datetime.fromisoformat(stamp)
    from zoneinfo import ZoneInfo

    there = at.astimezone(ZoneInfo("America/New_York"))
    utc = at.strftime("%H:%M")
    assert there.strftime("%H:%M") != utc, "New York is never at UTC's time"
    hj = w.clients["head_judge"]
    desk = hj.get(f"/events/{w.event}/desk").text
    row = re.search(rf'<tr class="state-[a-z]+" id="ruling-{number}">.*?</tr>', desk, re.S)
    assert row and f"<td>{there:%H:%M}</td>" in row[0] and f"<td>{utc}</td>" not in row[0]
    assert "America/New_York" in desk
    with in_english(hj):
        assert f"{there:%Y-%m-%d %H:%M:%S}" in hj.get(f"/events/{w.event}/rulings/{number}").text
    assert f"{there:%m-%d %H:%M}" in hj.get(f"/events/{w.event}/players/P001").text


def test_the_event_form_takes_the_zone_and_says_when_it_is_wrong(new_york: World) -> None:
    hj = new_york.clients["head_judge"]
    wrong = hj.post(
        "/events",
        data={"name": "X", "time_zone": "Asia/Nowhere", "csrf_token": hj.csrf},
        follow_redirects=False,
    )
    assert wrong.status_code == 422
    assert "Asia/Nowhere" in wrong.text and "タイムゾーンではありません" in wrong.text
    made = hj.post(
        "/events",
        data={"name": "Y", "time_zone": "Europe/Paris", "csrf_token": hj.csrf},
        follow_redirects=False,
    )
    assert made.status_code == 303
    event = int(made.headers["location"].split("/")[2])
    with new_york.db.read() as conn:
        assert load_event(conn, event).time_zone == "Europe/Paris"
    by_api = hj.post("/api/events", json={"name": "Z", "time_zone": "Asia/Seoul"})
    assert by_api.status_code == 201, by_api.text
    with new_york.db.read() as conn:
        assert load_event(conn, by_api.json()["event"]).time_zone == "Asia/Seoul"


# -- an older database -----------------------------------------------------------------------


def test_an_older_database_gets_the_zone_and_new_search_keys(backend: Backend) -> None:
    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:
            command.upgrade(_config(conn), "0003")
            inspector = sa.inspect(conn)
            if "time_zone" in {c["name"] for c in inspector.get_columns("events")}:
                conn.execute(sa.text("ALTER TABLE events DROP COLUMN time_zone"))  # 0001 made today's table
            conn.execute(
                sa.text(
                    "INSERT INTO events (event_id, uid, name, rel, guideline_id, guideline_version, head_judge, "
                    "confirmation_threshold, current_round, created_at) VALUES "
                    "(1, 'u', 'E', 3, 'g', '1', 'HJ', 'warning1', 0, '2026-01-01T00:00:00.000000Z')"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO players (event_id, number, name, reading, status, search) "
                    "VALUES (1, 'P1', '佐藤 翔太', 'さとう しょうた', 'active', 'old')"
                )
            )
    finally:
        old.close()
    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert Statement("SELECT time_zone FROM events").scalar(conn) == "Asia/Tokyo"
            key = Statement("SELECT search FROM players").scalar(conn)
        assert key == search_key(
            {"number": "P1", "name": "佐藤 翔太", "reading": "さとう しょうた", "club": None}
        )
        assert "syotasato" in key.splitlines()
    finally:
        upgraded.close()
