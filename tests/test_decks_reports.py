"""Reports of T13 on both databases: the deck checks (who, when, how long, what was found, the
ruling it led to), a player's list as an A4 PDF in Japanese only with the judges' box, every
list as CSV and JSON; and ``shinpan report deckchecks|decklist|decklists``."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

from conftest import FLOOR_JUDGE, EventSetup, run_cli
from shinpan.reports import render
from shinpan.reports.decks import all_decklists, deck_checks_report, decklist_sheet
from shinpan.services import deckchecks, decklists, rounds
from shinpan.tournament.decks import Decklist
from test_documents_japanese import pdf_pages, pdf_text


def listing(prefix: str, bolts: int = 4, *extra: tuple[int, str]) -> Decklist:
    main = [(bolts, "稲妻"), *[(1, f"{prefix}カード{i}") for i in range(56)], *extra]
    return Decklist.of({"main": main, "side": [(3, "強迫")]})


def _event(ev: EventSetup) -> int:
    for p in ev.players:
        decklists.submit(ev.db, ev.id, p, listing(p), now=ev.clock.now)
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    deckchecks.start(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE, now=ev.clock.now)
    deckchecks.count(ev.db, ev.id, 1, 1, "P001", listing("P001", 3, (1, "ショック")), judge=FLOOR_JUDGE)
    ev.clock.advance(minutes=4, seconds=30)
    ended = deckchecks.end(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE, extend=True, now=ev.clock.now)
    ev.record("P001", "deck.deck-decklist-mismatch", deck_check=ended["check"])
    return int(ended["check"])


def test_the_deck_checks_report_says_who_when_how_long_what_and_the_ruling(ev: EventSetup) -> None:
    _event(ev)
    report = deck_checks_report(ev.db, ev.id, 1)
    _, rows = report.csv_table()
    assert rows[0][:3] == ["1", "1", "P001"] and rows[0][3] == FLOOR_JUDGE and rows[0][5] == "5"
    assert rows[0][6] == "稲妻×1" and rows[0][7] == "ショック×1"
    assert rows[0][9] == "deck.deck-decklist-mismatch" and "deck.deck-decklist-mismatch" in rows[0][10]
    data = json.loads(render(report, "json").content)
    assert data["checks"][0]["minutes"] == 5 and data["checks"][0]["extended"]
    text = "".join(pdf_text(render(report, "pdf").content).split())  # a cell wraps across lines
    assert "デッキとデッキリストが異なる" in text and "稲妻" in text


def test_a_players_list_is_an_a4_pdf_in_japanese_only_with_the_judges_box(ev: EventSetup) -> None:
    _event(ev)
    sheet = decklist_sheet(ev.db, ev.id, "P001")
    out = render(sheet, "pdf", lang="ja")
    text = "".join(pdf_text(out.content).split())
    assert "ジャッジ記入欄" in text and "チェックした回戦" in text and "第1回戦1番卓" in text
    assert "P001カード0" in text and "メイン" in text and "サイド" in text
    assert pdf_pages(out.content) == 1
    words = re.findall(r"[A-Za-z]*[a-z][A-Za-z]*", text.replace("shinpan", ""))  # ledger codes are upper case
    assert words == [], words  # no English beside the Japanese
    info = subprocess.run(["pdfinfo", "-"], input=out.content, capture_output=True, timeout=60, check=True)
    assert re.search(r"Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)", info.stdout.decode())


def test_every_list_as_csv_and_json(ev: EventSetup) -> None:
    _event(ev)
    report = all_decklists(ev.db, ev.id)
    rows = list(csv.reader(io.StringIO(render(report, "csv").content.decode("utf-8-sig"))))
    assert rows[1][:5] == ["P001", "1", "main", "4", "稲妻"]
    assert len(rows) == 1 + 8 * 58
    data = json.loads(render(report, "json").content)
    assert [x["player"] for x in data["decklists"]] == ev.players


def test_the_report_commands(ev: EventSetup, db_url: str, tmp_path: Path) -> None:
    _event(ev)
    pdf = tmp_path / "p001.pdf"
    done = run_cli("report", "decklist", "--event", str(ev.id), "--player", "P001", "-o", str(pdf), db=db_url)
    assert done.returncode == 0, done.stderr
    assert "ジャッジ記入欄" in pdf_text(pdf.read_bytes())
    listed = run_cli("report", "deckchecks", "--event", str(ev.id), "--format", "json", db=db_url)
    assert listed.returncode == 0 and json.loads(listed.stdout)["checks"][0]["table"] == 1
    every = run_cli("report", "decklists", "--event", str(ev.id), db=db_url)
    assert every.returncode == 0 and "稲妻" in every.stdout


def test_each_players_registration_code_on_a_slip(ev: EventSetup, db_url: str, tmp_path: Path) -> None:
    from shinpan.reports.decks import registration_slips
    from shinpan.services.codes import player_code_is_right

    slips = registration_slips(ev.db, ev.id)
    assert [s.number for s in slips.slips] == ev.players
    with ev.db.read() as conn:
        assert all(player_code_is_right(ev.db, conn, ev.id, s.number, s.code) for s in slips.slips)
    pdf = tmp_path / "codes.pdf"
    done = run_cli("report", "codes", "--event", str(ev.id), "-o", str(pdf), db=db_url)
    assert done.returncode == 0, done.stderr
    assert slips.slips[0].code in "".join(pdf_text(pdf.read_bytes()).split())
