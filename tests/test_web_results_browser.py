# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""The scorekeeper's results in a real browser, at a laptop's 1366×900 and a tablet's
820×1180, on SQLite and PostgreSQL: 20 tables typed from a stack of slips without a reload
(at most 6 keys a table), a correction with its reason that the standings follow (T11),
and two people entering one table at once: one result stands, the other is told which.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from shinpan.services import rounds, swiss
from shinpan.services.scoresheet import round_sheet
from shinpan.store.connection import Statement
from test_web_browser import People, Site, browser, people, sign_in, site  # noqa: F401
from test_web_scorekeeper import at_the_scorekeepers_table, swiss_event
from web_support import HEAD_JUDGE, SCOREKEEPER

SIZES = pytest.mark.parametrize(
    "viewport", [{"width": 1366, "height": 900}, {"width": 820, "height": 1180}], ids=["laptop", "tablet"]
)
# The slips of tables 1–20 as typed, and the result each is.
SLIPS = ["20", "21", "02", "12", "111", "10t", "a", "b", "d", "01t"] * 2
SHOWN = ["2-0", "2-1", "0-2", "1-2", "1-1-1", "1-0", "a", "b", "draw", "0-1"] * 2


def reported(site: Site, event: int, table: int) -> int:
    with site.db.read() as conn:
        rows = Statement("SELECT body FROM entries WHERE event_id = :e AND kind = 'result.reported'").scalars(
            conn, {"e": event}
        )
    return sum(1 for b in rows if f'"table":{table},' in b)


def points(page: Page, name: str) -> Locator:
    """The points cell of the player named exactly ``name`` in the standings."""
    who = page.locator("a", has_text=re.compile(f"^{re.escape(name)}$"))
    return page.locator("#standings tbody tr").filter(has=who).locator("td").nth(2)


@SIZES
def test_a_stack_of_slips_typed_a_correction_and_a_race_for_one_table(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=42)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    sheet = round_sheet(site.db, event, 1)
    sk = people.open(viewport)
    sign_in(sk, scorekeeper, SCOREKEEPER[1])
    hj = people.open(viewport)
    sign_in(hj, HEAD_JUDGE[0], HEAD_JUDGE[1])
    url = f"/events/{event}/scorekeeper"
    sk.goto(url)
    hj.goto(url)  # open before anything is entered: it will race for table 21
    loaded = sk.evaluate("performance.getEntriesByType('navigation').length")

    score, table = sk.locator("#quick-score"), sk.locator("#quick-table")
    expect(table).to_have_value("1")
    expect(score).to_be_focused()
    for n, slip in enumerate(SLIPS, start=1):
        keys = [*slip, "Enter"]
        assert len(keys) <= 6
        for key in keys:
            sk.keyboard.press(key)
        expect(sk.locator("#quick-answer")).to_contain_text(f"テーブル{n} ")
        expect(table).to_have_value(str(n + 1))  # the next table, ready
        expect(score).to_have_value("")
        expect(score).to_be_focused()
        expect(sk.locator(f"#match-{n} .result")).to_contain_text(SHOWN[n - 1] if "-" in SHOWN[n - 1] else "")
    assert sk.evaluate("performance.getEntriesByType('navigation').length") == loaded  # never reloaded
    after = round_sheet(site.db, event, 1)
    assert [r.shown for r in after.rows[:20]] == SHOWN

    # A correction: table 1's slip was 0-2, not 2-0. Typed again, the page says what stands.
    first = sheet.rows[0]
    assert first.b is not None
    expect(sk.locator("#standings")).to_contain_text("現在の順位(第1回戦は進行中のため暫定)")
    expect(points(sk, first.a.name)).to_have_text("3")
    for key in ["1", " ", "0", "2", "Enter"]:
        sk.keyboard.press(key)
    expect(sk.locator("#quick-answer")).to_contain_text("すでに結果があります: 2-0")
    expect(sk.locator("#quick-reason")).to_be_focused()
    sk.keyboard.type("結果票の読み違い")
    sk.keyboard.press("Enter")
    expect(sk.locator("#quick-answer")).to_contain_text("訂正しました")
    expect(sk.locator("#match-1 .result")).to_contain_text("0-2")
    expect(points(sk, first.a.name)).to_have_text("0")
    expect(points(sk, first.b.name)).to_have_text("3")
    assert reported(site, event, 1) == 2  # the ledger keeps both

    # Two people, one table, at once: one result stands, the other is told which.
    for page, slip in ((sk, "21 20"), (hj, "21 02")):
        page.locator("#quick-score").fill(slip)
    sk.evaluate("document.getElementById('quick').requestSubmit()")
    hj.evaluate("document.getElementById('quick').requestSubmit()")
    told = [sk.locator("#quick-answer"), hj.locator("#quick-answer")]
    for answer in told:  # each page's own answer: not the one it showed before, nor "sending"
        expect(answer).to_contain_text(re.compile("記録しました|すでに結果があります"))
    texts = [a.inner_text() for a in told]
    recorded = [t for t in texts if "記録しました" in t]
    refused = [t for t in texts if "すでに結果があります" in t]
    assert len(recorded) == 1 and len(refused) == 1, texts
    stands = round_sheet(site.db, event, 1).rows[20].shown
    assert stands in ("2-0", "0-2") and f"すでに結果があります: {stands}" in refused[0]
    assert reported(site, event, 21) == 1
    assert [r.shown for r in round_sheet(site.db, event, 1).rows[1:20]] == SHOWN[1:]  # nothing else changed
    assert people.errors == [] and people.dialogs == [] and people.elsewhere() == []


