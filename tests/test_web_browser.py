"""The web app in a real browser (Playwright driving Debian's Chromium), as judges use it.

The app runs with uvicorn on a free port of 127.0.0.1 on a fresh SQLite file, and again on a
fresh PostgreSQL schema (skipped without a server, except under CI). Each person is a
browser context of their own; every request any page makes is recorded, and the test fails
if one goes anywhere but this server, if a dialog opens or if a page throws.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from shinpan.engine.event_rules import Role
from shinpan.files.csvio import parse_pairings, parse_players
from shinpan.services import accounts, events
from shinpan.services.queries import player_history
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    FLOOR_JUDGE,
    HEAD_JUDGE,
    PHONE,
    SCOREKEEPER,
    XSS_NAME,
    LiveServer,
    database_url,
    network_back,
    network_down,
    pairings_csv,
    player_table,
    players_csv,
    save_record,
)

VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
TIMEOUT_MS = 10_000
expect.set_options(timeout=TIMEOUT_MS)


@dataclass
class Site:
    """The app on a real port, and its database (the same one the server writes)."""

    url: str
    db: Database
    backend: str
    names: Iterator[int] = field(default_factory=itertools.count)

    def unique(self, name: str) -> str:
        return f"{name} {next(self.names)}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with database_url(request.param, tmp_path_factory.mktemp("browser")) as url:
        db = Database(url)
        try:
            accounts.add_user(db, *HEAD_JUDGE)
            with LiveServer(create_app(db)) as server:
                yield Site(server.url, db, request.param)
        finally:
            db.close()


class People:
    """One browser context per person; what their pages asked for, and what went wrong."""

    def __init__(self, browser: Browser, site: Site) -> None:
        self.browser, self.site = browser, site
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.pages: list[Page] = []

    def open(self, viewport: dict[str, int], **options: Any) -> Page:
        """A new person's page (``options`` for the context: ``has_touch``, ``is_mobile``…)."""
        context = self.browser.new_context(
            viewport=viewport, base_url=self.site.url, locale="ja-JP", **options
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.on("request", lambda r: self.requests.append(r.url))
        page = context.new_page()
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self._console(m.type, m.text))
        self.pages.append(page)
        return page

    def _console(self, kind: str, text: str) -> None:
        if kind == "error" and "Content Security Policy" in text:
            self.errors.append(text)  # something tried to load from elsewhere, or inline code ran

    def elsewhere(self) -> list[str]:
        local = self.site.url + "/"
        return sorted({u for u in self.requests if not u.startswith((local, "data:"))})

    def close(self) -> None:
        for page in self.pages:
            page.context.close()


@pytest.fixture
def people(browser: Browser, site: Site) -> Iterator[People]:
    crowd = People(browser, site)
    try:
        yield crowd
    finally:
        crowd.close()
    assert crowd.requests, "no request was recorded"
    assert not crowd.elsewhere(), f"requests left the server: {crowd.elsewhere()}"
    assert not crowd.dialogs, f"a dialog opened: {crowd.dialogs}"
    assert not crowd.errors, f"a page threw: {crowd.errors}"


# -- steps ---------------------------------------------------------------------------------


