# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""A judge call from the table to the ruling, in a real browser (T14, T12), on SQLite and
PostgreSQL: a player on a 390×844 phone, with no account, calls a judge to their table; two
judges' phones see it within a second; one claims it (the other sees it claimed), records a
ruling from it and resolves it; the extension is proposed from the measured minutes,
confirmed, and shown on the Matches page and the wall; the desk sees an escalated call
beside the appeals; a player drops between rounds and is not paired in the next round; a
player's page shows the new pairing without a reload.

The claim-to-resolution time is measured by the server from its own stamps: the test moves
the server's clock (:class:`web_support.ServerClock`) to a little over a minute after the
claim, rather than waiting that minute, so that the proposal is a whole minute (T14: less
one minute, rounded up).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events, publish, queries, rounds, swiss
from shinpan.services.calls import escalate_call, list_calls, raise_call
from shinpan.services.codes import player_codes
from shinpan.services.results import Wanted, report_result
from test_web_browser import People, Site, browser, choose, people, sign_in, site  # noqa: F401
from test_web_scorekeeper import at_the_scorekeepers_table, swiss_event
from web_support import FLOOR_JUDGE, HEAD_JUDGE, PHONE, ServerClock, save_record

LAPTOP = {"width": 1366, "height": 900}
WITHIN_A_SECOND = 1_000  # ms


def _judges_phone(people: People, event: int, name: str, password: str) -> Page:
    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    sign_in(phone, name, password)
    with phone.expect_response(lambda r: r.url.endswith(f"/api/events/{event}/stream")):
        phone.goto(f"/events/{event}/calls")
    expect(phone.locator("#calls .count")).to_have_text("0")
    return phone


