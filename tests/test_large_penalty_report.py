"""The penalty report of a large event. As PDF, drawn line by line (``reports/penalties_pdf.py``),
it says what the compact page says, in Japanese as text, with the ledger head on every page;
its CSV, written line by line where a line needs no quoting, is what ``csv.writer`` writes.

The demo event with a disqualification, a deviation, a void and a missed deadline (the
scenario of ``test_reports.py``) is made "large" by lowering the threshold, on SQLite and
on PostgreSQL; the wrapping of long lines is checked on its own.
"""

from __future__ import annotations

import csv
import io
import random
import re
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from conftest import BACKENDS, new_backend
from shinpan import reports
from shinpan.reports import formats
from shinpan.reports.formats import BOM, csv_bytes, inert
from shinpan.reports.pdf_lines import NO_END, NO_START, Run, wrap
from shinpan.reports.penalties import PenaltyReport
from shinpan.services.context import _local_time, local_time
from shinpan.store.db import Database
from test_reports import DEVIATION, VOID, Scenario, demo_with_a_disqualification


@pytest.fixture(scope="module", params=BACKENDS)
def scenario(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    for backend in new_backend(request.param, tmp_path_factory.mktemp("penalties-pdf")):
        db = Database(backend.url)
        try:
            yield demo_with_a_disqualification(db)
        finally:
            db.close()


def large(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> PenaltyReport:
    monkeypatch.setattr(formats, "COMPACT_ABOVE", 0)
    return reports.penalty_report(scenario.db, scenario.event)


def pages_text(pdf: bytes) -> list[str]:
    """Each page's text as pdftotext reads it, without spaces or line breaks."""
    assert pdf.startswith(b"%PDF")
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True)
    return ["".join(page.split()) for page in done.stdout.decode("utf-8").split("\f")[:-1]]


def squeeze(text: str) -> str:
    return "".join(text.split())


def test_a_large_report_says_every_ruling_with_the_ledger_head_on_every_page(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = large(scenario, monkeypatch)
    pdf = reports.render(report, "pdf").content
    info = subprocess.run(
        ["pdfinfo", "-"], input=pdf, capture_output=True, timeout=30, check=True
    ).stdout.decode()
    assert re.search(r"Page size:\s+841\.8\d* x 595\.2\d* pts", info), "A4 landscape"
    assert "違反報告書" in info  # the title
    fonts = subprocess.run(
        ["pdffonts", "-"], input=pdf, capture_output=True, timeout=30, check=True
    ).stdout.decode()
    faces = [line for line in fonts.splitlines()[2:] if line.strip()]
    assert faces and all("NotoSansCJKJP" in f and " yes yes yes " in f for f in faces), (
        fonts
    )  # embedded subsets
    pages = pages_text(pdf)
    head = report.heads[0]
    whole = "".join(pages)
    assert pages[0].endswith(f"shinpan審判台帳{head.short}1/{len(pages)}")
    assert squeeze(f"台帳ヘッド ledger head: {head.short}") in pages[0]
    assert squeeze(f"第{head.position}項の時点 as of entry {head.position}") in pages[0]
    assert f"掲載listed{len(report.rulings)}" in pages[0] and f"うち取消voided{report.voided}" in pages[0]
    for group in report.groups:
        assert squeeze(group.label_ja) in whole
    found = [int(n) for n in re.findall(r"#(\d+)R", whole)]
    assert found == [r.number for r in report.rulings]  # every ruling once, in the report's order
    for r in report.rulings:
        assert (
            squeeze(r.player_name) in whole
            and r.infraction_ja in whole
            and r.infraction_en.replace(" ", "") in whole
        )
    assert squeeze(f"理由「{VOID}」") in whole and squeeze(f"理由「{DEVIATION}」") in whole


def test_every_page_has_its_foot_and_no_ruling_or_heading_is_cut_from_its_lines(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = large(scenario, monkeypatch)
    longer = replace(report, groups=report.groups * 25)  # a report of some pages
    pages = pages_text(reports.render(longer, "pdf").content)
    assert len(pages) > 3
    foot = f"shinpan審判台帳{report.heads[0].short}"
    labels = [squeeze(g.label_ja + g.label_en) for g in report.groups]
    for number, page in enumerate(pages, 1):
        assert page.endswith(f"{foot}{number}/{len(pages)}"), number
        body = page.removesuffix(f"{foot}{number}/{len(pages)}")
        last = max(labels, key=lambda label: body.rfind(label))
        assert body.rfind(last) < 0 or "#" in body[body.rfind(last) :], (
            f"a heading alone at the foot of page {number}"
        )
        assert body.endswith((")", "—", "確認待ち")) or re.search(r"\d\d:\d\d$", body), body[-40:]
    lines = re.findall(r"#(\d+)R", "".join(pages))
    assert [int(n) for n in lines] == [r.number for r in longer.rulings]


def test_a_large_report_in_japanese_only_leaves_the_english_off(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = large(scenario, monkeypatch)
    whole = "".join(pages_text(reports.render(report, "pdf", lang="ja").content))
    assert "違反報告書" in whole and squeeze(report.rulings[0].infraction_ja) in whole
    for english in (
        "Event penalty report",
        "ledger head",
        "listed",
        "shinpan verify",
        report.rulings[0].infraction_en,
    ):
        assert squeeze(english) not in whole, english
    html = formats.to_html(report, lang="ja")
    assert report.rulings[0].infraction_en not in html  # left off the page too, with no stub


def test_a_small_report_is_still_a_table_laid_out_by_weasyprint(scenario: Scenario) -> None:
    report = reports.penalty_report(scenario.db, scenario.event)
    assert not formats.compact(report)
    pdf = reports.render(report, "pdf").content
    info = subprocess.run(
        ["pdfinfo", "-"], input=pdf, capture_output=True, timeout=30, check=True
    ).stdout.decode()
    assert re.search(r"Producer:\s+WeasyPrint", info) and "<table" in formats.to_html(report)


def texts(lines: list[list[tuple[float, Run]]]) -> list[str]:
    return ["".join(run.text for _x, run in line) for line in lines]


class Fixed:
    """Every character one em wide: what wrapping needs of a font, without one."""

    def table(self, _style: str) -> dict[str, float]:
        return _Ems()


class _Ems(dict[str, float]):
    def __missing__(self, _ch: str) -> float:
        return 1.0


def test_long_lines_wrap_between_characters_never_inside_a_word_nor_before_a_closing_mark() -> None:
    em = 10 * 25.4 / 72  # mm at 10 pt
    text = "罰則は警告です。理由「状況を考慮した」 Looking at extra cards 期限超過、追加の裁定"
    lines = texts(wrap(Fixed(), [Run(text, 10)], 12 * em))  # type: ignore[arg-type]
    assert all(len(line) <= 12 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for line in lines[1:]:
        assert line[0] not in NO_START, lines
    for line in lines[:-1]:
        assert line[-1] not in NO_END, lines
    words = [w for w in re.findall(r"[A-Za-z]+", text)]
    for word in words:
        assert any(word in line for line in lines), (word, lines)  # no word cut in two
    runs = wrap(Fixed(), [Run("あ" * 30, 10)], 12 * em)  # type: ignore[arg-type]
    assert texts(runs) == ["あ" * 12, "あ" * 12, "あ" * 6]


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/New_York", "Asia/Kathmandu", "Europe/London"])
def test_times_are_written_the_same_minute_by_minute(zone: str) -> None:
    stamps = [
        "2026-03-08T06:59:59.999999Z",
        "2026-03-08T07:00:00.000001Z",  # New York's clocks go forward
        "2026-10-25T00:59:30.5Z",
        "2026-10-25T01:00:30.5Z",  # London's go back
        "2026-12-02T08:43:56.524880Z",
        "1880-06-01T00:00:30.000000Z",  # before time zones: local mean time
    ]
    for stamp in stamps:
        slow = datetime.fromisoformat(stamp).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S")
        assert local_time(stamp, zone) == slow == _local_time(stamp, zone, "full"), stamp


def test_the_csv_is_what_the_csv_writer_writes_whatever_the_cells_hold() -> None:
    rng = random.Random(21)
    pieces = ["a", ",", '"', "\n", "\r", " ", "=", "-", "漢", "'", "\t", "@", "+", ""]
    for _ in range(2000):
        width = rng.randint(0, 4)
        rows = [
            ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(width)]
            for _ in range(rng.randint(0, 5))
        ]
        header = [f"列{n}" for n in range(width)]
        expected = io.StringIO()
        expected.write(BOM)
        writer = csv.writer(expected, lineterminator="\r\n")
        writer.writerows([[inert(c) for c in row] for row in [header, *rows]])
        assert csv_bytes(header, rows) == expected.getvalue().encode("utf-8"), rows
