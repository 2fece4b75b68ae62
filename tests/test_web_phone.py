# ruff: noqa: F811  (the fixtures of test_web_browser, imported by name, are the tests' arguments)
"""The floor judge's phone (390×844, touch), in a real browser on SQLite and PostgreSQL:
signing in opens the record screen of their event, the screen works offline from its first
visit, the banner names the player, and 自分の記録 lists what they recorded today as it
was decided, those sent after being offline included, each once.

The fixtures (the app on a real port, one browser context per person, no request leaving
the server, no dialog, no script error) are those of ``test_web_browser``.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from shinpan.services import recording
from test_web_browser import (  # noqa: F401  (fixtures)
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
    FLOOR_JUDGE,
    PHONE,
    kept_on_first_visit,
    network_back,
    network_down,
    player_table,
    save_record,
)

TOUCH = {"has_touch": True, "is_mobile": True}


def phone(people: People, judge: str) -> Page:
    page = people.open(PHONE, **TOUCH)
    sign_in(page, judge, FLOOR_JUDGE[1])
    return page


def pick(page: Page, search: str, player: str, infraction_search: str, infraction: str) -> None:
    page.fill("#player-search", search)
    page.locator(f".player-pick[data-player='{player}']").tap()
    page.fill("#infraction-search", infraction_search)
    page.locator(f".infraction-pick[data-infraction='{infraction}']").tap()


def test_signing_in_opens_the_record_screen_and_my_rulings_say_what_was_decided(
    site: Site, people: People
) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = phone(people, judge)
    expect(fj).to_have_url(re.compile(rf"/events/{event}/record$"))  # not "your events"
    expect(fj.locator("#mine-list")).to_contain_text("今日はまだ何も記録していません")

    pick(fj, "2", "P003", "テーブルの上", "ingame.cards-off-table")
    expect(fj.locator("#preview .ruling-preview")).to_be_visible()
    save_record(fj, tap=True)
    banner = fj.locator("#result")
    expect(banner).to_contain_text("記録しました")
    expect(banner).to_contain_text("高橋 翔太 (P003)")  # the player by name, not only the id
    mine = fj.locator("#mine-list .mine-item")
    expect(mine).to_have_count(1)
    expect(mine.first.locator(".player")).to_have_text("高橋 翔太")
    expect(mine.first.locator(".rule")).to_have_text("テーブルの上にカードを保たなかった場合")
    expect(mine.first.locator(".offense")).to_have_text("1回目")
    expect(mine.first.locator(".penalty")).to_contain_text("通")

    # Another judge's ruling is not theirs; theirs is still there after a reload, as it stands.
    other = recording.record(
        site.db, event, recording.RecordInput(player="P005", infraction="ingame.slow-play"),
        command_id=f"hj-slow-{event}",
    )  # fmt: skip
    assert other.rulings
    fj.reload()
    expect(mine).to_have_count(1)
    expect(fj.locator("#mine-list")).not_to_contain_text("P005")


def test_offline_from_the_first_visit_two_rulings_land_once_in_my_rulings(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = phone(people, judge)  # the first visit to the record screen: signing in opens it
    expect(fj).to_have_url(re.compile(rf"/events/{event}/record$"))
    kept_on_first_visit(fj, event)

    network_down(fj)
    fj.reload()  # offline: the kept screen, not the browser's error page
    expect(fj.locator("#record-form")).to_be_visible()
    pick(fj, "2", "P003", "テーブルの上", "ingame.cards-off-table")
    expect(fj.locator("#preview .offline-preview")).to_be_visible()
    save_record(fj, tap=True)
    pick(fj, "P006", "P006", "ひどく遅い", "ingame.slow-play")
    expect(fj.locator("#preview .offline-preview")).to_be_visible()
    save_record(fj, tap=True)
    expect(fj.locator("#outbox li")).to_have_count(2)
    assert rulings_of(site, event, "P003") == [] and rulings_of(site, event, "P006") == []

    network_back(fj)
    expect(fj.locator("#outbox")).to_be_hidden(timeout=20_000)
    mine = fj.locator("#mine-list .mine-item")
    expect(mine).to_have_count(2)
    expect(mine.filter(has_text="高橋 翔太")).to_have_count(1)
    expect(mine.filter(has_text="ひどく遅いプレイ")).to_have_count(1)
    expect(mine.filter(has_text="ひどく遅いプレイ").locator(".state")).to_have_text("承認待ち")
    fj.reload()  # online again: nothing is sent twice
    expect(mine).to_have_count(2)
    assert len(rulings_of(site, event, "P003")) == 1 and len(rulings_of(site, event, "P006")) == 1


# -- what a judge must not do by accident --------------------------------------------------------


def late(site: Site, event: int, player: str) -> int:
    saved = recording.record(
        site.db, event, recording.RecordInput(player=player, infraction="pregame.tardiness"),
        command_id=f"late-{event}-{player}-{time.monotonic_ns()}",
    )  # fmt: skip
    return int(saved.rulings[0]["number"])


def pending(site: Site, event: int, ruling: int) -> list[int]:
    from shinpan.services import deadlines

    return [d.position for d in deadlines.list_deadlines(site.db, event) if d.ruling == ruling]


def status(site: Site, event: int, player: str) -> str:
    from shinpan.services.queries import player_history

    return str(player_history(site.db, event, player)["player"]["status"])


def test_a_late_player_recorded_again_at_the_table_arrives_in_one_tap(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(8))
    number = late(site, event, "P003")
    assert pending(site, event, number) == [0, 1]
    fj = phone(people, judge)
    pick(fj, "P003", "P003", "テーブルの上", "ingame.cards-off-table")
    arrival = fj.locator(f"#preview #arrival-{number}")
    expect(arrival).to_contain_text("遅刻として記録されています")
    arrival.locator("button.arrived").tap()
    expect(fj.locator("#preview .arrival-done")).to_have_text(
        "到着を記録しました。遅刻の期限は終わりました。"
    )
    assert pending(site, event, number) == []
    save_record(fj, tap=True)  # the other infraction is still recorded
    expect(fj.locator("#result")).to_contain_text("記録しました")
    assert status(site, event, "P003") == "active"


def test_the_desk_marks_a_late_player_arrived_and_asks_before_withdrawing_one_early(
    site: Site, people: People
) -> None:
    from web_support import HEAD_JUDGE

    event, _ = quick_event(site, player_table(8))
    arrived, absent = late(site, event, "P001"), late(site, event, "P005")
    hj = people.open(PHONE, **TOUCH)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    hj.goto(f"/events/{event}/desk")

    # One tap: the player is here; both of their late deadlines end.
    hj.locator(f"#deadline-{arrived}-0 button.arrived").tap()
    expect(hj.locator(f"#deadline-{arrived}-0")).to_have_count(0)
    expect(hj.locator(f"#deadline-{arrived}-1")).to_have_count(0)
    assert pending(site, event, arrived) == []

    # The end of the match has not come: marking it missed asks first, naming what follows.
    box = hj.locator(f"#deadline-{absent}-1")
    expect(box.locator("button.confirm-missed")).to_be_hidden()
    token = box.locator("input[name=csrf_token]").first.input_value()
    unasked = hj.request.post(f"/events/{event}/desk/deadline/{absent}/1/missed",
                              form={"csrf_token": token, "command_id": f"unasked-{event}"})  # fmt: skip
    assert unasked.status == 409 and "この期限はまだ来ていません" in unasked.text()
    assert status(site, event, "P005") == "active"
    box.locator("details.early-missed summary").tap()
    warning = box.locator("details.early-missed .flash.warn")
    expect(warning).to_contain_text("まだ期限ではありません")
    expect(warning).to_contain_text("伊藤 翔太")
    expect(warning).to_contain_text("棄権")
    box.locator("button.confirm-missed").tap()
    expect(hj.locator(f"#deadline-{absent}-1")).to_have_count(0)
    assert status(site, event, "P005") == "withdrawn"


def test_a_floor_judge_gives_a_table_time_from_the_record_screen(site: Site, people: People) -> None:
    event, judge = quick_event(site, player_table(8))
    fj = phone(people, judge)
    fj.fill("#player-search", "P003")
    fj.locator(".player-pick[data-player='P003']").tap()  # at table 2
    fj.locator("#extend summary").tap()
    form = fj.locator("#time-form")
    expect(form.locator("input[name=table]")).to_have_value("2")
    form.locator("input[name=minutes]").fill("5")
    form.locator("input[name=reason]").fill("ジャッジコール")
    form.locator("#give-time").tap()
    expect(fj.locator("#time-result")).to_have_text("テーブル 2 の時間を 5 分延長しました。")
    from shinpan.store.connection import Statement

    with site.db.read() as conn:
        given = Statement("SELECT body FROM entries WHERE event_id = :e AND kind = 'time.extended'").all(
            conn, {"e": event}
        )
    assert len(given) == 1 and "ジャッジコール" in given[0][0]

    form.locator("input[name=table]").fill("99")  # no such table: said in Japanese
    form.locator("input[name=reason]").fill("デッキチェック")
    form.locator("#give-time").tap()
    expect(fj.locator("#time-result")).to_contain_text("テーブル 99")
    expect(fj.locator("#time-result.flash.error")).to_be_visible()
