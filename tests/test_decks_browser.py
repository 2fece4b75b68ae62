# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""A deck check in a real browser (T13), SQLite and PostgreSQL: the head judge registers a list
on the Players page at 1366×900 (one with a problem named by line); a floor judge on a 390×844
phone starts the check of a table, enters what the deck holds, ends it, records the proposed
ruling citing the check, gives the table its extension and marks the deck corrected.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from shinpan.services import deck_rules, deckchecks, decklists, rounds
from shinpan.store.connection import Statement
from shinpan.tournament.decks import Decklist
from test_web_browser import People, Site, browser, people, quick_event, rulings_of, sign_in, site  # noqa: F401
from web_support import FLOOR_JUDGE, HEAD_JUDGE, PHONE, network_back, network_down, player_table

DESK = {"width": 1366, "height": 900}


def listing(prefix: str) -> str:
    main = "\n".join(["4 稲妻", *[f"1 {prefix} Card {i}" for i in range(56)]])
    return f"メイン\n{main}\n\nサイド\n3 Duress\n"


def test_a_deck_check_from_the_players_page_to_the_ruling(site: Site, people: People) -> None:
    rows = player_table(4)
    event, judge = quick_event(site, rows)
    p1, p2, p3 = rows[0][0], rows[1][0], rows[2][0]
    deck_rules.set_rules(site.db, event)

    desk = people.open(DESK)
    sign_in(desk, HEAD_JUDGE[0], HEAD_JUDGE[1])
    desk.goto(f"/events/{event}/players")
    desk.fill("#decklist-player", p1)
    desk.fill("#decklist-text", listing(p1))
    desk.click("#register-decklist")
    expect(desk.locator(".flash.ok")).to_contain_text(p1)
    desk.fill("#decklist-player", p3)
    desk.fill("#decklist-text", listing(p3).replace("4 稲妻", "5 稲妻"))
    desk.click("#register-decklist")
    expect(desk.locator(".flash.ok")).to_contain_text("問題")
    expect(desk.locator(f"#player-{p1} .decklist")).to_have_attribute("data-decklist", "registered")
    expect(desk.locator(f"#player-{p3} .decklist")).to_have_attribute("data-decklist", "illegal")
    expect(desk.locator(f"#player-{p2} .decklist")).to_have_attribute("data-decklist", "missing")
    decklists.submit(
        site.db,
        event,
        p2,
        Decklist.of(
            {"main": [(4, "稲妻"), *[(1, f"{p2} Card {i}") for i in range(56)]], "side": [(3, "Duress")]}
        ),
    )
    rounds.start_round(site.db, event)

    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    sign_in(phone, judge, FLOOR_JUDGE[1])
    phone.goto(f"/events/{event}/deckcheck?round=1")
    phone.fill("#check-table", "1")
    phone.locator("#start-check").tap()
    expect(phone.locator(f"#deck-{p1} .count-form")).to_be_visible()
    # p1's deck: three 稲妻 and a Shock; the side as listed
    p1_form = phone.locator(f"#deck-{p1} .count-form")
    p1_form.locator("input[name=c_main_0]").fill("3")
    p1_form.locator("textarea[name=extra_main]").fill("1 Shock")
    p1_form.locator("input[name=matches_side]").check()
    p1_form.locator(".count-save").tap()
    expect(phone.locator(f"#deck-{p1} .differences .missing")).to_contain_text("稲妻")
    expect(phone.locator(f"#deck-{p1} .differences .extra")).to_contain_text("Shock")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.locator("#end-check").tap()
    expect(phone.locator("#check-minutes")).to_be_visible()
    expect(phone.locator(f"#deck-{p1} .proposed")).to_have_text("デッキとデッキリストが異なる")
    expect(phone.locator(f"#deck-{p2} .matches-list")).to_be_visible()

    phone.locator(f"#deck-{p1} .record-proposal").tap()
    phone.wait_for_url(lambda url: f"/players/{p1}" in url)
    mismatch = [r for r in rulings_of(site, event, p1) if r["rule"] == "deck.deck-decklist-mismatch"]
    assert [r["penalties"] for r in mismatch] == [["warning1", "duel_loss"]]

    phone.goto(f"/events/{event}/deckcheck?round=1&table=1")
    expect(phone.locator(".cited")).to_contain_text(p1)
    minutes = int(phone.locator("#check-minutes").inner_text())
    assert minutes >= 1  # seconds, rounded up to whole minutes (T13)
    phone.locator("#give-extension").tap()
    expect(phone.locator("#check-notice")).to_contain_text(f"{minutes}分延長")
    clock = rounds.round_clock(site.db, event)
    assert [g.minutes for t in clock.tables if t.table == 1 for g in t.time_given] == [minutes]
    phone.locator(f"#deck-{p1} .mark-corrected").tap()
    expect(phone.locator(f"#deck-{p1} .corrected")).to_be_visible()
    assert deckchecks.checks(site.db, event, 1)[0]["corrected"] == [p1]


