"""The venue wall from a real event: `shinpan report pairings|standings` and the API give the
round's pairings by table and in 50-on order of the readings, and the standings, as CSV,
JSON, HTML and PDF (both databases)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from conftest import EventSetup, run_cli
from shinpan.csvio import PlayerRow
from shinpan.kana import gojuon_key
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
