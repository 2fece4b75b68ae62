"""The venue wall from a real event: `shinpan report pairings|standings` and the API give the
round's pairings by table and in 50-on order of the readings, and the standings, as CSV,
JSON, HTML and PDF (both databases)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Callable
from fractions import Fraction

from conftest import EventSetup, run_cli
from shinpan.files.csvio import PlayerRow
from shinpan.kana import gojuon_key
from shinpan.reports.formats import render
from shinpan.reports.wall import STATUS_WORDS, WallStanding, wall_standings
from shinpan.services import events, swiss

READINGS = {"2001": "わたなべ あい", "2002": "あおき ゆう", "2003": "かとう けん", "2004": "がとう しん"}


def paired_event(new_event: Callable[..., EventSetup]) -> EventSetup:
    ev = new_event(players=0, pair=False)
    rows = [PlayerRow(n, f"選手{n}", r, None) for n, r in READINGS.items()]
    events.import_players(ev.db, ev.id, rows, now=ev.clock.now)
    swiss.pair_next_round(ev.db, ev.id, seed=3, now=ev.clock.now)
    return ev


def test_pairings_by_name_follow_the_50_on_order_of_the_readings(
    new_event: Callable[..., EventSetup], db_url: str
) -> None:
    ev = paired_event(new_event)
    out = run_cli("report", "pairings", "--event", str(ev.id), "--by", "name", "-f", "csv", db=db_url)
    assert out.returncode == 0, out.stderr
    lines = list(csv.reader(io.StringIO(out.stdout.lstrip("\ufeff"))))
    ids = [row[1] for row in lines[1:]]
    assert sorted(ids) == sorted(READINGS)  # every player on a line of their own
    assert ids == sorted(READINGS, key=lambda n: gojuon_key(READINGS[n]))  # あおき, かとう, がとう, わたなべ
    by_table = run_cli("report", "pairings", "--event", str(ev.id), "-f", "json", db=db_url)
    tables = json.loads(by_table.stdout)["pairings"]
    assert [t["table"] for t in tables] == [1, 2]


def test_standings_for_the_wall_and_its_pdf(new_event: Callable[..., EventSetup], db_url: str) -> None:
    ev = paired_event(new_event)
    early = run_cli("report", "standings", "--event", str(ev.id), "--round", "1", "-f", "json", db=db_url)
    assert early.returncode == 1 and "has not ended" in early.stderr  # T6: no "after round 1" before it ends
    events.end_round(ev.db, ev.id)  # the head judge ends the round
    out = run_cli("report", "standings", "--event", str(ev.id), "--round", "1", "-f", "json", db=db_url)
    assert out.returncode == 0, out.stderr
    sheet = json.loads(out.stdout)
    assert sheet["round"] == 1 and len(sheet["standings"]) == len(READINGS)
    html = run_cli("report", "standings", "--event", str(ev.id), "-f", "html", db=db_url)
    assert "順位" in html.stdout and "選手2001" in html.stdout
    refused = run_cli("report", "standings", "--event", str(ev.id), "--round", "5", db=db_url)
    assert refused.returncode != 0 and "round 5" in refused.stderr


def test_every_status_on_the_printed_standings_reads_whole_on_its_line() -> None:
    half = Fraction(1, 2)
    lines = [
        WallStanding(
            place, f"30{place:02d}", f"選手{place}", "せんしゅ", 3, 1, 1, 0, half, half, half, status
        )
        for place, status in enumerate(STATUS_WORDS, start=1)
    ]
    sheet = wall_standings("大会", 3, lines, generated_at="2026-12-05T02:00:00Z")
    pdf = render(sheet, "pdf").content
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True
    ).stdout.decode("utf-8")
    for status_ja, _ in STATUS_WORDS.values():
        if status_ja:  # a word broken over two lines (ドロッ / プ) is not found whole
            assert status_ja in text, status_ja
