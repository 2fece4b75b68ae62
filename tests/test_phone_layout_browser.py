# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""The head judge's event menu on a 390×844 phone and a 1366×900 laptop (issue 31): every
link whole and apart (bounding boxes that do not overlap, within the screen), the invitations
and the players' pages among them; Matches on a phone puts the entry form and the tables
still open first."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from shinpan.services import rounds, swiss
from test_web_browser import People, Site, browser, people, sign_in, site  # noqa: F401
from test_web_scorekeeper import swiss_event
from web_support import HEAD_JUDGE

VIEWPORTS = pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}], ids=["phone", "laptop"]
)


def boxes_apart(page: Page, width: int) -> list[str]:
    links = page.locator("nav.event-nav > a")
    boxes = []
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (links.nth(i).inner_text(), box)
        assert links.nth(i).evaluate("a => a.scrollWidth <= a.clientWidth + 1"), links.nth(i).inner_text()
        boxes.append((links.nth(i).inner_text(), box))
    for n, (a, p) in enumerate(boxes):
        for b, q in boxes[n + 1 :]:
            apart = (
                p["x"] + p["width"] <= q["x"] + 0.5
                or q["x"] + q["width"] <= p["x"] + 0.5
                or p["y"] + p["height"] <= q["y"] + 0.5
                or q["y"] + q["height"] <= p["y"] + 0.5
            )
            assert apart, (a, p, b, q)
    return [text for text, _ in boxes]


@VIEWPORTS
def test_the_event_menu_fits_and_matches_puts_the_entry_first(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, _ = swiss_event(site, players=16)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    hj = people.open(viewport)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    for page in ("desk", "scorekeeper"):
        hj.goto(f"/events/{event}/{page}")
        names = boxes_apart(hj, viewport["width"])
        assert {"招待", "公開する", "報告書", "プレイヤー", "マッチ", "デスク"} <= set(names), names
        brand, menu = hj.locator("a.brand").bounding_box(), hj.locator("#menu summary").bounding_box()
        assert brand is not None and menu is not None and menu["x"] + menu["width"] <= viewport["width"] + 0.5
    expect(hj.locator("#nav-invite")).to_have_attribute("href", f"/events/{event}/invite")
    expect(hj.locator("#open-tables")).to_contain_text("1, 2, 3")
    entry = hj.locator("#quick-entry").bounding_box()
    matches = hj.locator("table.matches").bounding_box()
    head = hj.locator("section.round-head").bounding_box()
    assert entry is not None and matches is not None and head is not None
    assert entry["y"] < matches["y"]
    if viewport["width"] < 700:  # a phone: the entry form first, before the round's controls
        assert entry["y"] < head["y"] and entry["y"] < viewport["height"]
    assert people.errors == []
