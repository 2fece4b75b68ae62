"""Issue 20's acceptance, a whole day at the venue, in Chromium over HTTPS: the browser trusts
the venue's own certificate authority the way a phone does, its certificate added to the
browser's certificate store (an NSS database made with ``certutil``), never by ignoring
certificate errors.

The head judge creates an event, imports a Shift_JIS CSV with one bad line (refused whole,
the line named in Japanese), fixes it, imports, adds a late entrant, invites a floor judge
(the QR's URL names one of the machine's own non-loopback addresses; the phone then opens
that path on 127.0.0.1, since tests only talk to loopback), pairs and starts round 1; the
floor judge opens the record screen for the first time, goes offline, reloads, records two
rulings, comes back online, and sees both once in 自分の記録. One test runs the whole day,
at 390×844 with touch and at 1366×900, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from shinpan.services import accounts, tls
from shinpan.services.network import lan_addresses
from shinpan.store.db import Database
from shinpan.web.app import create_app
from shinpan.web.venue import Venue
from test_venue_network import interface_addresses
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FLOOR_JUDGE,
    HEAD_JUDGE,
    PHONE,
    database_url,
    kept_on_first_visit,
    network_back,
    network_down,
    save_record,
)

TIMEOUT_MS = 15_000
LAPTOP = {"width": 1366, "height": 900}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
CERTUTIL = shutil.which("certutil")
pytestmark = pytest.mark.skipif(CERTUTIL is None, reason="certutil (Debian's libnss3-tools) is not installed")
expect.set_options(timeout=TIMEOUT_MS)

ROWS = [("1001", "田中 太郎", "タナカ タロウ"), ("1002", "髙橋 一", "たかはし はじめ"), ("1003", "山本 花", "ヤマモト ハナ"),
        ("1004", "①佐藤", "サトウ")]  # fmt: skip


def excel_csv(rows: list[tuple[str, str, str]]) -> bytes:
    return ("\r\n".join(["番号,名前,フリガナ", *(",".join(r) for r in rows)]) + "\r\n").encode("cp932")


@pytest.fixture(scope="module")
def authority(tmp_path_factory: pytest.TempPathFactory) -> tls.TlsFiles:
    return tls.ensure(tmp_path_factory.mktemp("venue") / "venue.tls", lan_addresses()).files


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


def _launch(playwright: Playwright, home: Path) -> Browser:
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        timeout=30_000,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture(scope="module")
def browser(
    playwright: Playwright, authority: tls.TlsFiles, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Browser]:
    """Chromium whose certificate store (``$HOME/.pki/nssdb``) trusts the authority, as a
    phone does once it installed it."""
    home = tmp_path_factory.mktemp("home")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    assert CERTUTIL is not None
    subprocess.run([CERTUTIL, "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, timeout=30)
    subprocess.run(
        [
            CERTUTIL,
            "-A",
            "-d",
            f"sql:{nssdb}",
            "-n",
            "shinpan venue CA",
            "-t",
            "C,,",
            "-i",
            str(authority.ca_cert),
        ],
        check=True,
        timeout=30,
    )
    chromium = _launch(playwright, home)
    try:
        yield chromium
    finally:
        chromium.close()


class TlsServer:
    """The app served over TLS by uvicorn on 127.0.0.1, in a thread of this process."""

    def __init__(self, app: Any, files: tls.TlsFiles) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"https://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(
            app,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=2,
            ssl_certfile=str(files.cert),
            ssl_keyfile=str(files.key),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> TlsServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def site(
    request: pytest.FixtureRequest, authority: tls.TlsFiles, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with database_url(request.param, tmp_path_factory.mktemp("db")) as url:
        db = Database(url)
        try:
            accounts.add_user(db, *HEAD_JUDGE)
            app = create_app(db, secure_cookies=True)
            Venue(lan_addresses(), tls_dir=str(authority.folder)).apply(app)
            with TlsServer(app, authority) as server:
                yield server.url
        finally:
            db.close()


def _page(browser: Browser, url: str, viewport: dict[str, int], **options: Any) -> Page:
    context = browser.new_context(viewport=viewport, base_url=url, locale="ja-JP", **options)
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def fits(page: Page) -> None:
    """No part of the page is wider than the screen (nothing to scroll sideways)."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _choose_file(page: Page, data: bytes) -> None:
    # The roster's form: the players page also has a decklist's file input.
    page.locator('form:has(#preview-import) input[name="file"]').set_input_files(
        files=[{"name": "名簿.csv", "mimeType": "text/csv", "buffer": data}]
    )
    page.locator("#preview-import").click()


