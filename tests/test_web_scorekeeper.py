# ruff: noqa: F811 - the browser fixtures come from test_web_browser
"""The scorekeeper's page and the rounds' JSON API: post/redirect/get on every form (a reload
never sends a form again), names instead of ids and raw a/b, penalty results drawn apart,
extensions in words, pending disqualifications (D17); and a round run in a real browser at
phone and desktop size. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from shinpan.engine.event_rules import Role
from shinpan.files.csvio import PlayerRow, parse_pairings, parse_players
from shinpan.services import accounts, corrections, events, recording, results, rounds
from shinpan.services.scoresheet import round_sheet
from test_web_browser import VIEWPORTS, People, Site, api, browser, people, sign_in, site  # noqa: F401
from web_support import (
    HEAD_JUDGE,
    SCOREKEEPER,
    Client,
    World,
    csrf_in,
    ledger_size,
    pairings_csv,
    player_table,
    players_csv,
    worlds,
)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=3)


def running(w: World) -> None:
    """Round 1 of the world's event started (it takes results once it runs, T5)."""
    if rounds.round_clock(w.db, w.event, 1).state == "paired":
        rounds.start_round(w.db, w.event)


def page_of(w: World, client: Client) -> str:
    r = client.get(f"/events/{w.event}/scorekeeper")
    assert r.status_code == 200, r.text
    return r.text


def post_form(w: World, client: Client, action: str, **fields: str) -> tuple[int, str, str]:
    """Post a form of the page: (status, where it redirects, the page that follows)."""
    token = csrf_in(page_of(w, client))
    r = client.http.post(
        f"/events/{w.event}/scorekeeper/{action}",
        data={"csrf_token": token, "command_id": w.cid("form"), **fields},
        follow_redirects=False,
    )
    location = r.headers.get("location", "")
    after = client.get(location).text if location else ""
    return r.status_code, location, after


def test_every_form_posts_then_redirects_and_a_reload_posts_nothing(world: World) -> None:
    w, sk = world, world.clients["scorekeeper"]
    a = w.players[0]
    page = page_of(w, sk)  # round 1 paired, not started: no result buttons, no "end the round"
    assert "開始前" in page and 'class="inline result-form"' not in page and 'id="end-round"' not in page
    assert "対戦中" not in page
    status, location, after = post_form(w, sk, "result", round_no="1", table="1", winner=a)
    assert status == 303 and 'class="flash error"' in after and "開始していません" in after
    running(w)
    status, location, after = post_form(w, sk, "result", round_no="1", table="1", winner=a)
    assert status == 303 and location == f"/events/{w.event}/scorekeeper?round=1"
    assert 'class="flash ok"' in after
    size = ledger_size(w)
    again = sk.get(location).text  # the reload: a GET, nothing posted, the message shown once
    assert ledger_size(w) == size and 'class="flash' not in again
    # A refusal redirects too, with the reason, and changes nothing.
    status, location, after = post_form(w, sk, "result", round_no="1", table="99", winner=a)
    assert status == 303 and 'class="flash error"' in after and "99" in after
    assert ledger_size(w) == size
    for action, fields in (
        ("pair", {}),
        ("pair", {"seed": "፩"}),
        ("start", {"minutes": "abc"}),
        ("drop", {"player": ""}),
        ("edit", {"lines": "1 x", "reason": "r"}),
        ("time", {"table": "1", "minutes": "0"}),
    ):
        status, location, after = post_form(w, w.clients["head_judge"], action, **fields)
        assert status == 303 and location.startswith(f"/events/{w.event}/scorekeeper"), action
        assert 'class="flash error"' in after, action
    assert ledger_size(w) == size
    # Names and readings, results in words, no raw a/b.
    page = page_of(w, sk)
    assert "推奨" in page and "佐藤 翔太" in page and "さとう しょうた" in page
    assert re.search(r"デュエル1: [^<]+の勝ち", page)