def test_a_slip_the_network_lost_is_told_as_not_sent_and_goes_when_typed_again(
    site: Site, people: People
) -> None:
    event, scorekeeper = swiss_event(site, players=8)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    sk = at_the_scorekeepers_table(people, {"width": 1366, "height": 900}, event, scorekeeper)
    answer, quick = sk.locator("#quick-answer"), sk.locator("#quick")

    sk.route("**/api/events/*/results", lambda route: route.abort("internetdisconnected"))
    sk.locator("#quick-score").fill("1 20")
    sk.keyboard.press("Enter")
    expect(answer).to_contain_text("テーブル1の結果は送れませんでした")
    expect(quick).not_to_have_attribute("aria-busy", "true")
    expect(sk.locator("#quick-score")).to_be_focused()
    assert reported(site, event, 1) == 0

    sk.unroute("**/api/events/*/results")
    sk.keyboard.press("Enter")  # the same slip, still in the box
    expect(answer).to_have_text("記録しました: テーブル1 2-0")  # Japanese only, on a Japanese page
    assert reported(site, event, 1) == 1
    assert people.errors == [] and people.dialogs == []


PHONE_AND_LAPTOP = pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}], ids=["phone", "laptop"]
)


@PHONE_AND_LAPTOP
def test_keys_correct_a_result_once_every_slip_is_in_and_a_refused_table_is_not_kept(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=8)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    answer, table, score = sk.locator("#quick-answer"), sk.locator("#quick-table"), sk.locator("#quick-score")
    for n in range(1, 5):
        score.fill("20")
        score.press("Enter")
        expect(answer).to_have_text(f"記録しました: テーブル{n} 2-0")
        expect(table).to_have_value(str(n + 1) if n < 4 else "")  # once every slip is in, no table waits

    # A table that is not there: refused beside the fields, and not kept for the next slip.
    score.fill("99 10")
    score.press("Enter")
    expect(answer).to_contain_text("99")
    expect(answer).to_have_attribute("role", "alert")
    expect(table).to_have_value("")
    expect(table).to_have_attribute("aria-invalid", "true")
    expect(score).to_have_value("99 10")  # the slip as typed, to fix
    assert reported(site, event, 99) == 0

    # The usual moment for a correction: table 3 was 0-2. Its number names the table.
    score.fill("3 02")
    score.press("Enter")
    expect(answer).to_contain_text("すでに結果があります: 2-0")
    expect(sk.locator("#quick-reason")).to_be_focused()
    sk.keyboard.type("結果票の読み違い")
    sk.keyboard.press("Enter")
    expect(answer).to_have_text(re.compile("^訂正しました: テーブル3 0-2"))
    expect(sk.locator("#match-3 .result")).to_contain_text("0-2")
    assert round_sheet(site.db, event, 1).rows[2].shown == "0-2"
    expect(table).to_have_value("")
    assert "/ recorded" not in answer.inner_text() and "corrected" not in answer.inner_text()
    assert people.errors == [] and people.dialogs == []


@PHONE_AND_LAPTOP
def test_a_round_ended_with_a_table_still_open_is_resolved_as_chosen(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=8)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    for n in range(1, 4):
        sk.locator("#quick-score").fill("20")
        sk.locator("#quick-score").press("Enter")
        expect(sk.locator("#quick-answer")).to_have_text(f"記録しました: テーブル{n} 2-0")
        expect(sk.locator("#quick-table")).to_have_value(str(n + 1))
    sk.reload()
    sk.locator("#end-round-box summary").click()
    expect(sk.locator("#end-round-warning")).to_contain_text("4")
    sk.click("#end-round")  # nothing chosen for table 4: refused, the round still runs
    expect(sk.locator(".flash.error")).to_contain_text("テーブル4")
    sk.locator("#end-round-box summary").click()
    sk.select_option("#open-table-4", label="引き分け")
    sk.click("#end-round")
    expect(sk.locator(".flash.ok")).to_contain_text("を終了しました")
    expect(sk.locator("#match-4 .result")).to_contain_text("引き分け")
    assert round_sheet(site.db, event, 1).rows[3].result == "draw"
    sk.click("#pair-next")  # never a round left unpairable
    expect(sk.locator(".flash.ok")).to_contain_text("ラウンド 2 の組み合わせ")
    assert people.errors == [] and people.dialogs == []