@VIEWPORTS
def test_a_day_at_the_venue_from_the_browser_over_https(
    browser: Browser, site: str, viewport: dict[str, int]
) -> None:
    touch = {"has_touch": True, "is_mobile": True} if viewport is PHONE else {}
    head = _page(browser, site, viewport, **touch)
    try:
        head.goto("/login")  # over https, no certificate error: the authority is trusted
        assert head.url.startswith("https://127.0.0.1:")
        head.locator('form[action="/login"] input[name="name"]').fill(HEAD_JUDGE[0])
        head.locator('form[action="/login"] input[name="password"]').fill(HEAD_JUDGE[1])
        head.locator('form[action="/login"] button[type="submit"]').click()
        name = f"受け入れ大会 {viewport['width']}"
        head.locator('form[action="/events"] input[name="name"]').fill(name)
        head.locator('form[action="/events"] button[type="submit"]').click()
        head.wait_for_url(re.compile(r"/events/\d+/desk$"))
        event = int(re.findall(r"/events/(\d+)/", head.url)[0])

        head.locator(f'.event-nav a[href="/events/{event}/players"]').click()  # from the desk
        expect(head.locator("#no-players")).to_be_visible()
        bad = [*ROWS[:2], ("1003", "山本 花", "Yamamoto"), ROWS[3]]
        _choose_file(head, excel_csv(bad))
        problems = head.locator("#preview-problems")
        expect(problems).to_contain_text("何も登録していません")
        expect(problems).to_contain_text("4行目 「フリガナ」: ひらがなかカタカナで書いてください")
        fits(head)
        _choose_file(head, excel_csv(ROWS))  # fixed
        expect(head.locator("#preview-summary")).to_contain_text("4人を登録します")
        fits(head)
        head.locator("#confirm-import").click()
        expect(head.locator(".flash.ok")).to_contain_text("4人を登録しました")
        expect(head.locator("#player-count")).to_have_text("4")

        form = head.locator("form.add-player")
        for field, value in (("number", "1005"), ("name", "遅刻 次郎"), ("reading", "ちこく じろう")):
            form.locator(f'input[name="{field}"]').fill(value)
        head.locator("#add-player").click()
        expect(head.locator(".flash.ok")).to_contain_text("遅刻 次郎（1005）を登録しました")
        expect(head.locator("#player-count")).to_have_text("5")
        fits(head)

        head.goto(f"/events/{event}/invite")
        head.locator('form[action$="/invite"] select[name="role"]').select_option("floor_judge")
        head.locator("#make-code").click()
        expect(head.locator("#invited-role")).to_contain_text(f"「{name}」にフロアジャッジとして")
        url = head.locator("#invite-qr").get_attribute("data-url") or ""
        invited = urlsplit(url)
        assert invited.scheme == "https" and invited.port == urlsplit(site).port
        assert invited.hostname in interface_addresses() and not invited.hostname.startswith("127."), url
        expect(head.locator("#invite-where")).to_contain_text(invited.hostname)
        fits(head)
        head.locator("#invite-where a[href='/ca']").click()
        expect(head.locator("#ca-download")).to_have_attribute("href", "/ca.crt")
        fits(head)

        head.goto(f"/events/{event}/scorekeeper")
        head.locator("#pair-next").click()
        expect(head.locator(".flash.ok")).to_contain_text("1")
        head.locator("#start-round").click()
        expect(head.locator(".round-head h1")).to_contain_text("ラウンド 1")
        expect(head.locator(".round-head .tag")).to_have_class(re.compile("state-started"))
        expect(head.locator(".countdown")).to_be_visible()

        phone = _page(browser, site, PHONE, has_touch=True, is_mobile=True)
        try:
            a_floor_judges_round(phone, invited.path, event, name, viewport)
        finally:
            phone.context.close()
        recorded = head.evaluate(f"fetch('/api/events/{event}/rulings').then(r => r.json())")  # each once
        assert sorted((r["player"], r["rule"]) for r in recorded) == [
            ("1001", "ingame.cards-off-table"),
            ("1004", "ingame.slow-play"),
        ]
    finally:
        head.context.close()


def _pick(page: Page, search: str, player: str, infraction_search: str, infraction: str) -> None:
    page.fill("#player-search", search)
    page.locator(f".player-pick[data-player='{player}']").tap()
    page.fill("#infraction-search", infraction_search)
    page.locator(f".infraction-pick[data-infraction='{infraction}']").tap()
    expect(page.locator("#preview .offline-preview")).to_be_visible()  # nothing decided on the phone


def a_floor_judges_round(phone: Page, path: str, event: int, name: str, viewport: dict[str, int]) -> None:
    """The invited floor judge joins from the QR's path (on loopback), which opens the record
    screen for the first time; the Wi-Fi drops, the page is reloaded, two rulings are recorded;
    back online, each is sent once and 自分の記録 lists both, once."""
    phone.goto(path)
    expect(phone.locator("#join-invitation")).to_contain_text(f"「{name}」にフロアジャッジとして招待")
    fits(phone)
    phone.locator('input[name="name"]').fill(f"{FLOOR_JUDGE[0]} {viewport['width']}")
    phone.locator('input[name="pin"]').fill(FLOOR_JUDGE[1])
    phone.locator('button[type="submit"].primary').tap()
    phone.wait_for_url(re.compile(rf"/events/{event}/record$"))
    kept_on_first_visit(phone, event)  # over https: the worker runs only on a trusted origin
    fits(phone)

    network_down(phone)
    phone.reload()  # offline: the kept screen, not the browser's error page
    expect(phone.locator("#record-form")).to_be_visible()
    _pick(phone, "1001", "1001", "テーブルの上", "ingame.cards-off-table")
    save_record(phone, tap=True)
    expect(phone.locator("#result")).to_contain_text("未送信")
    _pick(phone, "1004", "1004", "ひどく遅い", "ingame.slow-play")
    save_record(phone, tap=True)
    expect(phone.locator("#outbox li")).to_have_count(2)

    network_back(phone)
    expect(phone.locator("#outbox")).to_be_hidden(timeout=30_000)
    mine = phone.locator("#mine-list .mine-item")
    expect(mine).to_have_count(2)
    expect(mine.filter(has_text="田中 太郎")).to_have_count(1)
    expect(mine.filter(has_text="①佐藤").filter(has_text="ひどく遅いプレイ")).to_have_count(1)
    phone.reload()  # online again: nothing is sent twice
    expect(mine).to_have_count(2)
    fits(phone)


def test_a_browser_without_the_authority_refuses_the_server(
    playwright: Playwright, site: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The trust above is the authority's doing: the same browser without it stops."""
    chromium = _launch(playwright, tmp_path_factory.mktemp("stranger"))
    try:
        page = chromium.new_page()
        with pytest.raises(PlaywrightError, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"{site}/login", timeout=TIMEOUT_MS)
    finally:
        chromium.close()