def test_penalties_extensions_and_pending_disqualifications_are_shown_in_words(world: World) -> None:
    w, sk = world, world.clients["scorekeeper"]
    slow, leaving, cheat = w.players[2], w.players[4], w.players[6]
    w.record(slow, "ingame.slow-play")
    w.record(slow, "ingame.slow-play")
    w.record(leaving, "ingame.early-withdrawal")
    dq = w.record(cheat, "severe.cheating")
    running(w)
    rounds.give_time(w.db, w.event, 2, 4, "ジャッジコール", judge=HEAD_JUDGE[0])
    page = page_of(w, sk)
    assert page.count('class="duel penalty"') == 1 and "ひどく遅いプレイ" in page
    assert "デュエルの敗北(罰則)" in page and "マッチの敗北(罰則)" in page
    assert "制限時間の後に追加ターン" in page
    assert "ジャッジコール" in page and "4分" in page
    assert "ヘッドジャッジの確認待ち" in page and 'class="tag pending"' in page
    corrections.confirm(w.db, w.event, [dq])
    page = page_of(w, sk)
    assert 'class="tag pending"' not in page and "失格" in page


def test_the_rounds_api_pairs_starts_ends_and_ranks(world: World) -> None:
    w = world
    hj = w.clients["head_judge"]
    e = f"/api/events/{w.event}"
    running(w)
    for m in round_sheet(w.db, w.event, 1).rows:
        if m.b is not None and m.result is None:
            done = hj.post(
                e + "/results", json={"command_id": w.cid(), "round": 1, "table": m.table, "result": "a"}
            )
            assert done.status_code == 200, done.text
    ended = hj.post(e + "/rounds/end", json={"command_id": w.cid()})
    assert ended.status_code == 200 and ended.json() == {"round": 1, "still_playing": []}
    drop = w.spare[0]
    assert hj.post(e + f"/players/{drop}/drop", json={"command_id": w.cid()}).json() == {
        "player": drop,
        "round": 1,
    }
    paired = hj.post(e + "/rounds", json={"command_id": w.cid(), "seed": 42})
    assert paired.status_code == 201, paired.text
    body = paired.json()
    assert body["round"] == 2 and body["seed"] == 42 and body["recommended_rounds"] >= 3
    assert drop not in [p for t in body["pairings"] for p in (t["a"], t["b"])]
    clock = hj.get(e + "/clock").json()
    assert clock["state"] == "paired" and clock["round"] == 2
    assert hj.post(e + "/rounds/start", json={"command_id": w.cid(), "minutes": 45}).json()["minutes"] == 45
    table = hj.get(e + "/standings", params={"round": 1}).json()
    assert table["round"] == 1 and table["standings"][0]["rank"] == 1
    assert table["state"] == "ended"
    assert {s["player"]: s["status"] for s in table["standings"]}[
        drop
    ] == "active"  # T6: dropped after it ended
    assert hj.get(e + "/standings", params={"round": 9}).status_code == 404


# -- in a real browser ----------------------------------------------------------------------


def swiss_event(site: Site, players: int = 9) -> tuple[int, str]:
    """An event with ``players`` players and a scorekeeper who joined: (event, scorekeeper)."""
    hj = accounts.account_named(site.db, HEAD_JUDGE[0])
    assert hj is not None
    e = events.create_event(
        site.db,
        name=site.unique("スイス大会"),
        head_judge=HEAD_JUDGE[0],
        head_judge_level=HEAD_JUDGE[2],
        head_judge_account=hj.uid,
    )
    names = [
        ("佐藤 翔太", "さとう しょうた"),
        ("鈴木 美咲", "すずき みさき"),
        ("高橋 大輔", "たかはし だいすけ"),
    ]
    rows = [PlayerRow(f"{1000 + i}", f"{names[i % 3][0]}{i}", names[i % 3][1], None) for i in range(players)]
    events.import_players(site.db, e, rows)
    name = site.unique(SCOREKEEPER[0])
    accounts.join(site.db, accounts.invite(site.db, e, Role.scorekeeper, HEAD_JUDGE[0]), name, SCOREKEEPER[1])
    return e, name