def entries(site: Site) -> int:
    with site.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries").scalar(conn))


def check_kept(page: Page, url: str) -> None:
    """As ``kept_on_first_visit``: the worker this visit installed controls the page and keeps
    the deck check screen of the table (the page is not reloaded for it)."""
    deadline = time.monotonic() + 45  # a loaded machine
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = page.evaluate(
            "() => Promise.all([caches.open('shinpan-pages').then(c => c.keys()),"
            " navigator.serviceWorker.getRegistration()]).then(([ks, r]) => ({"
            " controlled: navigator.serviceWorker.controller !== null,"
            " worker: r ? [r.installing, r.waiting, r.active].map(w => w && w.state) : null,"
            " kept: ks.map(k => new URL(k.url).pathname + new URL(k.url).search) }))"
        )
        if seen["controlled"] and url in seen["kept"]:
            return
        time.sleep(0.1)
    raise AssertionError(f"the service worker did not keep the deck check screen: {seen}")


def test_the_deck_check_screen_works_through_a_wifi_drop(site: Site, people: People) -> None:
    rows = player_table(4)
    event, judge = quick_event(site, rows)
    p1, p2 = rows[0][0], rows[1][0]
    deck_rules.set_rules(site.db, event)
    for p in (p1, p2):
        decklists.submit(
            site.db,
            event,
            p,
            Decklist.of(
                {"main": [(4, "稲妻"), *[(1, f"{p} Card {i}") for i in range(56)]], "side": [(3, "Duress")]}
            ),
        )
    rounds.start_round(site.db, event)
    deckchecks.start(site.db, event, 1, 1)

    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    sign_in(phone, judge, FLOOR_JUDGE[1])
    screen = f"/events/{event}/deckcheck?round=1&table=1"
    phone.goto(screen)  # the first visit to the deck check screen
    check_kept(phone, screen)

    network_down(phone)
    phone.reload()  # offline: the kept screen, not the browser's error page
    p1_form = phone.locator(f"#deck-{p1} .count-form")
    expect(p1_form).to_be_visible()
    p1_form.locator("input[name=c_main_0]").fill("3")
    p1_form.locator("textarea[name=extra_main]").fill("1 Shock")
    p1_form.locator("input[name=matches_side]").check()
    p1_form.locator(".count-save").tap()
    expect(phone.locator(f"#deck-{p1} .kept-note")).to_be_visible()
    p2_form = phone.locator(f"#deck-{p2} .count-form")
    p2_form.locator("input[name=matches_main]").check()
    p2_form.locator("input[name=matches_side]").check()
    p2_form.locator(".count-save").tap()
    expect(phone.locator("#check-outbox .queued")).to_have_text("2")
    assert deckchecks.check_view(site.db, event, 1, 1)["counted"] == []
    before = entries(site)

    network_back(phone)
    expect(phone.locator("#check-outbox")).to_be_hidden(timeout=20_000)
    expect(phone.locator(f"#deck-{p1} .differences .missing")).to_contain_text("稲妻", timeout=20_000)
    expect(phone.locator(f"#deck-{p1} .differences .extra")).to_contain_text("Shock")
    expect(phone.locator(f"#deck-{p2} .matches-list")).to_be_visible()
    assert deckchecks.check_view(site.db, event, 1, 1)["counted"] == sorted([p1, p2])
    assert entries(site) == before + 2  # each count once
    phone.reload()  # online again: nothing is sent twice
    expect(phone.locator(f"#deck-{p1} .counted")).to_be_visible()
    expect(phone.locator("#check-outbox")).to_be_hidden()
    assert entries(site) == before + 2
