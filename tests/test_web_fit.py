# ruff: noqa: F811  (the fixtures of test_web_browser, imported by name, are the tests' arguments)
"""The judges' pages fit the screens they are used on, in a real browser: no page is wider
than a 390 px phone (the desk's feed becomes cards there), and at 1366 px no header of
Matches is broken a character per line.

PAGES lists the pages checked (each must answer: a page that is gone fails the test); a new
page is covered by adding its path here.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from shinpan.services import corrections, recording, rounds
from test_web_browser import People, Site, browser, people, quick_event, sign_in, site  # noqa: F401
from web_support import HEAD_JUDGE, PHONE, player_table

PAGES = [
    "/events/{event}/desk",
    "/events/{event}/scorekeeper",
    "/events/{event}/record",
    "/events/{event}/rulings/{ruling}",
    "/events/{event}/players",
    "/events/{event}/players/P001",
    "/events/{event}/invite",
    "/events/{event}/deckcheck",
]
LAPTOP = {"width": 1366, "height": 900}


def busy_event(site: Site) -> tuple[int, int]:
    """An event with something on every panel: rulings of each state, long names, deadlines."""
    event, _ = quick_event(site, player_table(20))
    numbers = []
    for i, (player, rule) in enumerate(
        [
            ("P001", "ingame.slow-play"),
            ("P002", "pregame.tardiness"),
            ("P003", "cards.marked-no-pattern"),
            ("P004", "severe.cheating"),
            ("P005", "deck.lost-or-mixed-cards"),
        ]
    ):
        facts = {"mixed_into": "P006"} if rule == "deck.lost-or-mixed-cards" else {}
        saved = recording.record(
            site.db,
            event,
            recording.RecordInput(player=player, infraction=rule, facts=facts),
            command_id=f"fit-{event}-{i}",
        )
        numbers.append(int(saved.rulings[0]["number"]))
    corrections.deviate(
        site.db,
        event,
        numbers[0],
        ["caution"],
        "初参加のため、説明を長めに書いておく" * 3,
        command_id=f"fit-dev-{event}",
    )
    return event, numbers[0]


def head_judge(people: People, viewport: dict[str, int]) -> Page:
    page = people.open(viewport, **({"has_touch": True, "is_mobile": True} if viewport == PHONE else {}))
    sign_in(page, HEAD_JUDGE[0], HEAD_JUDGE[1])
    return page


@pytest.mark.parametrize("path", PAGES)
def test_no_page_is_wider_than_a_phone(site: Site, people: People, path: str) -> None:
    event, ruling = busy_event(site)
    page = head_judge(people, PHONE)
    response = page.goto(path.format(event=event, ruling=ruling))
    assert response is not None
    assert response.ok, (path, response.status)
    page.wait_for_load_state("networkidle")
    width = page.evaluate("() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *')].filter(e => {
             const r = e.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1 &&
               !e.closest('.table-scroll, .event-nav'); }).slice(0, 5).map(e => e.tagName + '.' + e.className)"""
    )
    assert width <= PHONE["width"] and not wide, (width, wide)


def test_the_desk_feed_is_cards_on_a_phone(site: Site, people: People) -> None:
    event, ruling = busy_event(site)
    page = head_judge(people, PHONE)
    page.goto(f"/events/{event}/desk")
    row = page.locator(f"#ruling-{ruling}")
    box = row.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and box["height"] < 400, box
    for cell in row.locator("td").all():  # no cell a character a line
        b = cell.bounding_box()
        assert b is None or b["height"] < 80 or b["width"] > 150, (cell.inner_text(), b)


@pytest.mark.parametrize("path", ["/events/{event}/scorekeeper", "/events/{event}/desk"])
def test_headers_on_a_laptop_are_not_broken_a_character_a_line(site: Site, people: People, path: str) -> None:
    event, _ = busy_event(site)
    page = head_judge(people, LAPTOP)
    page.goto(path.format(event=event))
    for th in page.locator("main th:visible").all():
        b = th.bounding_box()
        assert b is not None and b["height"] < 40, (th.inner_text(), b)  # one line


def test_matches_for_ten_tables_fit_a_laptop_screen_or_two(site: Site, people: People) -> None:
    """Matches at 1366×900 with 10 tables (the issue measured 4,227 px): a table's row is one
    line unless its duels need more, no header or cell is broken a character a line, and
    the whole page, with its forms, is at most about two screens."""
    event, _ = busy_event(site)  # 20 players: 10 tables, penalty duels at tables 1 and 3
    page = head_judge(people, LAPTOP)
    page.goto(f"/events/{event}/scorekeeper")
    rows = page.locator("table.matches tbody tr")
    assert rows.count() == 10
    for th in page.locator("main th:visible").all():
        b = th.bounding_box()
        assert b is not None and b["height"] < 40, (th.inner_text(), b)
    for words in page.locator(
        "table.matches .person:not(:has(.pending)), table.matches .pending, table.matches td.result > span"
    ).all():
        b = words.bounding_box()
        assert b is not None and b["height"] < 30, (words.inner_text(), b)  # one line each
    for row in rows.all():
        b = row.bounding_box()
        if row.locator(".duel").count() == 0 and row.locator(".tag.pending").count() == 0:
            assert b is not None and b["height"] < 45, (row.inner_text(), b)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2 * LAPTOP["height"] + 100, height


def test_matches_are_cards_on_a_phone(site: Site, people: People) -> None:
    """The round under way on a 390 px phone: each table a card no wider than the screen,
    no name, reading, time or button a character a line."""
    event, _ = busy_event(site)
    rounds.start_round(site.db, event)
    page = head_judge(people, PHONE)
    page.goto(f"/events/{event}/scorekeeper")
    rows = page.locator("table.matches tbody tr")
    assert rows.count() == 10
    expect(rows.first.locator("td.table-no")).to_have_text("1")
    for row in rows.all():
        b = row.bounding_box()
        assert b is not None and b["width"] <= PHONE["width"], (row.inner_text(), b)
    for words in page.locator(
        "table.matches .person > a, table.matches .reading, table.matches td.time > div, table.matches button"
    ).all():
        b = words.bounding_box()  # a few characters a line at most: wide, or short
        assert b is None or b["width"] > 60 or b["height"] < 50, (words.inner_text(), b)