def sign_in(page: Page, name: str, password: str) -> None:
    page.goto("/login")
    page.fill("main input[name=name]", name)
    page.fill("main input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url)


def switch_language(page: Page) -> None:
    """The switch is in the header's menu."""
    page.click("#menu summary")
    page.click("#lang-switch")


def csrf(page: Page) -> str:
    return page.locator("input[name=csrf_token]").first.input_value()


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """Call the JSON API as this page's person; the response's JSON, after checking it is 2xx."""
    if method == "GET":
        response = page.request.get(path)
    else:
        response = page.request.post(path, data=body, headers={"X-CSRF-Token": csrf(page)})
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json()


def invite(head_judge: Page, event: int, role: str) -> str:
    head_judge.goto(f"/events/{event}/invite")
    head_judge.select_option("select[name=role]", role)
    head_judge.click("form[action$='/invite'] button[type=submit]")
    return head_judge.locator("code.code").inner_text().strip()


def join(page: Page, code: str, name: str, pin: str) -> None:
    page.goto(f"/join/{code}")
    expect(page.locator("main h1")).to_have_text("大会に参加")
    page.fill("main input[name=name]", name)
    page.fill("main input[name=pin]", pin)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/join/" not in url)


def choose(page: Page, search: str, player: str, infraction_search: str, infraction: str) -> None:
    """On the record screen: find the player, pick the infraction, wait for the ruling."""
    page.fill("#player-search", search)
    page.locator(f".player-pick[data-player='{player}']").click()
    page.fill("#infraction-search", infraction_search)
    page.locator(f".infraction-pick[data-infraction='{infraction}']").click()
    expect(page.locator("#preview .ruling-preview")).to_be_visible()
    expect(page.locator("#save")).to_be_enabled()


def _uid(db: Database, name: str) -> str:
    account = accounts.account_named(db, name)
    assert account is not None
    return account.uid


def quick_event(site: Site, rows: list[tuple[str, str, str]]) -> tuple[int, str]:
    """An event made through the services, round 1 paired, with a floor judge: (event, judge)."""
    e = events.create_event(
        site.db,
        name=site.unique("速い大会"),
        head_judge=HEAD_JUDGE[0],
        head_judge_level=HEAD_JUDGE[2],
        head_judge_account=_uid(site.db, HEAD_JUDGE[0]),
    )
    events.import_players(site.db, e, parse_players(players_csv(rows)))
    numbers = [n for n, _, _ in rows]
    events.import_pairings(site.db, e, 1, parse_pairings(pairings_csv(numbers[: len(numbers) // 2 * 2])))
    judge = site.unique(FLOOR_JUDGE[0])
    accounts.join(
        site.db, accounts.invite(site.db, e, Role.floor_judge, HEAD_JUDGE[0]), judge, FLOOR_JUDGE[1]
    )
    return e, judge


def rulings_of(site: Site, event: int, player: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = player_history(site.db, event, player)["rulings"]
    return found


# -- the floor, the desk and the scorekeeper -----------------------------------------------


@VIEWPORTS
def test_a_second_offence_goes_from_the_floor_to_the_desk_and_the_match(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    # The head judge signs in and creates the event; players come from a CSV.
    hj = people.open(viewport)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    hj.fill("form[action='/events'] input[name=name]", site.unique("冬の大会"))
    hj.click("form[action='/events'] button[type=submit]")
    hj.wait_for_url(re.compile(r"/events/\d+/desk$"))
    event = int(re.findall(r"/events/(\d+)/desk", hj.url)[0])
    rows = player_table(8)
    imported = hj.request.post(
        f"{site.url}/api/events/{event}/players",
        headers={"X-CSRF-Token": csrf(hj)},
        multipart={
            "file": {"name": "players.csv", "mimeType": "text/csv", "buffer": players_csv(rows)},
            "command_id": f"players-{event}",
        },
    )
    assert imported.ok, imported.text()

    # The scorekeeper joins with a code and imports round 1's pairings.
    sk = people.open(viewport)
    join(sk, invite(hj, event, "scorekeeper"), site.unique(SCOREKEEPER[0]), SCOREKEEPER[1])
    expect(sk).to_have_url(re.compile(rf"/events/{event}/scorekeeper$"))
    upload = "form[action$='/scorekeeper/pairings']"
    sk.set_input_files(
        f"{upload} input[name=file]",
        files=[
            {"name": "round1.csv", "mimeType": "text/csv", "buffer": pairings_csv([n for n, _, _ in rows])}
        ],
    )
    sk.click(f"{upload} button[type=submit]")
    expect(sk.locator("#match-2")).to_contain_text("P003")
    expect(sk.locator("#match-2 .duel")).to_have_count(0)

    # P003 (高橋 翔太, table 2 against P004) was warned for slow play once; confirmed.
    first = api(
        hj,
        "POST",
        f"/api/events/{event}/rulings",
        {"command_id": f"first-slow-play-{event}", "player": "P003", "infraction": "ingame.slow-play"},
    )
    api(
        hj,
        "POST",
        f"/api/events/{event}/rulings/{first['rulings'][0]['number']}/confirm",
        {"command_id": f"confirm-first-{event}"},
    )

    # The floor judge joins from the phone and lands on the record screen.
    fj = people.open(viewport)
    join(fj, invite(hj, event, "floor_judge"), site.unique(FLOOR_JUDGE[0]), FLOOR_JUDGE[1])
    expect(fj).to_have_url(re.compile(rf"/events/{event}/record$"))

    # The head judge's desk is open, listening.
    with hj.expect_response(lambda r: r.url.endswith(f"/api/events/{event}/stream")):
        hj.goto(f"/events/{event}/desk")
    hj.evaluate("window.__sameDocument = true")
    expect(hj.locator("#queue .count")).to_have_text("0")

    # Find the player by kana, pick slow play: the preview shows the escalated penalty.
    choose(fj, "たかはし しょうた", "P003", "おそい", "ingame.slow-play")
    expect(fj.locator("#chosen-player")).to_contain_text("高橋 翔太")
    preview = fj.locator("#preview .ruling-preview")
    expect(preview.locator(".offense-number")).to_have_text("2回目")
    expect(preview.locator(".penalty")).to_contain_text("警1")
    expect(preview.locator(".penalty")).to_contain_text("デ敗")
    expect(preview).to_contain_text("ヘッドジャッジの承認待ち")
    save_record(fj)
    expect(fj.locator("#result")).to_contain_text("記録しました")
    number = int(re.findall(r"#(\d+)", fj.locator("#result").inner_text())[0])

    # The desk shows it without a reload.
    queued = hj.locator(f"#queue-{number}")
    expect(queued).to_contain_text("P003", timeout=15_000)
    expect(queued).to_contain_text("デ敗")
    expect(hj.locator("#queue .count")).to_have_text("1")
    assert hj.evaluate("window.__sameDocument === true"), "the desk reloaded"

    # The floor judge sees the queue but cannot confirm, by the page or by the API.
    fj.goto(f"/events/{event}/desk")
    expect(fj.locator(f"#queue-{number}")).to_be_visible()
    expect(fj.locator("button.confirm")).to_have_count(0)
    token = csrf(fj)
    by_api = fj.request.post(
        f"{site.url}/api/events/{event}/rulings/{number}/confirm",
        data={"command_id": f"fj-confirm-{number}"},
        headers={"X-CSRF-Token": token},
    )
    assert by_api.status == 403, by_api.text()
    by_page = fj.request.post(
        f"{site.url}/events/{event}/desk/confirm/{number}",
        form={"csrf_token": token, "command_id": f"confirm-{number}-fj"},
    )
    assert by_page.status == 403, by_page.text()
    assert api(hj, "GET", f"/api/events/{event}/rulings/{number}")["state"] == "pending"

    # The head judge confirms: the queue empties and the ruling is confirmed.
    queued.locator("button.confirm").click()
    expect(hj.locator(f"#queue-{number}")).to_have_count(0)
    expect(hj.locator("#queue .count")).to_have_text("0")
    expect(hj.locator(f"#ruling-{number}")).to_have_class(re.compile(r"\bstate-confirmed\b"))
    assert api(hj, "GET", f"/api/events/{event}/rulings/{number}")["state"] == "confirmed"
    assert api(hj, "GET", f"/api/events/{event}/rulings?state=pending") == []
    assert hj.evaluate("window.__sameDocument === true"), "the desk reloaded"

    # The duel loss is on the scorekeeper's match: P004 won duel 1 at table 2.
    sk.goto(f"/events/{event}/scorekeeper")
    expect(sk.locator("#match-2 .duel.penalty")).to_contain_text("デュエル1: 田中 翔太の勝ち")
    table = next(m for m in api(sk, "GET", f"/api/events/{event}/rounds/1")["matches"] if m["table"] == 2)
    assert table["duels"] == [{"duel": 1, "winner": "P004"}]


def test_a_player_named_like_a_script_is_shown_as_text(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(3))
    hj = people.open(DESKTOP)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    hj.goto(f"/events/{event}/desk")
    csv = players_csv([("X001", XSS_NAME, "すくりぷと たろう")])
    assert XSS_NAME.encode() in csv
    imported = hj.request.post(
        f"/api/events/{event}/players",
        headers={"X-CSRF-Token": csrf(hj)},
        multipart={
            "file": {"name": "players.csv", "mimeType": "text/csv", "buffer": csv},
            "command_id": f"xss-players-{event}",
        },
    )
    assert imported.ok and imported.json() == {"imported": 1}, imported.text()

    fj = people.open(PHONE)
    sign_in(fj, judge, FLOOR_JUDGE[1])
    fj.goto(f"/events/{event}/record")
    choose(fj, "すくりぷと", "X001", "cards-off", "ingame.cards-off-table")
    expect(fj.locator(".player-pick[data-player='X001']")).to_contain_text(XSS_NAME)
    expect(fj.locator("#chosen-player")).to_contain_text(XSS_NAME)
    save_record(fj)
    expect(fj.locator("#result")).to_contain_text("X001")

    for page in (fj, hj):
        page.goto(f"/events/{event}/players/X001")
        expect(page.locator("main h1")).to_contain_text(XSS_NAME)
        expect(page.get_by_text(XSS_NAME)).to_be_visible()
        assert XSS_NAME in page.title()
        assert page.locator("script:not([src])").count() == 0, "a script element came from the data"
    assert len(rulings_of(site, event, "X001")) == 1


def test_the_language_switch_is_remembered(site: Site, people: People) -> None:
    event, _ = quick_event(site, player_table(4))
    hj = people.open(DESKTOP)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    hj.goto(f"/events/{event}/desk")
    expect(hj.locator("html")).to_have_attribute("lang", "ja")
    expect(hj.locator("main h1")).to_have_text("ヘッドジャッジデスク")
    switch_language(hj)
    expect(hj).to_have_url(re.compile(rf"/events/{event}/desk$"))
    expect(hj.locator("html")).to_have_attribute("lang", "en")
    expect(hj.locator("main h1")).to_have_text("Head judge desk")
    expect(hj.locator("#lang-switch")).to_have_text("日本語")

    hj.click(f".event-nav a[href='/events/{event}/record']")
    expect(hj.locator("#step-player h2")).to_have_text("1. Player")
    expect(hj.locator(".infraction-pick[data-infraction='ingame.slow-play'] strong")).to_have_text(
        "Slow play"
    )
    hj.goto("/guideline")
    expect(hj.get_by_role("heading", name="General rules")).to_be_visible()
    assert {"name": "lang", "value": "en"}.items() <= next(
        c for c in hj.context.cookies() if c["name"] == "lang"
    ).items()

    other = people.open(DESKTOP)  # another person's browser keeps Japanese
    other.goto("/guideline")
    expect(other.locator("html")).to_have_attribute("lang", "ja")

    switch_language(hj)
    expect(hj.locator("html")).to_have_attribute("lang", "ja")
    expect(hj.get_by_role("heading", name="一般規定")).to_be_visible()


# -- no network ----------------------------------------------------------------------------

_SEND_TWICE = """async ([eventId, item, token]) => {
  const send = () => fetch(`/api/events/${eventId}/rulings`, {
    method: "POST", credentials: "same-origin", body: JSON.stringify(item),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
  }).then(async (r) => [r.status, await r.json()]);
  return Promise.all([send(), send()]);
}"""


def test_a_record_made_offline_waits_on_the_phone_and_is_sent_once(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(6))
    fj = people.open(PHONE)
    sign_in(fj, judge, FLOOR_JUDGE[1])
    fj.goto(f"/events/{event}/record")
    choose(fj, "P005", "P005", "cards-off", "ingame.cards-off-table")

    # The server cannot be reached: the record stays on the phone, and the page says so.
    network_down(fj)
    save_record(fj)
    expect(fj.locator("#result")).to_contain_text("未送信")
    expect(fj.locator("#result")).to_have_class("flash warn")  # kept, not an error
    expect(fj.locator("#result")).to_have_attribute("role", "status")
    expect(fj.locator("#offline")).to_be_visible()
    expect(fj.locator("#queued")).to_have_text("(1)")
    stored = [s["body"] for s in fj.evaluate(f"JSON.parse(localStorage.getItem('shinpan-queue-{event}'))")]
    assert [(s["player"], s["infraction"]) for s in stored] == [("P005", "ingame.cards-off-table")]
    assert rulings_of(site, event, "P005") == []

    # Back online: it is sent, once.
    network_back(fj)
    expect(fj.locator("#result")).to_contain_text("記録しました", timeout=15_000)
    expect(fj.locator("#offline")).to_be_hidden()
    assert fj.evaluate(f"JSON.parse(localStorage.getItem('shinpan-queue-{event}'))") == []
    saved = api(fj, "GET", f"/api/events/{event}/players/P005")["rulings"]
    assert len(saved) == 1
    number = saved[0]["number"]

    # Sent again, twice at once, with the same command id: still that one ruling.
    token = csrf(fj)
    for status, body in fj.evaluate(_SEND_TWICE, [event, stored[0], token]):
        assert status == 201, body
        assert body["replayed"] is True and body["rulings"][0]["number"] == number
    # A new command sent twice at once: one ruling, and one of the answers is the replay.
    fresh = {**stored[0], "command_id": f"double-tap-{event}"}
    answers = fj.evaluate(_SEND_TWICE, [event, fresh, token])
    assert [a[0] for a in answers] == [201, 201]
    assert sorted(a[1]["replayed"] for a in answers) == [False, True]
    assert answers[0][1]["rulings"] == answers[1][1]["rulings"]
    assert len(api(fj, "GET", f"/api/events/{event}/players/P005")["rulings"]) == 2
    assert len(rulings_of(site, event, "P005")) == 2


def test_a_queued_record_outlives_a_server_error(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(4))
    fj = people.open(PHONE)
    sign_in(fj, judge, FLOOR_JUDGE[1])
    fj.goto(f"/events/{event}/record")
    choose(fj, "P002", "P002", "cards-off", "ingame.cards-off-table")
    network_down(fj)
    save_record(fj)
    expect(fj.locator("#result")).to_contain_text("未送信")

    answered: list[int] = []

    def busy_once(route: Any) -> None:  # the first attempt meets a server in trouble
        if answered:
            route.continue_()
            return
        answered.append(503)
        route.fulfill(status=503, json={"detail": "データベースが使用中です"})

    fj.context.route("**/api/events/*/rulings", busy_once)  # the service worker sends it
    network_back(fj)
    expect(fj.locator("#result")).to_contain_text("データベースが使用中です")
    expect(fj.locator("#offline")).to_be_visible()  # still kept on the phone
    assert len(fj.evaluate(f"JSON.parse(localStorage.getItem('shinpan-queue-{event}'))")) == 1
    expect(fj.locator("#result")).to_contain_text("記録しました", timeout=15_000)  # the next try
    expect(fj.locator("#offline")).to_be_hidden()
    assert answered == [503]
    assert len(rulings_of(site, event, "P002")) == 1


def desk_settled(page: Page) -> None:
    """The desk heard the stream's first word and drew what it asked for: nothing is on its way."""
    expect(page.locator("#live[data-heard]")).to_have_count(1, timeout=15_000)
    expect(page.locator("#panels")).not_to_have_attribute("aria-busy", "true", timeout=15_000)


def test_a_ruling_redraws_only_the_desks_panels_it_touched(site: Site, people: People) -> None:
    from shinpan.services import recording

    event, _ = quick_event(site, player_table(8))
    hj = people.open(DESKTOP)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    with hj.expect_response(lambda r: r.url.endswith(f"/api/events/{event}/stream")):
        hj.goto(f"/events/{event}/desk")
    desk_settled(hj)  # the stream's first word heard, and any catch-up it asked for drawn
    hj.evaluate("for (const id of ['appeals', 'feed']) document.getElementById(id).__drawn = true")
    asked: list[str] = []
    hj.on("request", lambda r: asked.append(r.url) if "/desk/panels" in r.url else None)

    # A ruling recorded elsewhere (no appeal can be against it yet) reaches the feed.
    saved = recording.record(site.db, event, recording.RecordInput("P001", "ingame.cards-off-table"))
    expect(hj.locator(f"#ruling-{saved.rulings[0]['number']}")).to_contain_text("佐藤 翔太", timeout=15_000)
    assert hj.evaluate("document.getElementById('feed').__drawn === undefined"), "the feed was redrawn"
    assert hj.evaluate("document.getElementById('appeals').__drawn === true"), "the appeals were sent again"
    assert asked and all("only=" in u and "appeals" not in u for u in asked), asked


def test_a_desk_refresh_answered_late_never_undoes_a_newer_one(site: Site, people: People) -> None:
    """Venue Wi-Fi: the desk's refresh for a ruling recorded elsewhere is answered late,
    after the head judge voided another ruling from the desk. The desk keeps the void, not
    the older answer that came last; the late answer's ruling is shown all the same."""
    from shinpan.services import recording

    event, _ = quick_event(site, player_table(8))
    first = recording.record(site.db, event, recording.RecordInput("P001", "ingame.cards-off-table"))
    voided = first.rulings[0]["number"]
    hj = people.open(DESKTOP)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    with hj.expect_response(lambda r: r.url.endswith(f"/api/events/{event}/stream")):
        hj.goto(f"/events/{event}/desk")
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:  # the first: the server answers now, the phone hears it later
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    hj.route("**/desk/panels?only=*", hold)
    later = recording.record(site.db, event, recording.RecordInput("P003", "ingame.cards-off-table"))
    deadline = time.monotonic() + 45  # a loaded machine: the stream, then the desk's request
    while not held and time.monotonic() < deadline:
        hj.wait_for_timeout(100)
    assert held, "the desk asked for the panels the ruling touched"

    hj.locator(f"#ruling-{voided} details.correct summary").click()
    void = hj.locator(f"#ruling-{voided} form.void")
    void.locator("textarea[name=reason]").fill("記録の誤り")
    void.locator("button[type=submit]").click()
    row = hj.locator(f"#ruling-{voided}")
    expect(row).to_have_class(re.compile(r"\bstate-voided\b"))

    # Every state the voided ruling's row shows from now on, as the page draws it.
    hj.evaluate(
        """id => { window.seen = []; new MutationObserver(() => {
             const row = document.getElementById(id); if (row) window.seen.push(row.className);
           }).observe(document.body, {subtree: true, childList: true, attributes: true}); }""",
        f"ruling-{voided}",
    )
    route, stale = held[0]  # drawn before the void
    with hj.expect_response(lambda r: "/desk/panels?only=" in r.url):
        route.fulfill(response=stale)
    expect(hj.locator(f"#ruling-{later.rulings[0]['number']}")).to_be_visible()
    hj.wait_for_timeout(500)
    expect(row).to_have_class(re.compile(r"\bstate-voided\b"))
    assert "state-recorded" not in hj.evaluate("window.seen"), "the older answer never showed"
