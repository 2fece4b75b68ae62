"""A phone lost at the venue is cut off in one tap, after a confirmation,
in a real browser (Playwright driving Debian's Chromium) at a phone's 390×844, on SQLite and
on PostgreSQL. The head judge's phone and the floor judge's are browser contexts of their own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import CHROMIUM, CHROMIUM_ARGS, FLOOR_JUDGE, HEAD_JUDGE, PHONE, LiveServer, database_url

TIMEOUT_MS = 10_000
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(params=["sqlite", "postgres"])
def venue(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, int]]:
    with database_url(request.param, tmp_path_factory.mktemp("cut-off")) as url:
        db = Database(url)
        try:
            head = accounts.add_user(db, *HEAD_JUDGE)
            event = events.create_event(
                db, name="テスト大会", head_judge=head.name, head_judge_level=2, head_judge_account=head.uid
            )
            accounts.join(db, accounts.invite(db, event, Role.floor_judge, head.name), *FLOOR_JUDGE)
            with LiveServer(create_app(db)) as server:
                yield server.url, event
        finally:
            db.close()


def _phone(browser: Browser, base: str, name: str, password: str) -> Page:
    context = browser.new_context(
        viewport=PHONE, base_url=base, locale="ja-JP", has_touch=True, is_mobile=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/login")
    page.fill("main input[name=name]", name)
    page.fill("main input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url)
    return page


def test_the_head_judge_cuts_off_a_lost_phone_in_one_tap(browser: Browser, venue: tuple[str, int]) -> None:
    base, event = venue
    lost = _phone(browser, base, *FLOOR_JUDGE)
    lost.goto("/sessions")
    expect(lost.locator("h1")).to_have_text("ログイン中の端末")
    head = _phone(browser, base, HEAD_JUDGE[0], HEAD_JUDGE[1])
    try:
        head.goto(f"/events/{event}/desk")
        head.locator(".event-nav a", has_text="端末").tap()
        expect(head.locator("h1")).to_have_text("ジャッジの端末")
        card = head.locator(f'section.judge[data-seat="{FLOOR_JUDGE[0]}"]')
        expect(card.locator("li.session")).to_have_count(1)
        confirm = card.locator("button.danger")
        expect(confirm).to_be_hidden()  # nothing ends by a stray tap
        card.locator("summary", has_text="この端末をサインアウトさせる").tap()
        expect(card.locator(".end-session p")).to_contain_text("すぐにサインアウトされます")
        expect(confirm).to_be_visible()
        box = confirm.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["height"] >= 40  # a thumb hits it
        confirm.tap()
        expect(head.locator("[role=status]")).to_have_text("その端末をサインアウトさせました。")
        expect(head.locator(f'section.judge[data-seat="{FLOOR_JUDGE[0]}"]')).to_contain_text(
            "どの端末でもサインインしていません"
        )
        width = head.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a 390 px phone"
        # the lost phone is signed out: its next page asks it to sign in
        lost.reload()
        expect(lost).to_have_url(f"{base}/login?next=/sessions")
        # and the head judge is still signed in
        head.goto(f"/events/{event}/desk")
        expect(head).to_have_url(f"{base}/events/{event}/desk")
    finally:
        head.context.close()
        lost.context.close()