def at_the_scorekeepers_table(people: People, viewport: dict[str, int], event: int, scorekeeper: str) -> Page:
    """The scorekeeper, signed in, on the event's Matches page."""
    sk = people.open(viewport)
    sign_in(sk, scorekeeper, SCOREKEEPER[1])
    sk.goto(f"/events/{event}/scorekeeper")
    return sk


@VIEWPORTS
def test_the_scorekeepers_round_in_the_browser(site: Site, people: People, viewport: dict[str, int]) -> None:
    event, scorekeeper = swiss_event(site)
    page = f"/events/{event}/scorekeeper"
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    sk.click("#pair-next")
    expect(sk).to_have_url(re.compile(rf"{page}$"))
    expect(sk.locator(".flash.ok")).to_contain_text("ラウンド 1 の組み合わせ")
    expect(sk.locator("table.matches tbody tr")).to_have_count(5)
    sk.click("#start-round")
    expect(sk.locator(".countdown")).to_have_text(re.compile(r"^(49|50):\d\d$"))

    # A match loss from a ruling lands on table 1; the scorekeeper reports table 2 by duels.
    sheet = round_sheet(site.db, event)
    loser = sheet.rows[0].a.number
    ruling = api(sk, "GET", f"/api/events/{event}/clock")  # the scorekeeper reads the clock
    assert ruling["state"] == "started"
    from shinpan.services import recording

    recording.record(
        site.db, event, recording.RecordInput(player=loser, infraction="ingame.early-withdrawal")
    )
    sk.reload()
    expect(sk.locator("#match-1 .result")).to_contain_text("マッチの敗北(罰則)")
    second = sheet.rows[1]
    assert second.b is not None
    for n in range(2):  # without a reload: the page reads the row again
        sk.locator("#match-2 .result-form button", has_text=f"{second.b.name}のデュエル").click()
        expect(sk.locator("#match-2 .duels .duel")).to_have_count(n + 1)
    expect(sk.locator("#match-2 .result")).to_contain_text(f"{second.b.name}の勝ち")
    expect(sk).to_have_url(re.compile(rf"{page}$"))

    # A reload after the result posts nothing: no "Method Not Allowed", the ledger unchanged.
    size = _entries(site)
    sk.reload()
    expect(sk.locator("body")).not_to_contain_text("Method Not Allowed")
    assert _entries(site) == size

    # The standings show the penalty's match loss: the opponent on 3 points, the loser on 0.
    standings = sk.locator("section.standings")
    expect(standings).to_contain_text(sheet.rows[0].b.name if sheet.rows[0].b else "")
    winner_row = standings.locator("tr", has_text=sheet.rows[0].b.name if sheet.rows[0].b else "")
    expect(winner_row.locator("td").nth(2)).to_have_text("3")
    loser_row = standings.locator("tr", has_text=sheet.rows[0].a.name)
    expect(loser_row.locator("td").nth(2)).to_have_text("0")


def _entries(site: Site) -> int:
    from shinpan.store.connection import Statement

    with site.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries").scalar(conn))


def best_of_one_event(w: World) -> tuple[int, list[str]]:
    """A best-of-one event whose unfinished matches are a loss for both (T7, T8), round 1
    started, run by the world's head judge."""
    head = accounts.account_named(w.db, HEAD_JUDGE[0])
    assert head is not None
    event = events.create_event(
        w.db, name="1本先取の大会", head_judge=HEAD_JUDGE[0], head_judge_level=HEAD_JUDGE[2],
        head_judge_account=head.uid, match_format="bo1", time_out="both-lose",
    )  # fmt: skip
    table = player_table(6, prefix="B")
    events.import_players(w.db, event, parse_players(players_csv(table)), command_id=w.cid("bo1-players"))
    numbers = [n for n, _, _ in table]
    events.import_pairings(
        w.db, event, 1, parse_pairings(pairings_csv(numbers)), command_id=w.cid("bo1-pair")
    )
    rounds.start_round(w.db, event)
    return event, numbers


