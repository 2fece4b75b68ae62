# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""Sessions a person can see (issue 31): the head judge signing in on the scorekeeper's laptop
in a new tab is asked first, naming who is signed in; the scorekeeper's open Matches tab then
sends nothing as the head judge — the server refuses what it sends, and the tab says whose
browser it now is. 390×844 and 1366×900, SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from shinpan.services import rounds, swiss
from test_web_browser import People, Site, browser, people, site  # noqa: F401
from test_web_results_browser import reported
from test_web_scorekeeper import at_the_scorekeepers_table, swiss_event
from web_support import HEAD_JUDGE


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}], ids=["phone", "laptop"]
)
def test_a_second_sign_in_asks_first_and_the_old_tab_acts_as_nobody_else(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=8)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    expect(sk.locator("#quick-table")).to_have_value("1")

    # A new tab of the same browser: signing in asks first, naming who is signed in.
    tab = sk.context.new_page()
    tab.goto("/login")
    expect(tab.locator("#signed-in-already")).to_contain_text(scorekeeper)
    tab.fill("main input[name=name]", HEAD_JUDGE[0])
    tab.fill("main input[name=password]", HEAD_JUDGE[1])
    tab.click("main form button[type=submit]")
    expect(tab.locator("#signed-in-already .field-error")).to_contain_text(scorekeeper)  # nothing changed
    tab.fill("main input[name=password]", HEAD_JUDGE[1])
    tab.check("#switch")
    tab.click("main form button[type=submit]")
    tab.wait_for_url(lambda url: "/login" not in url)

    # The scorekeeper's tab, opened before: what it sends is refused, never done as the head judge.
    sk.locator("#quick-score").fill("20")
    sk.locator("#quick-score").press("Enter")
    expect(sk.locator("#quick-answer")).to_contain_text(HEAD_JUDGE[0])
    assert reported(site, event, 1) == 0
    # Back in view, the tab says whose browser it is now, and sends nothing more.
    sk.bring_to_front()
    sk.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(sk.locator("#session-changed")).to_contain_text(HEAD_JUDGE[0])
    expect(sk.locator("#session-changed")).to_contain_text(scorekeeper)
    sk.locator("#quick-score").fill("20")
    sk.locator("#quick-score").press("Enter")
    expect(sk.locator("#session-changed")).to_be_visible()
    assert reported(site, event, 1) == 0
    assert people.errors == []
