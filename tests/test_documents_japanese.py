"""Every document a player, judge or organiser reads is Japanese, in Japanese.

Each printed document and report is rendered Japanese-only (``lang="ja"``): the PDF's
text as pdftotext extracts it, the HTML's text (the English beside it left off, as on the
page), the CSV's header. None may hold an infraction id, a component or effect code, a
ruling's state, a player's status or a deadline's kind as the code the program keeps,
nor a D-number, nor an English word but the few names a Japanese reader reads as they are
(:data:`NAMES`). The ids and codes come from the guideline and the program's own tables,
never typed here. The guideline page shows the English beside the Japanese by design,
and no id either. The standings and pairings of 20 players fit one page each.
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from conftest import BACKENDS, new_backend
from paper_event import T0, PaperEvent, build, play_round
from shinpan import reports
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.reports.common import DUE_WORDS, STATE_WORDS, STATUS_WORDS
from shinpan.store.db import Database

BOOK = Rulebook(default_guideline())
NAMES = {"shinpan", "PDF", "CSV", "QR"}  # words a Japanese document may hold as they are
CODES = sorted(
    {*BOOK.rule_ids(), *BOOK.components, *BOOK.effects, *STATE_WORDS, *STATUS_WORDS, *DUE_WORDS},
    key=len,
    reverse=True,
)
CODE = re.compile(r"(?<![A-Za-z0-9_.-])(" + "|".join(map(re.escape, CODES)) + r")(?![A-Za-z0-9_])")
D_NUMBER = re.compile(r"(?<![A-Za-z0-9])D\d{1,2}(?![0-9])")
WORD = re.compile(r"[A-Za-z]{2,}")
URL = re.compile(r"https?://\S+")
HEAD = re.compile(r"\d+-\d+(?:-[0-9A-Z]{4}){4}")  # the ledger's head, a code typed from paper (verify --head)


def problems(text: str, *, allowed: tuple[str, ...] = ()) -> list[str]:
    """What in ``text`` a Japanese reader should not meet; ``allowed``: strings the document
    prints as data (a QR code's address, a match's code)."""
    for known in allowed:
        text = text.replace(known, " ")
    text = URL.sub(" ", text)
    text = HEAD.sub(" ", text)
    found = [f"code {m.group(1)!r}" for m in CODE.finditer(text)]
    found += [f"D-number {m.group(0)!r}" for m in D_NUMBER.finditer(text)]
    found += [f"English word {w!r}" for w in WORD.findall(text) if w not in NAMES]
    return found


def test_the_check_finds_what_it_is_for() -> None:
    assert problems("警告 warning1+duel_loss") == [
        "code 'warning1'",
        "code 'duel_loss'",
        "English word 'warning'",
        "English word 'duel'",
        "English word 'loss'",
    ]
    assert problems("ingame.slow-play") != [] and problems("失格 D14") == ["D-number 'D14'"]
    assert problems("状態 disqualified") == ["code 'disqualified'", "English word 'disqualified'"]
    assert problems("shinpan 審判 · PDF · 1 / 3 · 第2ラウンド · A · 50.00%") == []


class _Text(HTMLParser):
    """The text a reader sees: no styles, no scripts, nothing of class ``en`` (hidden on a
    Japanese-only page) and, with ``english``, nothing marked ``lang="en"`` either."""

    def __init__(self, *, skip_lang_en: bool = False) -> None:
        super().__init__()
        self.skip_lang_en = skip_lang_en
        self.hidden: list[str] = []  # the tags opened while hidden
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "input", "meta", "link", "col", "path", "use", "rect"):
            return
        found = dict(attrs)
        hides = tag in ("style", "script", "title") or "en" in (found.get("class") or "").split()
        hides = hides or (self.skip_lang_en and found.get("lang") == "en")
        if self.hidden or hides:
            self.hidden.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.hidden and self.hidden[-1] == tag:
            self.hidden.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_text(html: str, *, skip_lang_en: bool = False) -> str:
    parser = _Text(skip_lang_en=skip_lang_en)
    parser.feed(html)
    return " ".join(parser.parts)


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True
    )
    return done.stdout.decode("utf-8")


def pdf_pages(pdf: bytes) -> int:
    done = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, timeout=60, check=True)
    found = re.search(r"Pages:\s+(\d+)", done.stdout.decode())
    assert found is not None
    return int(found.group(1))


@pytest.fixture(scope="module", params=BACKENDS)
def paper(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PaperEvent]:
    for backend in new_backend(request.param, tmp_path_factory.mktemp("paper")):
        db = Database(backend.url)
        try:
            made = build(db)
            play_round(made, 1, T0 + timedelta(hours=1))
            yield made
        finally:
            db.close()


def documents(p: PaperEvent) -> dict[str, tuple[reports.Report, tuple[str, ...]]]:
    """Every printed document and report of the event, with the data each prints as it is."""
    db, e = p.db, p.event
    slips = reports.penalty_slips(db, e, round_no=1)
    results = reports.result_slips(db, e, 2)
    return {
        "penalty report": (reports.penalty_report(db, e), ()),
        "penalty report by player": (reports.penalty_report(db, e, "player"), ()),
        "penalty report by infraction": (reports.penalty_report(db, e, "infraction"), ()),
        "DQ report": (reports.dq_report(db, e), ()),
        "history": (reports.history_of_player(db, e, p.dq_player), ()),
        "statistics": (reports.statistics(db, e), ()),
        "penalty slip": (reports.penalty_slip(db, e, p.dq), ()),
        "penalty slips": (slips, ()),
        "result slips": (results, tuple(s.code for s in results.slips)),
        "pairings by table": (reports.venue_pairings(db, e, 2), ()),
        "pairings by name": (reports.venue_pairings(db, e, 2, "name"), ()),
        "standings": (reports.venue_standings(db, e, 1), ()),
    }


def urls(report: reports.Report) -> tuple[str, ...]:
    """The addresses a document prints under its QR codes."""
    if isinstance(report, reports.PenaltySlips):
        return tuple(s.url for s in report.slips)
    return (report.url,) if isinstance(report, reports.Slip) else ()


def test_every_document_in_japanese_has_no_code_no_id_and_no_english(paper: PaperEvent) -> None:
    found: dict[str, list[str]] = {}
    for name, (report, data) in documents(paper).items():
        pdf = reports.render(report, "pdf", lang="ja").content
        squeezed = "".join(pdf_text(pdf).split())  # an address wraps across lines
        found[f"{name} (PDF)"] = problems(squeezed, allowed=data + urls(report))
        html = reports.render(report, "html", lang="ja").content.decode()
        found[f"{name} (HTML)"] = problems(html_text(html), allowed=data)
        if report.csv_table() is not None:
            content = reports.render(report, "csv", lang="ja").content.decode("utf-8-sig")
            header = next(csv.reader(io.StringIO(content)))
            found[f"{name} (CSV header)"] = problems(" ".join(header))
    failing = {k: v for k, v in found.items() if v}
    assert not failing, "\n".join(f"{k}: {v}" for k, v in failing.items())


def test_the_japanese_documents_say_what_the_codes_meant(paper: PaperEvent) -> None:
    """The words stand where the codes stood: the slip's deadline, the DQ report's status
    and infraction, the appeal quoted in 「」, the penalty report's penalties."""
    db, e = paper.db, paper.event
    dq = pdf_text(reports.render(reports.dq_report(db, e), "pdf", lang="ja").content)
    assert "イカサマ" in dq and "失格" in dq and "「故意ではない」" in dq
    penalties = pdf_text(reports.render(reports.penalty_report(db, e), "pdf", lang="ja").content)
    assert "警告" in "".join(penalties.split()) or "警1" in penalties
    history = pdf_text(
        reports.render(reports.history_of_player(db, e, paper.dq_player), "pdf", lang="ja").content
    )
    assert "失格" in history


def test_the_standings_and_pairings_of_20_players_fit_one_page(paper: PaperEvent) -> None:
    db, e = paper.db, paper.event
    for report in (reports.venue_standings(db, e, 1), reports.venue_pairings(db, e, 2)):
        for lang in ("ja", "both"):
            assert pdf_pages(reports.render(report, "pdf", lang=lang).content) == 1, (report.kind, lang)


def test_the_guideline_page_shows_no_id(paper: PaperEvent) -> None:
    from shinpan.services import accounts
    from shinpan.web.app import create_app
    from web_support import sign_in

    accounts.add_user(paper.db, "閲覧 太郎", "guideline-reader-1")
    client = sign_in(TestClient(create_app(paper.db)), "閲覧 太郎", "guideline-reader-1")
    page = client.get("/guideline", headers={"Accept-Language": "ja"})
    assert page.status_code == 200
    text = html_text(page.text, skip_lang_en=True)
    assert "遅刻" in text
    assert [p for p in problems(text) if not p.startswith("English word")] == []
    assert not [i for i in BOOK.rule_ids() if i in page.text], "no infraction id anywhere on the page"
