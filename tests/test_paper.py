"""Paper for the venue: result slips for the tables, penalty slips in batch, the match codes.

A scorekeeper prints a round's result slips (eight to an A4 page, cut along the dashed
lines): each names the round and the table, both players with their readings, has boxes
for the duels and lines for signatures, and the match's code with a QR code. The code is
the same every time it is printed, differs from table to table, round to round and event
to event, and reads without doubt. The head judge prints a round's penalty slips, or the
ones picked on the desk, four to a page. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from conftest import BACKENDS, new_backend, run_cli
from paper_event import FLOOR_JUDGE, HEAD_JUDGE, T0, PaperEvent, build, play_round
from shinpan import reports
from shinpan.errors import InvalidInput
from shinpan.services import accounts
from shinpan.services.codes import code_is_right
from shinpan.store.db import Database
from shinpan.tournament.codes import ALPHABET, code_matches, match_code, normalise_code

SECRET = "0b7f1c9e-3a52-4d8e-9c61-2f4a8b0d5e17"


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True
    )
    return done.stdout.decode("utf-8")


def pdf_info(pdf: bytes) -> str:
    return subprocess.run(
        ["pdfinfo", "-"], input=pdf, capture_output=True, timeout=60, check=True
    ).stdout.decode()


def pages(pdf: bytes) -> int:
    found = re.search(r"Pages:\s+(\d+)", pdf_info(pdf))
    assert found is not None
    return int(found.group(1))


# -- the code on a slip (pure) ------------------------------------------------------------


def test_a_match_code_is_eight_unmistakable_characters_in_two_groups() -> None:
    code = match_code(SECRET, 1, 1)
    assert re.fullmatch(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}", code)
    assert not set(ALPHABET) & set("0O1IL2Z5S8BUVQ"), "no character read as another"


def test_the_same_match_always_gets_the_same_code() -> None:
    assert match_code(SECRET, 3, 12) == match_code(SECRET, 3, 12)


def test_every_table_round_and_event_gets_its_own_code() -> None:
    codes = {match_code(SECRET, r, t) for r in range(1, 9) for t in range(1, 129)}
    assert len(codes) == 8 * 128
    assert match_code(SECRET, 1, 1) != match_code(SECRET.replace("0", "1", 1), 1, 1)


@given(st.integers(1, 30), st.integers(1, 2000))
def test_a_code_typed_loosely_is_still_the_code(round_no: int, table: int) -> None:
    code = match_code(SECRET, round_no, table)
    loose = code.lower().replace("-", " ")
    wide = "".join(
        chr(ord(c) + 0xFEE0) for c in code.replace("-", "")
    )  # full-width, as a phone's IME types it
    assert normalise_code(loose) == normalise_code(wide) == code
    assert code_matches(SECRET, round_no, table, loose)
    assert not code_matches(SECRET, round_no, table + 1, code)


def test_a_code_needs_the_events_secret() -> None:
    with pytest.raises(ValueError, match="secret"):
        match_code("", 1, 1)


# -- the slips of a real event ------------------------------------------------------------


@pytest.fixture(scope="module", params=BACKENDS)
def paper(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PaperEvent]:
    for backend in new_backend(request.param, tmp_path_factory.mktemp("slips")):
        db = Database(backend.url)
        try:
            made = build(db)
            play_round(made, 1, T0 + timedelta(hours=1))
            yield made
        finally:
            db.close()


def test_the_result_slips_of_a_round_are_eight_to_an_a4_page(paper: PaperEvent) -> None:
    slips = reports.result_slips(paper.db, paper.event, 2)
    paired = reports.venue_pairings(paper.db, paper.event, 2)
    tables = [line.table for line in paired.lines if line.opponent is not None]
    assert [s.table for s in slips.slips] == sorted(tables), "one slip per table, the bye has none"
    pdf = reports.render(slips, "pdf").content
    assert re.search(r"Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)", pdf_info(pdf))
    assert pages(pdf) == (len(tables) + 7) // 8
    text = pdf_text(pdf)
    for line in paired.lines:
        if line.opponent is not None:
            assert line.name in text and line.reading in text and line.opponent_reading in text
    for s in slips.slips:
        assert s.code in text and f"第{slips.round}ラウンド" in text
        assert s.qr_svg.startswith("<svg") and s.code in s.url
    assert "署名" in text and "第1" in text and "第3" in text and "引き分け" in text


def test_the_slips_code_is_the_one_a_winner_is_asked_for(paper: PaperEvent) -> None:
    slips = reports.result_slips(paper.db, paper.event, 2)
    again = reports.result_slips(paper.db, paper.event, 2)
    assert [s.code for s in slips.slips] == [s.code for s in again.slips], "reprinting changes nothing"
    first, second = slips.slips[0], slips.slips[1]
    with paper.db.read() as conn:
        assert code_is_right(paper.db, conn, paper.event, 2, first.table, first.code.lower())
        assert not code_is_right(paper.db, conn, paper.event, 2, second.table, first.code)
        assert not code_is_right(paper.db, conn, paper.event, 1, first.table, first.code)


def test_only_the_tables_asked_for_and_a_clear_refusal_otherwise(paper: PaperEvent) -> None:
    slips = reports.result_slips(paper.db, paper.event, 2)
    picked = reports.result_slips(paper.db, paper.event, 2, tables=[slips.slips[1].table])
    assert [s.table for s in picked.slips] == [slips.slips[1].table]
    with pytest.raises(InvalidInput, match="has no table 999"):
        reports.result_slips(paper.db, paper.event, 2, tables=[999])
    with pytest.raises(InvalidInput, match="round 9 is not paired"):
        reports.result_slips(paper.db, paper.event, 9)


def test_a_rounds_penalty_slips_are_four_to_an_a4_page(paper: PaperEvent) -> None:
    batch = reports.penalty_slips(paper.db, paper.event, round_no=1)
    standing = [n for n in paper.rulings if n != 4]  # ruling 4 was voided
    assert [s.ruling.number for s in batch.slips] == standing
    pdf = reports.render(batch, "pdf").content
    assert re.search(r"Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)", pdf_info(pdf))
    assert pages(pdf) == (len(standing) + 3) // 4
    text = "".join(pdf_text(pdf).split())
    for s in batch.slips:
        assert f"裁定{s.ruling.number}" in text and "".join(s.ruling.player_name.split()) in text


def test_penalty_slips_picked_by_number_in_the_order_asked(paper: PaperEvent) -> None:
    batch = reports.penalty_slips(paper.db, paper.event, numbers=[paper.dq, 1, paper.dq])
    assert [s.ruling.number for s in batch.slips] == [paper.dq, 1]
    with pytest.raises(InvalidInput, match="a round, or the rulings' numbers"):
        reports.penalty_slips(paper.db, paper.event)
    from shinpan.errors import NotFound

    with pytest.raises(NotFound, match="no ruling 9999"):
        reports.penalty_slips(paper.db, paper.event, numbers=[9999])


def test_the_commands_write_both_kinds_of_slips(paper: PaperEvent, tmp_path: Path) -> None:
    url, e = paper.db.url, str(paper.event)
    target = tmp_path / "slips.pdf"
    done = run_cli("report", "slips", "--event", e, "--round", "2", "-o", str(target), db=url)
    assert done.returncode == 0, done.stderr
    assert match_code_in(pdf_text(target.read_bytes()))
    batch = tmp_path / "penalties.pdf"
    done = run_cli(
        "report",
        "penalty-slips",
        "--event",
        e,
        "--ruling",
        "1",
        "--ruling",
        str(paper.dq),
        "-o",
        str(batch),
        db=url,
    )
    assert done.returncode == 0, done.stderr
    assert pages(batch.read_bytes()) == 1
    refused = run_cli("report", "penalty-slips", "--event", e, db=url)
    assert refused.returncode == 1 and "--round N" in refused.stderr and "Traceback" not in refused.stderr


def match_code_in(text: str) -> bool:
    return re.search(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}", text) is not None


def test_the_api_gives_result_slips_to_the_desk_and_penalty_slips_to_judges(paper: PaperEvent) -> None:
    from shinpan.services import events
    from shinpan.web.app import create_app
    from web_support import sign_in

    app = create_app(paper.db)
    for name, secret, level in ((HEAD_JUDGE, "head-judge-secret", 3), (FLOOR_JUDGE, "floor-judge-secret", 1)):
        user = accounts.add_user(paper.db, name, secret, level)
        events.claim_seat(paper.db, paper.event, name, user.uid)
    hj = sign_in(TestClient(app), HEAD_JUDGE, "head-judge-secret")
    fj = sign_in(TestClient(app), FLOOR_JUDGE, "floor-judge-secret")
    e = paper.event
    got = hj.get(f"/api/events/{e}/reports/result-slips?round=2&format=pdf")
    assert got.status_code == 200 and got.headers["content-type"] == "application/pdf"
    assert hj.get(f"/api/events/{e}/reports/result-slips?round=2&format=json").json()["slips"]
    assert fj.get(f"/api/events/{e}/reports/result-slips?round=2").status_code == 403, (
        "codes stay at the desk"
    )
    picked = fj.get(f"/api/events/{e}/reports/penalty-slips?ruling=1&ruling={paper.dq}&format=json").json()
    assert [s["ruling"]["number"] for s in picked["slips"]] == [1, paper.dq]
    assert fj.get(f"/api/events/{e}/reports/penalty-slips?round=1").status_code == 200
    assert fj.get(f"/api/events/{e}/reports/penalty-slips").status_code == 422
    page = hj.get(f"/events/{e}/scorekeeper?round=2")
    assert f"/api/events/{e}/reports/result-slips?round=2" in page.text
    desk = hj.get(f"/events/{e}/desk").text
    assert f'action="/api/events/{e}/reports/penalty-slips"' in desk, "the desk prints the slips it picks"
    assert f'name="ruling" value="{paper.dq}" form="penalty-slips"' in desk