def test_a_best_of_one_round_offers_its_own_scores_and_says_every_result_in_words(world: World) -> None:
    w, hj = world, world.clients["head_judge"]
    event, numbers = best_of_one_event(w)
    b1, b2 = numbers[1], numbers[3]  # seat b of tables 1 and 2
    page = hj.get(f"/events/{event}/scorekeeper").text
    # T7: a slip of a best-of-one match says 1-0 or 0-1; 2-0 cannot be, so it is not offered.
    buttons = re.findall(r'<button name="score" value="([^"]+)"', page)
    assert buttons and set(buttons) == {"1-0", "0-1"}
    assert "1本先取" in page and "10は1-0" in page
    # A match lost by a ruling has no score: the winner in words, never the seat's letter.
    saved = recording.record(
        w.db,
        event,
        recording.RecordInput(player=b1, infraction="severe.cheating"),
        command_id=w.cid("bo1-dq"),
    )
    corrections.confirm(w.db, event, [int(saved.rulings[0]["number"])])
    # T8: a drawn duel at time is a loss for both, said so (not "playing").
    results.report_result(w.db, event, 1, 2, results.Wanted(score="0-0-1", at_time=True))
    page = hj.get(f"/events/{event}/scorekeeper").text
    row_1 = page.split('id="match-1"')[1].split("</tr>")[0]
    assert '<span class="score">' not in row_1 and "の勝ち" in row_1
    row_2 = page.split('id="match-2"')[1].split("</tr>")[0]
    assert "両者敗北" in row_2 and "対戦中" not in row_2
    # The player seated b of that match lost too, on the judges' page of the player.
    player = hj.get(f"/events/{event}/players/{b2}").text
    assert "両者敗北" in player and "勝ち" not in player.split("<table")[-1]


def test_a_best_of_one_bye_reads_as_a_match_won_never_two_nil(world: World) -> None:
    """T1, T7: a bye is a match won (it counts 2–0 in the standings' arithmetic, T2); a
    best-of-one match is never 2–0, so its page says the match won alone."""
    w, hj = world, world.clients["head_judge"]
    head = accounts.account_named(w.db, HEAD_JUDGE[0])
    assert head is not None
    event = events.create_event(
        w.db, name="1本先取の不戦勝", head_judge=HEAD_JUDGE[0], head_judge_level=HEAD_JUDGE[2],
        head_judge_account=head.uid, match_format="bo1",
    )  # fmt: skip
    table = player_table(3, prefix="Y")
    events.import_players(w.db, event, parse_players(players_csv(table)), command_id=w.cid("bo1-bye-players"))
    numbers = [n for n, _, _ in table]
    lines = f"卓番号,プレイヤーA,プレイヤーB\n1,{numbers[0]},{numbers[1]}\n2,{numbers[2]},\n".encode()
    events.import_pairings(w.db, event, 1, parse_pairings(lines), command_id=w.cid("bo1-bye-pair"))
    page = hj.get(f"/events/{event}/scorekeeper").text
    bye = page.split('class="bye">')[1].split("</span>")[0]
    assert "不戦勝" in bye and "マッチの勝ち" in bye and "2–0" not in bye and "2-0" not in bye


@VIEWPORTS
def test_ending_a_round_and_dropping_a_player_are_confirmed_first(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=5)
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    # A drop is for good (here before round 1): the form asks for the tick that says so.
    drop = sk.locator("form[action$='/scorekeeper/drop']")
    drop.locator("select").select_option("1000")
    size = _entries(site)
    drop.locator("button[type=submit]").click()
    expect(drop.locator("input[name=sure]")).to_have_js_property("validity.valid", False)
    expect(sk.locator(".flash.ok")).to_have_count(0)
    assert _entries(site) == size
    drop.locator("input[name=sure]").check()
    drop.locator("button[type=submit]").click()
    expect(sk.locator(".flash.ok")).to_contain_text("ドロップしました")
    sk.click("#pair-next")
    sk.click("#start-round")
    # T5: an ended round cannot be started again; the page says so, and which tables have
    # no result yet, before the button that ends it is shown.
    expect(sk.locator("#end-round")).to_be_hidden()
    sk.locator("#end-round-box summary").click()
    expect(sk.locator("#end-round-box .caution")).to_contain_text("ラウンド 1 の終了は取り消せません")
    expect(sk.locator("#end-round-box .caution")).to_contain_text("結果のないテーブル: 1, 2")
    for table in (1, 2):  # a round ends with each open table resolved (here: a draw)
        sk.select_option(f"#open-table-{table}", label="引き分け")
    sk.click("#end-round")
    expect(sk.locator(".flash.ok")).to_contain_text("ラウンド 1 を終了しました")


