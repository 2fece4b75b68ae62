# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""The players' view in a real browser (T12): a player with no account finds their table on
a 390×844 phone by reading and by handle and sees no penalty anywhere; the wall screen at
1920×1080 counts the round down and shows a table given time. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from shinpan.files.csvio import PlayerRow
from shinpan.services import accounts, events, publish, recording, rounds
from shinpan.services.scoresheet import round_sheet
from shinpan.services.swiss import pair_next_round
from test_players_view import ruling_words
from test_web_browser import People, Site, browser, people, site  # noqa: F401
from web_support import HEAD_JUDGE, PHONE

WALL = {"width": 1920, "height": 1080}
NOTE = "相手のデッキを触ったとの申告"
PLAYERS = [
    ("2001", "小林 さくら", "こばやし さくら", "sakura_k"),
    ("2002", "中村 蓮", "なかむら れん", "RenRen"),
    ("2003", "山本 陽翔", "やまもと はると", None),
    ("2004", "加藤 結菜", "かとう ゆな", "yuna-k"),
    ("2005", "吉田 悠真", "よしだ ゆうま", "yuma"),
    ("2006", "山口 芽依", "やまぐち めい", "mei"),
]


def _event(site: Site) -> tuple[int, int, int]:
    """Round 1 paired and started; a warning with a note on 小林 さくら, time given to the
    table of 吉田 悠真. (event, 小林's table, 吉田's table)"""
    hj = accounts.account_named(site.db, HEAD_JUDGE[0])
    assert hj is not None
    e = events.create_event(
        site.db,
        name=site.unique("公開テスト大会"),
        head_judge=HEAD_JUDGE[0],
        head_judge_level=HEAD_JUDGE[2],
        head_judge_account=hj.uid,
    )
    events.import_players(site.db, e, [PlayerRow(n, name, r, None, h) for n, name, r, h in PLAYERS])
    pair_next_round(site.db, e, seed=5)
    rounds.start_round(site.db, e, minutes=50)
    recording.record(
        site.db, e, recording.RecordInput(player="2001", infraction="ingame.slow-play", note=NOTE)
    )
    tables = {r.a.number: r.table for r in round_sheet(site.db, e).rows} | {
        r.b.number: r.table for r in round_sheet(site.db, e).rows if r.b is not None
    }
    rounds.give_time(site.db, e, tables["2005"], 8, "デッキチェック")
    return e, tables["2001"], tables["2005"]


def _no_judges_words(page: Page, site: Site, event: int) -> None:
    text = page.locator("body").inner_text()
    judges = (NOTE, "デッキチェック", HEAD_JUDGE[0], "警告", "罰則", "違反", "失格")
    for word in (*judges, *ruling_words(site.db, event, "2001")):
        assert word not in text, (page.url, word)


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def test_a_player_finds_their_table_by_reading_and_by_handle_and_sees_no_penalty(
    site: Site, people: People
) -> None:
    event, table, _ = _event(site)
    token = publish.publish(site.db, event, names="names").token
    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    base = f"/p/{token}"
    phone.goto(base)
    expect(phone.locator("h1")).to_have_text("自分の卓を探す")
    phone.fill("#q", "こばやし")
    phone.locator("form.public-search button").tap()
    found = phone.locator("#found .seat").first
    expect(found.locator(".seat-name")).to_contain_text("小林 さくら")
    expect(found.locator(".table-no")).to_have_text(f"{table}番卓")
    _fits(phone)
    _no_judges_words(phone, site, event)
    for path in ("/pairings", "/standings", "/bracket", "/wall"):
        phone.goto(base + path)
        expect(phone.locator("body")).not_to_be_empty()
        _no_judges_words(phone, site, event)
        if path != "/wall":
            _fits(phone)
    phone.goto(base + "/pairings")
    expect(phone.locator("#pairings tbody tr")).to_have_count(3)
    expect(phone.locator("#pairings")).to_contain_text("こばやし さくら")

    # Shown by handles: found by the handle, the name and its reading nowhere.
    publish.publish(site.db, event, names="handles")
    phone.goto(base)
    phone.fill("#q", "SAKURA")
    phone.locator("form.public-search button").tap()
    expect(phone.locator("#found .seat-name").first).to_have_text("sakura_k")
    expect(phone.locator("#found .table-no").first).to_have_text(f"{table}番卓")
    _no_judges_words(phone, site, event)
    phone.goto(base + "/pairings")
    expect(phone.locator("#pairings")).to_contain_text("2003")  # no handle: the id
    expect(phone.locator("body")).not_to_contain_text("小林")
    phone.goto(base + "?q=こばやし")
    expect(phone.locator("#found")).to_contain_text("該当する参加中のプレイヤーはいません")


def test_the_wall_screen_counts_the_round_down_and_shows_a_table_given_time(
    site: Site, people: People
) -> None:
    event, _, extended = _event(site)
    token = publish.publish(site.db, event).token
    wall = people.open(WALL)
    wall.goto(f"/p/{token}/wall")
    clock = wall.locator("#wall-clock")
    expect(clock).to_have_text(re.compile(r"^(49|50):\d\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # counting down here, between the server's answers
    expect(wall.locator("#wall-round")).to_have_text("第1回戦")
    expect(wall.locator("#wall-tables")).to_contain_text(f"{extended}番卓")
    expect(wall.locator("#wall-tables")).to_contain_text("まで")
    box = clock.bounding_box()
    assert box is not None and box["height"] > 200  # readable across the hall
    _no_judges_words(wall, site, event)


def test_the_clock_a_player_opens_from_the_menu_fits_the_phone(site: Site, people: People) -> None:
    event, _, _ = _event(site)
    token = publish.publish(site.db, event).token
    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    phone.goto(f"/p/{token}/wall")
    clock = phone.locator("#wall-clock")
    expect(clock).to_have_text(re.compile(r"^(49|50):\d\d$"))
    _fits(phone)  # the countdown whole on the screen, no sideways scrolling
    box = clock.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
