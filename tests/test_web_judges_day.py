# ruff: noqa: F811  (the fixtures of test_web_browser, imported by name, are the tests' arguments)
"""A judge's day at a real event, in a real browser: a phone that works offline, corrections
and appeals from any screen, a disqualification that waits for the head judge (D17), the
opponent offered from the pairing, romaji however it is typed, deadlines that cannot be
missed before they are due (D21), and a header that fits a phone.

The fixtures (the app on a real port, one browser context per person, no request leaving
the server, no dialog, no script error) are those of ``test_web_browser``.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from shinpan.services import corrections, recording
from test_web_browser import (  # noqa: F401  (fixtures)
    VIEWPORTS,
    People,
    Site,
    browser,
    people,
    quick_event,
    rulings_of,
    sign_in,
    site,
)
from web_support import (
    DESKTOP,
    FLOOR_JUDGE,
    HEAD_JUDGE,
    PHONE,
    kept_on_first_visit,
    network_back,
    network_down,
    player_table,
    save_record,
)

TOUCH = {"has_touch": True, "is_mobile": True}


def record_as_head_judge(site: Site, event: int, player: str, infraction: str, **kw: Any) -> int:
    inp = recording.RecordInput(player=player, infraction=infraction, **kw)
    saved = recording.record(site.db, event, inp, command_id=f"hj-{event}-{player}-{time.monotonic_ns()}")
    return int(saved.rulings[0]["number"])


def ruling(site: Site, event: int, number: int) -> dict[str, Any]:
    from shinpan.services.queries import get_ruling

    return get_ruling(site.db, event, number)


def given_and_recorded(site: Site, event: int, number: int) -> tuple[datetime, datetime]:
    """When a ruling was given at the table (D21), and when it was recorded."""
    from shinpan.store.connection import Statement

    with site.db.read() as conn:
        given, recorded = Statement(
            "SELECT given_at, recorded_at FROM rulings WHERE event_id = :e AND number = :n"
        ).first(conn, {"e": event, "n": number})
    return datetime.fromisoformat(given), datetime.fromisoformat(recorded)


def head_judge(people: People, viewport: dict[str, int] = DESKTOP) -> Page:
    page = people.open(viewport)
    sign_in(page, HEAD_JUDGE[0], HEAD_JUDGE[1])
    return page


def floor_judge(people: People, judge: str, viewport: dict[str, int] = PHONE) -> Page:
    page = people.open(viewport, **(TOUCH if viewport == PHONE else {}))
    sign_in(page, judge, FLOOR_JUDGE[1])
    return page


def queued(page: Page, event: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('shinpan-queue-{event}') || '[]')"
    )
    return items


# -- offline ---------------------------------------------------------------------------------


def test_offline_two_rulings_survive_a_reload_and_are_each_sent_once(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/record")
    kept_on_first_visit(fj, event)

    # The network goes before the judge opens the search.
    network_down(fj)
    before = datetime.now(UTC)

    # A player found by table number; an infraction without questions.
    fj.fill("#player-search", "2")
    fj.locator(".player-pick[data-player='P003']").tap()
    expect(fj.locator("#chosen-player")).to_contain_text("高橋 翔太")
    expect(fj.locator("#chosen-player")).to_contain_text("対戦相手: 田中 翔太 (P004)")  # from the roster
    fj.fill("#infraction-search", "テーブルの上")
    fj.locator(".infraction-pick[data-infraction='ingame.cards-off-table']").tap()
    offline = fj.locator("#preview .offline-preview")
    expect(offline).to_contain_text("違反の回数と罰則は、記録がサーバーに届いたときに決まります")
    expect(fj.locator("#preview .offense-number")).to_have_count(0)  # nothing decided on the phone
    save_record(fj, tap=True)
    expect(fj.locator("#result")).to_contain_text("未送信")
    expect(fj.locator("#outbox li")).to_have_count(1)
    expect(fj.locator("#outbox")).to_contain_text("違反の回数は届いたときに決まります")

    # A player found by romaji in the roster kept on the phone; a question answered offline:
    # the cards got into the opponent's deck, offered from the pairing in one tap.
    fj.fill("#player-search", "syouta satou")
    fj.locator(".player-pick[data-player='P001']").tap()
    fj.fill("#infraction-search", "混在")
    fj.locator(".infraction-pick[data-infraction='deck.lost-or-mixed-cards']").tap()
    opponent = fj.locator("#questions .opponent-pick")
    expect(opponent).to_contain_text("鈴木 翔太 (P002)")
    opponent.tap()
    expect(fj.locator("#questions input[name=fact_mixed_into]")).to_have_value("P002")
    save_record(fj, tap=True)
    expect(fj.locator("#outbox li")).to_have_count(2)
    stored = queued(fj, event)
    assert [(s["body"]["player"], s["body"]["infraction"]) for s in stored] == [
        ("P003", "ingame.cards-off-table"),
        ("P001", "deck.lost-or-mixed-cards"),
    ]
    assert stored[1]["body"]["facts"] == {"mixed_into": "P002"}
    given = [datetime.fromisoformat(s["body"]["given_at"].replace("Z", "+00:00")) for s in stored]
    assert all(before - timedelta(seconds=5) <= g <= datetime.now(UTC) for g in given)

    # A reload offline shows the kept screen, not the browser's error page; the queue is there.
    fj.reload()
    expect(fj.locator("#record-form")).to_be_visible()
    expect(fj.locator("#outbox li")).to_have_count(2)
    assert rulings_of(site, event, "P003") == [] and rulings_of(site, event, "P001") == []
    time.sleep(1)  # given_at lies before the records arrive

    # Back online: each is sent once, and the rulings the server decided are shown.
    network_back(fj)
    expect(fj.locator("#outbox")).to_be_hidden(timeout=20_000)
    expect(fj.locator("#result")).to_contain_text("記録しました")
    expect(fj.locator("#result")).to_contain_text("P003")
    expect(fj.locator("#result")).to_contain_text("P001")
    assert queued(fj, event) == []
    fj.reload()  # online again: nothing more is sent
    time.sleep(1)
    cards_off = rulings_of(site, event, "P003")
    assert [(r["rule"], r["offense"], r["penalties"]) for r in cards_off] == [
        ("ingame.cards-off-table", 1, ["notice"])
    ]
    mixed = rulings_of(site, event, "P001")
    assert [(r["rule"], r["offense"]) for r in mixed] == [("deck.lost-or-mixed-cards", 1)]
    assert [r["rule"] for r in rulings_of(site, event, "P002")] == ["deck.lost-or-mixed-cards"]
    for r, g in ((cards_off[0], given[0]), (mixed[0], given[1])):
        at_table, arrived = given_and_recorded(site, event, r["number"])
        assert abs(at_table - g) < timedelta(milliseconds=1), "given when the judge saved it"
        assert arrived > at_table + timedelta(seconds=1), "recorded when it arrived"


# -- corrections and appeals ---------------------------------------------------------------


@VIEWPORTS
def test_a_confirmed_caution_and_warning_are_deviated_and_voided_from_the_ruling_page(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, judge = quick_event(site, player_table(6))
    caution = record_as_head_judge(site, event, "P001", "pregame.slow-start")  # 注: never queued
    warning = record_as_head_judge(site, event, "P003", "ingame.slow-play")  # 警1
    corrections.confirm(site.db, event, [warning], command_id=f"confirm-{event}")
    assert ruling(site, event, caution)["state"] == "recorded"
    assert ruling(site, event, warning)["state"] == "confirmed"

    hj = head_judge(people, viewport)
    hj.goto(f"/events/{event}/rulings/{caution}")
    deviate = hj.locator("#correct form.deviate")
    deviate.locator("input[value=caution]").uncheck()
    deviate.locator("input[value=notice]").check()
    deviate.locator("textarea[name=reason]").fill("二度目の注意に相当するため")
    deviate.locator("button[type=submit]").click()
    expect(hj.locator(".flash.ok")).to_have_text("逸脱を記録しました。")
    expect(hj).to_have_url(re.compile(rf"/events/{event}/rulings/{caution}\?done=deviated$"))
    expect(hj.locator(".deviation")).to_contain_text("二度目の注意に相当するため")
    assert ruling(site, event, caution)["penalties"] == ["notice"]

    hj.goto(f"/events/{event}/rulings/{warning}")
    void = hj.locator("#correct form.void")
    void.locator("textarea[name=reason]").fill("別のプレイヤーの記録だった")
    void.locator("button[type=submit]").click()
    expect(hj.locator(".flash.ok")).to_have_text("取り消しました。")
    expect(hj.locator("#state")).to_have_text("取り消し済み")
    expect(hj.locator("#correct form")).to_have_count(0)  # nothing more to correct
    assert ruling(site, event, warning)["state"] == "voided"

    # A refusal is said on the page, in Japanese: a void needs a reason.
    hj.goto(f"/events/{event}/rulings/{caution}")
    token = hj.locator("#correct form.void input[name=csrf_token]").input_value()
    refused = hj.request.post(
        f"/events/{event}/rulings/{caution}/void",
        form={"csrf_token": token, "command_id": f"no-reason-{event}", "reason": " "},
    )
    assert refused.status == 422 and "理由" in refused.text()
    assert ruling(site, event, caution)["state"] != "voided"

    # A floor judge may record an appeal there, and neither void nor deviate.
    fj = floor_judge(people, judge, viewport)
    fj.goto(f"/events/{event}/rulings/{caution}")
    expect(fj.locator("#correct form.appeal")).to_be_visible()
    expect(fj.locator("#correct form.void, #correct form.deviate")).to_have_count(0)


def test_an_appeal_is_filed_on_the_ruling_page_and_decided_on_the_desk(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(6))
    number = record_as_head_judge(site, event, "P003", "ingame.slow-play")

    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/rulings/{number}")
    appeal = fj.locator("#correct form.appeal")
    expect(appeal.locator("input[name=by]")).to_have_value("高橋 翔太 (P003)")
    appeal.locator("textarea[name=reason]").fill("遅くなったのは相手の長考のため")
    appeal.locator("button[type=submit]").tap()
    expect(fj.locator(".flash.ok")).to_contain_text("上訴を記録しました")
    expect(fj.locator("p.appeal")).to_contain_text("未判断")

    hj = head_judge(people)
    hj.goto(f"/events/{event}/desk")
    expect(hj.locator("#appeals .count")).to_have_text("1")
    filed = hj.locator("#appeals article.appeal").first
    expect(filed).to_contain_text("高橋 翔太 (P003)の上訴")
    expect(filed).to_contain_text("遅くなったのは相手の長考のため")
    filed.locator("input[value=changed]").check()
    filed.locator("details summary").click()
    filed.locator("input[value=warning1]").uncheck()
    filed.locator("input[value=notice]").check()
    filed.locator("textarea[name=reason]").fill("相手の長考が原因と認める")
    filed.locator("button[type=submit]").click()
    expect(hj.locator("#appeals .count")).to_have_text("0")
    expect(hj.locator("#appeals article.appeal.decided")).to_contain_text("変更")
    assert ruling(site, event, number)["penalties"] == ["notice"]
    expect(hj.locator(f"#ruling-{number} .deviated")).to_be_visible()  # the feed marks the deviation

    # From the desk's feed: another ruling appealed and overturned (voided).
    other = record_as_head_judge(site, event, "P005", "ingame.cards-off-table")
    hj.goto(f"/events/{event}/desk")
    row = hj.locator(f"#ruling-{other}")
    row.locator("details.correct summary").click()
    form = row.locator("form.appeal")
    form.locator("textarea[name=reason]").fill("カードはテーブルの上にあった")
    form.locator("button[type=submit]").click()
    expect(hj.locator("#appeals .count")).to_have_text("1")
    decision = hj.locator("#appeals article.appeal:not(.decided)")
    decision.locator("input[value=overturned]").check()
    decision.locator("textarea[name=reason]").fill("目撃者の証言による")
    decision.locator("button[type=submit]").click()
    expect(hj.locator("#appeals .count")).to_have_text("0")
    expect(hj.locator(f"#ruling-{other}")).to_have_class(re.compile(r"\bstate-voided\b"))
    assert ruling(site, event, other)["state"] == "voided"


@VIEWPORTS
def test_the_desk_feed_voids_and_deviates_any_ruling(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, _ = quick_event(site, player_table(6))
    notice = record_as_head_judge(site, event, "P001", "ingame.cards-off-table")  # 通: never queued
    hj = head_judge(people, viewport)
    hj.goto(f"/events/{event}/desk")
    row = hj.locator(f"#ruling-{notice}")
    row.locator("details.correct summary").click()
    deviate = row.locator("form.deviate")
    deviate.locator("input[value=notice]").uncheck()
    deviate.locator("input[value=warning1]").check()
    deviate.locator("textarea[name=reason]").fill("繰り返し注意しても直らない")
    deviate.locator("button[type=submit]").click()
    expect(hj.locator(f"#ruling-{notice} .deviated")).to_be_visible()
    assert ruling(site, event, notice)["penalties"] == ["warning1"]
    hj.locator(f"#ruling-{notice} details.correct summary").click()
    void = hj.locator(f"#ruling-{notice} form.void")
    void.locator("textarea[name=reason]").fill("記録の誤り")
    void.locator("button[type=submit]").click()
    expect(hj.locator(f"#ruling-{notice}")).to_have_class(re.compile(r"\bstate-voided\b"))
    expect(hj.locator(f"#ruling-{notice} details.correct")).to_have_count(0)


# -- D17: a disqualification waits for the head judge ------------------------------------------


def test_a_pending_disqualification_shows_as_pending_until_the_head_judge_confirms(
    site: Site, people: People
) -> None:
    event, judge = quick_event(site, player_table(6))
    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/record")
    fj.fill("#player-search", "P004")
    fj.locator(".player-pick[data-player='P004']").tap()
    fj.fill("#infraction-search", "イカサマ")
    fj.locator(".infraction-pick[data-infraction='severe.cheating']").tap()
    expect(fj.locator("#preview .ruling-preview")).to_contain_text("失格")
    save_record(fj, tap=True)
    expect(fj.locator("#result")).to_contain_text("記録しました")
    number = rulings_of(site, event, "P004")[0]["number"]

    # The player's page: still in the event, the disqualification waiting.
    fj.goto(f"/events/{event}/players/P004")
    expect(fj.locator("#status")).to_have_text("参加中")
    expect(fj.locator(".flash.awaiting")).to_contain_text("失格(承認待ち)")
    # The ruling's page and the desk say so too.
    fj.goto(f"/events/{event}/rulings/{number}")
    expect(fj.locator(".awaiting")).to_have_text("失格(承認待ち)")
    hj = head_judge(people)
    hj.goto(f"/events/{event}/desk")
    expect(hj.locator(f"#queue-{number} .awaiting")).to_have_text("失格(承認待ち)")
    expect(hj.locator(f"#dq-{number} .awaiting")).to_be_visible()

    hj.locator(f"#queue-{number} button.confirm").click()
    expect(hj.locator(f"#queue-{number}")).to_have_count(0)
    expect(hj.locator(f"#dq-{number} .awaiting")).to_have_count(0)
    fj.goto(f"/events/{event}/players/P004")
    expect(fj.locator("#status")).to_have_text("失格")
    expect(fj.locator(".awaiting")).to_have_count(0)


# -- the record screen -----------------------------------------------------------------------


@VIEWPORTS
def test_the_opponent_is_offered_for_mixed_cards_and_a_name_gets_a_japanese_message(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = floor_judge(people, judge, viewport)
    fj.goto(f"/events/{event}/record")
    fj.fill("#player-search", "3")
    pick = fj.locator(".player-pick[data-player='P005']")
    expect(pick).to_contain_text("テーブル 3")
    expect(pick).to_contain_text("A席")
    expect(pick).to_contain_text("対戦相手: 佐藤 美咲 (P006)")
    pick.click()
    fj.fill("#infraction-search", "混在")
    fj.locator(".infraction-pick[data-infraction='deck.lost-or-mixed-cards']").click()

    # A name typed where a participant is asked: refused in Japanese, nothing to save.
    field = fj.locator("#questions input[name=fact_mixed_into]")
    field.fill("佐藤")
    expect(fj.locator("#preview .field-error")).to_contain_text("参加者のIDではありません")
    expect(fj.locator("#save")).to_be_disabled()
    # Anyone can be searched for (and picked); the opponent is one tap.
    expect(fj.locator("#questions .participant-pick[data-player='P001']")).to_be_visible()
    fj.locator("#questions .participant-pick[data-player='P001']").click()
    expect(field).to_have_value("P001")
    fj.locator("#questions .opponent-pick").click()
    expect(field).to_have_value("P006")
    expect(fj.locator("#preview .ruling-preview")).to_have_count(2)  # both players are penalised
    save_record(fj)
    expect(fj.locator("#result")).to_contain_text("記録しました")
    assert [r["rule"] for r in rulings_of(site, event, "P006")] == ["deck.lost-or-mixed-cards"]


@pytest.mark.parametrize(
    ("typed", "player"),
    [
        ("Shota Sato", "P001"),
        ("sato shouta", "P001"),
        ("syouta satou", "P001"),
        ("ito hina", "P020"),
        ("Hina Itou", "P020"),
        ("ひな いとう", "P020"),
        ("伊藤 陽菜", "P020"),
    ],
)
def test_romaji_however_typed_finds_the_player(site: Site, people: People, typed: str, player: str) -> None:
    event, judge = quick_event(site, player_table(24))
    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/record")
    fj.fill("#player-search", typed)
    expect(fj.locator(f".player-pick[data-player='{player}']")).to_be_visible()
    expect(fj.locator(".player-pick")).to_have_count(1)


# -- D21: a timed deadline is not missed before it is due --------------------------------------


def test_the_desk_will_not_mark_a_timed_deadline_missed_before_it_is_due(site: Site, people: People) -> None:
    event, _ = quick_event(site, player_table(6))
    given = datetime.now(UTC) - timedelta(minutes=9, seconds=54)  # ten minutes to exchange the cards
    number = record_as_head_judge(site, event, "P001", "cards.marked-no-pattern", given_at=given.isoformat())
    hj = head_judge(people)
    hj.goto(f"/events/{event}/desk")
    box = hj.locator(f"#deadline-{number}-0")
    expect(box).to_contain_text("佐藤 翔太")  # the player's name, not only the id
    missed = box.locator("button.missed")
    expect(missed).to_be_disabled()
    token = box.locator("input[name=csrf_token]").first.input_value()
    early = hj.request.post(
        f"/events/{event}/desk/deadline/{number}/0/missed",
        form={"csrf_token": token, "command_id": f"too-early-{event}"},
    )
    assert early.status == 409 and "この期限はまだ来ていません" in early.text()
    assert len(rulings_of(site, event, "P001")) == 1

    # When it is due the desk lets the head judge mark it missed: the follow-up is a match loss.
    expect(missed).to_be_enabled(timeout=15_000)
    expect(box.locator(".countdown")).to_have_text("0:00")
    missed.click()
    expect(hj.locator(f"#deadline-{number}-0")).to_have_count(0)
    follow_up = [r for r in rulings_of(site, event, "P001") if r["follow_up"]]
    assert [r["penalties"] for r in follow_up] == [["match_loss"]]


# -- the phone --------------------------------------------------------------------------------


def test_the_phone_header_is_compact_and_sign_out_is_in_the_menu(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(4))
    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/record")
    header = fj.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 56, header
    for target in fj.locator("header.top a:visible, header.top summary").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (target.inner_text(), box)
    sign_out = fj.locator("#sign-out")
    expect(sign_out).to_be_hidden()
    expect(fj.locator("header.top a[href='/guideline']")).to_be_hidden()
    fj.locator("#menu summary").tap()
    expect(sign_out).to_be_visible()
    box = sign_out.bounding_box()
    assert box is not None and box["height"] >= 44
    fj.locator("main").tap(position={"x": 10, "y": 400})  # a tap outside closes the menu
    expect(sign_out).to_be_hidden()
    for pick in fj.locator(".infraction-pick:visible, #categories .chip").all()[:12]:
        box = pick.bounding_box()
        assert box is not None and box["height"] >= 44, (pick.inner_text(), box)


def test_a_ruling_by_table_number_takes_three_taps_and_the_form_is_cleared_after(
    site: Site, people: People
) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = floor_judge(people, judge)
    fj.goto(f"/events/{event}/record")
    expect(fj.locator("#player-search")).to_be_focused()  # typing, no tap
    fj.keyboard.type("4")
    fj.locator(".player-pick[data-player='P007']").tap()  # 1
    expect(fj.locator("#infraction-search")).to_be_focused()  # typing, no tap
    fj.locator("#categories .chip[data-category='ingame']").tap()  # (a category: cleared after saving)
    fj.keyboard.type("テーブルの上")
    fj.locator(".infraction-pick[data-infraction='ingame.cards-off-table']").tap()  # 2
    expect(fj.locator("#save")).to_be_enabled()
    expect(fj.locator("#save")).to_be_in_viewport(ratio=1)
    save_record(fj, tap=True)  # 3
    expect(fj.locator("#result")).to_contain_text("記録しました")
    assert [r["rule"] for r in rulings_of(site, event, "P007")] == ["ingame.cards-off-table"]
    expect(fj.locator("#infraction-search")).to_have_value("")
    expect(fj.locator("#categories .chip.active")).to_have_count(0)
    expect(fj.locator(".infraction-pick[data-infraction='severe.cheating']")).to_be_visible()
    expect(fj.locator("#player-search")).to_have_value("")