def _every_open_table(sk: Page, score: str) -> None:
    """Each table still open gets ``score`` from the quick entry, the next table ready each time."""
    while sk.input_value("#quick-table"):
        table = sk.input_value("#quick-table")
        sk.fill("#quick-score", score)
        sk.press("#quick-score", "Enter")
        expect(sk.locator("#quick-answer")).to_contain_text(f"テーブル{table} ")
        expect(sk.locator(f"#match-{table} .result")).not_to_contain_text("対戦中")


def _end_round(sk: Page) -> None:
    sk.locator("#end-round-box summary").click()
    sk.click("#end-round")
    expect(sk.locator(".flash.ok")).to_contain_text("を終了しました")


@VIEWPORTS
def test_a_top_four_playoff_with_a_third_place_match_runs_from_the_scorekeepers_page(
    site: Site, people: People, viewport: dict[str, int]
) -> None:
    event, scorekeeper = swiss_event(site, players=5)
    sk = at_the_scorekeepers_table(people, viewport, event, scorekeeper)
    sk.click("#pair-next")
    sk.click("#start-round")
    expect(sk.locator("#start-playoff-box")).to_have_count(0)  # not while a round is played
    expect(sk.locator("#match-1 button[value='1-1-1']")).to_have_count(1)  # a Swiss draw
    _every_open_table(sk, "21")
    # Every result is in: the warning before the round ends no longer lists a table.
    sk.locator("#end-round-box summary").click()
    expect(sk.locator("#end-round-warning")).not_to_contain_text("結果のないテーブル")
    sk.click("#end-round")
    # T10: the playoff starts from the page, seeded from the standings after round 1.
    sk.locator("#start-playoff-box summary").click()
    expect(sk.locator("#start-playoff-box .caution")).to_contain_text("取り消せません")
    expect(sk.locator("#start-playoff-box select[name=size] option")).to_have_count(1)  # 5 players: top 4
    # A size that is no bracket, however it is sent, is refused by the rule and starts nothing.
    sk.evaluate(
        "document.querySelector('#start-playoff-box select[name=size]').add(new Option('6', '6', true, true))"
    )
    sk.click("#start-playoff")
    expect(sk.locator(".flash.error")).to_contain_text("6人にはできません")
    expect(sk.locator("#start-playoff-box")).to_have_count(1)
    sk.locator("#start-playoff-box summary").click()
    sk.check("#start-playoff-box input[name=third_place]")
    sk.click("#start-playoff")
    expect(sk.locator(".flash.ok")).to_contain_text("上位4人の決勝トーナメントを始めました")
    expect(sk.locator("table.matches tbody tr")).to_have_count(2)
    sk.click("#start-round")
    expect(sk.locator("#match-1 button[value='2-1']")).to_have_count(1)
    expect(sk.locator("#match-1 button[value='1-1-1']")).to_have_count(0)  # T10: a playoff has a winner
    _every_open_table(sk, "21")
    _end_round(sk)
    # The bracket's next round (the final and the third-place match) from the same button.
    expect(sk.locator("#pair-next")).to_have_text("決勝トーナメントの次のラウンドを組む")
    sk.click("#pair-next")
    expect(sk.locator(".flash.ok")).to_contain_text("ラウンド 3 の組み合わせを作りました")
    expect(sk.locator("#playoff-bracket")).to_contain_text("3位決定戦")
    sk.click("#start-round")
    _every_open_table(sk, "20")
    _end_round(sk)
    expect(sk.locator("#playoff-over")).to_be_visible()
    expect(sk.locator("#pair-next")).to_have_count(0)
