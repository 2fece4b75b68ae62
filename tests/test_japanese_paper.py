"""Paper of a Japanese event is Japanese by default (the event's language: held in Japan), and
has no stub where the English was left off (「(日本時間 )」, 「台帳ヘッド :」); both languages
when asked. Result slips follow the format: best of one has one duel to write. Read back from
the PDFs themselves (pdftotext), on both databases."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import pytest

from shinpan.reports.common import paper_language
from shinpan.reports.formats import drop_english
from shinpan.services import recording
from test_standings_chain import played_event
from web_support import World, worlds

# The English the paper says beside its Japanese: none of it on a Japanese-only page.
ENGLISH = re.compile(
    r"\b(player|players|round|table|generated|head judge|ledger|signature|standings|pairings|status|"
    r"points|penalty|rank|opponent|reading|entry|event|guideline|seeded|wins|losses|draws|report)\b",
    re.I,
)
STUBS = ("( )", "(日本時間 )", " :", "台帳ヘッド :", " )", "( ")
PAPER = (
    "standings?round=1&format=pdf",
    "pairings?round=1&by=table&format=pdf",
    "pairings?round=1&by=name&format=pdf",
    "result-slips?round=1&format=pdf",
    "penalties?format=pdf",
    "penalty-slips?round=1&format=pdf",
)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=2, spare=0)


def text_of(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True
    ).stdout.decode("utf-8")


def test_the_event_s_language_decides_the_paper() -> None:
    assert paper_language("Asia/Tokyo") == "ja" and paper_language(None) == "ja"  # the default: Japan
    assert paper_language("Europe/Paris") == "both"
    assert drop_english(
        '作成 <span class="en">generated</span> 10:00 (日本時間 <span class="en">Asia/Tokyo</span>)'
    ) == ("作成 10:00 (日本時間)")


def test_paper_of_a_japanese_event_has_no_english_word_and_no_stub(world: World) -> None:
    w = world
    e = played_event(w, "omw,oomw,seeded")
    recording.record(w.db, e, recording.RecordInput(player="3001", infraction="ingame.slow-play", round=1))
    hj = w.clients["head_judge"]
    for paper in PAPER:
        got = hj.get(f"/api/events/{e}/reports/{paper}")
        assert got.status_code == 200, (paper, got.text[:300])
        text = text_of(got.content)
        assert "タイブレーク" in text or "standings" not in paper, paper
        english = ENGLISH.findall(text)
        assert not english, (paper, english[:10])
        for stub in STUBS:
            assert stub not in text, (paper, stub)
        both = text_of(hj.get(f"/api/events/{e}/reports/{paper}&lang=both").content)
        assert ENGLISH.search(both), paper  # both languages, when asked


def test_a_best_of_one_slip_has_one_duel_to_write(world: World) -> None:
    w = world
    e = played_event(w, "omw,oomw,seeded")  # best of one
    html = w.clients["head_judge"].get(f"/api/events/{e}/reports/result-slips?round=1&format=html").text
    heads = re.findall(r"<thead><tr>.*?</tr></thead>", html, re.S)
    assert heads and all(h.count('class="box">第') == 1 for h in heads)


def test_the_reports_page_offers_the_paper_in_either_language(world: World) -> None:
    w = world
    e = played_event(w, None)
    page = w.clients["head_judge"].get(f"/events/{e}/reports").text
    assert "この大会は日本で開かれるため、書類は日本語のみで印刷します。" in page
    assert f"/api/events/{e}/reports/penalties?format=pdf&lang=both" in page
    assert f"/api/events/{e}/reports/penalties?format=pdf&lang=ja" in page
