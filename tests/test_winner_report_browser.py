# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""A winner's report in a real browser (T11, T12), on SQLite and PostgreSQL: a player with
no account opens the QR code of their table's slip on a 390×844 phone, is refused with a
wrong code, then reports the win with the slip's code; the scorekeeper, at 1366×900,
confirms it in one tap and it is the table's result.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from shinpan.reports.result_slip import result_slips
from shinpan.services import publish, queries, rounds, swiss
from shinpan.store.connection import Statement
from test_web_browser import People, Site, browser, people, sign_in, site  # noqa: F401
from test_web_scorekeeper import at_the_scorekeepers_table, swiss_event
from web_support import PHONE

LAPTOP = {"width": 1366, "height": 900}


def _entries(site: Site, event: int) -> int:
    with site.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries WHERE event_id = :e").scalar(conn, {"e": event}))


def test_a_player_reports_a_win_with_the_slips_code_and_the_scorekeeper_confirms_in_one_tap(
    site: Site, people: People
) -> None:
    event, scorekeeper = swiss_event(site, players=6)
    swiss.pair_next_round(site.db, event, seed=5)
    rounds.start_round(site.db, event)
    publish.publish(site.db, event, names="names", winner_report=True)
    slip = result_slips(site.db, event, 1, base_url=site.url).slips[0]
    qr = urlsplit(slip.url)

    phone = people.open(PHONE, has_touch=True, is_mobile=True)
    phone.goto(f"{qr.path}?{qr.query}")  # what the phone's camera opens from the slip
    expect(phone.locator("h1")).to_have_text("勝利の報告")
    expect(phone.locator("#code")).to_have_value(slip.code)
    expect(phone.locator(".seated")).to_contain_text(slip.a.name)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    before = _entries(site, event)
    phone.fill("#code", "XXXX-XXXX")
    phone.locator("label.score-choice", has_text="2-0").tap()
    phone.locator("#send-report").tap()
    expect(phone.locator("#report-error")).to_contain_text("コードがこの卓の結果票のものと違います")
    assert _entries(site, event) == before

    phone.fill("#code", slip.code)
    phone.locator("label.score-choice", has_text="2-0").tap()
    phone.locator("#send-report").tap()
    expect(phone.locator("#report-sent")).to_contain_text("送信しました")
    expect(phone.locator("body")).not_to_contain_text(scorekeeper)

    sk = at_the_scorekeepers_table(people, LAPTOP, event, scorekeeper)
    waiting = sk.locator(f"#winner-report-{slip.table}")
    expect(waiting).to_contain_text("2-0")
    expect(waiting).to_contain_text(slip.a.name)
    waiting.locator("button.confirm-report").click()  # the one tap
    expect(sk.locator(".flash.ok")).to_be_visible()
    expect(sk.locator(f"#winner-report-{slip.table}")).to_have_count(0)
    expect(sk.locator(f"#match-{slip.table} .result")).to_contain_text("2-0")
    (m,) = [m for m in queries.round_matches(site.db, event, 1)["matches"] if m["table"] == slip.table]
    assert m["result"] == "a"