def test_a_players_call_reaches_the_judges_and_the_time_comes_back(
    site: Site, people: People, monkeypatch: pytest.MonkeyPatch
) -> None:
    server_clock = ServerClock(monkeypatch)
    event, scorekeeper = swiss_event(site, players=6)
    judge = site.unique(FLOOR_JUDGE[0])
    accounts.join(
        site.db, accounts.invite(site.db, event, Role.floor_judge, HEAD_JUDGE[0]), judge, FLOOR_JUDGE[1]
    )
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    token = publish.publish(site.db, event, names="names").token
    tables = {
        m["table"]: (m["player_a"], m["player_b"])
        for m in queries.round_matches(site.db, event, 1)["matches"]
    }
    caller, leaver = tables[1][0], tables[2][1]

    fj = _judges_phone(people, event, judge, FLOOR_JUDGE[1])
    hj = _judges_phone(people, event, HEAD_JUDGE[0], HEAD_JUDGE[1])

    # The player, on their own page, calls a judge in one tap with a reason.
    player = people.open(PHONE, has_touch=True, is_mobile=True)
    player.goto(f"/p/{token}/player/{caller}")
    assert player.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    player.locator("label.reason-choice", has_text="ルールの質問").tap()
    player.locator("#call-judge").tap()
    expect(player.locator("#call-sent")).to_contain_text("1番卓にジャッジを呼びました")
    player.evaluate("window.__sameDocument = true")  # from here on, the page is never reloaded

    # Both judges' phones see it within a second, without a reload.
    for phone in (fj, hj):
        call = phone.locator("#calls article.call", has_text="1番卓")
        expect(call).to_be_visible(timeout=WITHIN_A_SECOND)
        expect(call).to_contain_text("ルールの質問")

    # One claims it; the other sees it claimed.
    fj.locator("#calls article.call", has_text="1番卓").locator("button.claim").tap()
    claimed_at = time.monotonic()
    expect(hj.locator("#calls article.call", has_text="1番卓").locator(".tag.claimed")).to_contain_text(
        judge, timeout=WITHIN_A_SECOND
    )
    expect(hj.locator("#calls article.call", has_text="1番卓").locator("button.claim")).to_have_count(0)
    expect(player.locator("#call-status")).to_contain_text(f"ジャッジが向かっています: {judge}")

    # The judge records a ruling from the call.
    fj.locator("#calls article.call", has_text="1番卓").locator("a.record-from").tap()
    expect(fj).to_have_url(re.compile(rf"/events/{event}/record\?call=\d+$"))
    choose(fj, caller, caller, "おそい", "ingame.slow-play")
    save_record(fj, tap=True)
    expect(fj.locator("#result")).to_contain_text("記録しました")
    (held,) = [c for c in list_calls(site.db, event)["calls"] if c["table"] == 1]
    assert held["state"] == "claimed" and len(held["rulings"]) == 1
    assert "遅い" not in player.locator("main").inner_text()  # nothing the judge records

    # Meanwhile: a call handed to the head judge shows on the desk beside the appeals.
    other = raise_call(site.db, event, 3, "dispute", judge=judge)["call"]
    escalate_call(site.db, event, other, judge=judge)
    desk = people.open(LAPTOP)
    sign_in(desk, HEAD_JUDGE[0], HEAD_JUDGE[1])
    desk.goto(f"/events/{event}/desk")
    expect(desk.locator("#appeals")).to_contain_text("ヘッドジャッジに渡されたコール")
    expect(desk.locator("#appeals .escalated-call")).to_contain_text("3番卓")

    # A player drops between rounds with their registration code: not while playing.
    with site.db.read() as conn:
        code = player_codes(site.db, conn, event, [leaver])[leaver]
    quitter = people.open(PHONE, has_touch=True, is_mobile=True)
    quitter.goto(f"/p/{token}/player/{leaver}")
    quitter.fill("#code", code)
    quitter.locator("#drop-sure").check()
    quitter.locator("#drop-me").tap()
    expect(quitter.locator("#drop-error")).to_contain_text("2番卓の対戦の結果がまだ入っていません")
    report_result(site.db, event, 1, 2, Wanted(score="2-0"))
    quitter.fill("#code", code)
    quitter.locator("#drop-sure").check()
    quitter.locator("#drop-me").tap()
    expect(quitter.locator("#drop-done")).to_contain_text("大会からドロップしました")

    # A little over a minute after the claim (by the server's clock), the judge resolves: one
    # minute is proposed.
    server_clock.advance(61.5 - (time.monotonic() - claimed_at))
    fj.goto(f"/events/{event}/calls")
    call = fj.locator("#calls article.call", has_text="1番卓")
    call.locator("details.resolve summary").tap()
    expect(call.locator(".proposal")).to_contain_text("延長の提案: 1分")
    expect(call.locator("input[name=outcome][value=ruling]")).to_be_checked()
    call.locator("button.confirm-resolve").tap()
    expect(fj.locator("#calls article.call", has_text="1番卓")).to_have_count(0)
    expect(hj.locator("#calls article.call", has_text="1番卓")).to_have_count(0)

    # The table's time is on the Matches page and the wall.
    sk = at_the_scorekeepers_table(people, LAPTOP, event, scorekeeper)
    given = sk.locator("#match-1 .extension", has_text="ジャッジ・コールの対応時間")
    expect(given).to_contain_text(f"{judge}が1分延長しました")
    wall = people.open(LAPTOP)
    wall.goto(f"/p/{token}/wall")
    expect(wall.locator("#wall-tables")).to_contain_text("1番卓")

    # The round ends; the next is paired without the player who dropped, and the caller's
    # page says where they sit now, without a reload.
    report_result(site.db, event, 1, 1, Wanted(score="2-1"))
    report_result(site.db, event, 1, 3, Wanted(score="1-2"))
    events.end_round(site.db, event)
    paired = swiss.pair_next_round(site.db, event, seed=7)
    seated = {p for t in paired.pairings for p in (t["a"], t["b"]) if p}
    assert leaver not in seated and caller in seated
    expect(player.locator("#new-pairing")).to_contain_text("第2回戦の組み合わせが出ました")
    assert player.evaluate("window.__sameDocument") is True
