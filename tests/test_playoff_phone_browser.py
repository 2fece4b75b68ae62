# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""T10 on the players' phones (390×844) and a laptop: the playoff reads as a playoff — 準決勝,
決勝, 3位決定戦, never 第2回戦 — its rounds stacked so that the final is reached by scrolling
down, never hidden sideways, and once the final is in, the champion and the placings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from shinpan.files.csvio import PlayerRow
from shinpan.services import accounts, events, playoff, publish, rounds, swiss
from shinpan.services.results import Wanted, report_result
from shinpan.services.scoresheet import round_sheet
from shinpan.tournament.playoff import final_decided, stage_name
from test_web_browser import People, Site, browser, people, site  # noqa: F401
from web_support import HEAD_JUDGE, PHONE

LAPTOP = {"width": 1366, "height": 900}


def test_the_rounds_of_a_playoff_are_named_from_its_size() -> None:
    assert [stage_name(8, i)[0] for i in range(3)] == ["準々決勝", "準決勝", "決勝"]
    assert [stage_name(4, i)[0] for i in range(2)] == ["準決勝", "決勝"]
    assert [stage_name(32, i)[0] for i in range(5)] == ["ベスト32", "ベスト16", "準々決勝", "準決勝", "決勝"]
    assert stage_name(16, 3) == ("決勝", "final") and stage_name(16, 0) == ("ベスト16", "round of 16")
    assert not final_decided(4, [])


def _play(site: Site, e: int, number: int) -> None:
    rounds.start_round(site.db, e)
    for row in round_sheet(site.db, e, number).rows:
        if row.b is not None:
            report_result(site.db, e, number, row.table, Wanted(score="2-0"))
    events.end_round(site.db, e)


def _decided_playoff(site: Site) -> str:
    """Six players, one Swiss round, a top-4 playoff with a third-place match, all played."""
    hj = accounts.account_named(site.db, HEAD_JUDGE[0])
    assert hj is not None
    e = events.create_event(
        site.db, name=site.unique("決勝大会"), head_judge=HEAD_JUDGE[0], head_judge_level=HEAD_JUDGE[2],
        head_judge_account=hj.uid,
    )  # fmt: skip
    events.import_players(
        site.db, e, [PlayerRow(f"{4000 + i}", f"選手{i}", "せんしゅ", None) for i in range(6)]
    )
    swiss.pair_next_round(site.db, e, seed=2)
    _play(site, e, 1)
    playoff.start_playoff(site.db, e, 4, third_place=True)
    _play(site, e, 2)
    playoff.pair_playoff_round(site.db, e)
    _play(site, e, 3)
    token = publish.publish(site.db, e).token
    assert token is not None
    return token


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_final_and_the_champion_on_a_phone(site: Site, people: People, viewport: dict[str, int]) -> None:
    token = _decided_playoff(site)
    page = people.open(viewport)
    page.goto(f"/p/{token}/bracket")
    headings = page.locator(".bracket-round h2")
    expect(headings).to_have_count(2)
    expect(headings.nth(0)).to_contain_text("準決勝")
    expect(headings.nth(1)).to_contain_text("決勝")
    expect(page.locator(".bout.third")).to_contain_text("3位決定戦")
    expect(page.locator("#champion")).to_be_visible()
    expect(page.locator("#placings li")).to_have_count(4)
    # No hidden sideways scrolling: the page and the bracket are no wider than the screen,
    # and the final lies within it, reached by scrolling down.
    width = viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.getElementById('bracket').scrollWidth") <= page.evaluate(
        "document.getElementById('bracket').clientWidth"
    )
    final = page.locator(".bracket-round").nth(1).locator(".bout").first
    final.scroll_into_view_if_needed()
    box = final.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    if viewport is PHONE:  # stacked: the final is below the semi-finals, not beside them
        semi = page.locator(".bracket-round").nth(0).bounding_box()
        assert semi is not None and box["y"] > semi["y"] + semi["height"] - 1
    assert people.errors == []
