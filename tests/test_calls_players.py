"""What players do for themselves on the players' pages (T12, T14), without an account, on
SQLite and PostgreSQL: call a judge to their table in one tap (with an optional reason), see
that a judge is coming and who, never anything the judge records; see their result once the
scorekeeper has it; drop between rounds with their registration code. The slip's QR code
opens the call page of its table. Bad input is refused in Japanese and changes nothing; each
address may raise a bounded number of calls a minute.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from shinpan.reports.result_slip import result_slips
from shinpan.services import publish, rounds
from shinpan.services.calls import Resolution, claim_call, raise_call, resolve_call
from shinpan.services.codes import player_codes
from shinpan.services.results import Wanted, report_result
from shinpan.web.public import AddressLimit
from web_support import FLOOR_JUDGE, World, ledger_size, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for made in worlds(request, tmp_path_factory, players=16, spare=0):
        rounds.start_round(made.db, made.event)
        made.app.state.public_limit = AddressLimit(10_000)
        yield made


def _token(w: World) -> str:
    token = publish.publish(w.db, w.event, names="names").token
    assert token is not None
    return token


def _post(w: World, path: str, **form: str) -> tuple[int, str]:
    r = w.clients["signed_out"].http.post(path, data={**form, "command_id": w.cid("p")})
    return r.status_code, r.text


def test_a_player_calls_a_judge_from_their_page_and_sees_who_is_coming(world: World) -> None:
    w = world
    w.app.state.call_limit = AddressLimit(10_000)
    token, me = _token(w), w.players[2]  # table 2
    page = w.clients["signed_out"].get(f"/p/{token}/player/{me}")
    assert page.status_code == 200 and "2番卓にジャッジを呼ぶ" in page.text and "ルールの質問" in page.text
    status, text = _post(w, f"/p/{token}/call", table="2", reason="rules", player=me)
    assert status == 200 and "2番卓にジャッジを呼びました" in text and "お待ちください" in text
    before = ledger_size(w)
    status, text = _post(w, f"/p/{token}/call", table="2", reason="", player=me)  # the opponent, or twice
    assert status == 409 and "すでにジャッジを呼んでいます" in text and ledger_size(w) == before
    state = w.clients["signed_out"].get(f"/p/{token}/player/{me}/state").json()
    assert (state["table"], state["call"]["state"], state["call"]["judge"]) == (2, "open", None)
    n = state["call"]["call"]
    claim_call(w.db, w.event, n, judge=FLOOR_JUDGE[0])
    ruling = w.record(me, "ingame.slow-play", call=n)
    seen = w.clients["signed_out"].get(f"/p/{token}/player/{me}")
    assert f"ジャッジが向かっています: {FLOOR_JUDGE[0]}" in seen.text
    assert "遅いプレイ" not in seen.text and "slow-play" not in seen.text and "警告" not in seen.text
    resolve_call(w.db, w.event, n, Resolution("ruling", [ruling]), judge=FLOOR_JUDGE[0])
    assert w.clients["signed_out"].get(f"/p/{token}/player/{me}/state").json()["call"] is None


def test_a_call_for_a_table_not_in_the_round_is_refused_and_calls_per_address_are_bounded(
    world: World,
) -> None:
    w = world
    token = _token(w)
    w.app.state.call_limit = AddressLimit(3)
    before = ledger_size(w)
    status, text = _post(w, f"/p/{token}/call", table="99")
    assert status == 422 and "いまの回戦に対戦がありません" in text and ledger_size(w) == before
    assert _post(w, f"/p/{token}/call", table="5")[0] == 200
    assert _post(w, f"/p/{token}/call", table="6", reason="dispute")[0] == 200
    after = ledger_size(w)
    status, text = _post(w, f"/p/{token}/call", table="7")
    assert status == 429 and "1分待つ" in text and ledger_size(w) == after
    api = w.clients["signed_out"].http.post(f"/api/p/{token}/calls", json={"command_id": w.cid(), "table": 7})
    assert api.status_code == 429 and "1分" in api.json()["detail"] and ledger_size(w) == after
    w.app.state.call_limit = AddressLimit(10_000)
    api = w.clients["signed_out"].http.post(f"/api/p/{token}/calls", json={"command_id": w.cid(), "table": 7})
    assert api.status_code == 201 and api.json()["state"] == "open" and api.json()["table"] == 7


def test_the_slips_second_qr_code_opens_the_call_page_of_its_table(world: World) -> None:
    w = world
    token = _token(w)
    slip = next(s for s in result_slips(w.db, w.event, 1).slips if s.table == 8)
    parts = urlsplit(slip.call_url)
    assert parts.path == f"/events/{w.event}/call" and parts.query == "table=8" and "<svg" in slip.call_qr_svg
    led = w.clients["signed_out"].http.get(f"{parts.path}?{parts.query}", follow_redirects=False)
    assert led.status_code == 303 and led.headers["location"] == f"/p/{token}/call?table=8"
    page = w.clients["signed_out"].get(led.headers["location"])
    assert page.status_code == 200 and "8番卓にジャッジを呼ぶ" in page.text


def test_a_player_sees_their_result_and_drops_between_rounds_with_their_code(world: World) -> None:
    w = world
    w.app.state.call_limit = AddressLimit(10_000)
    token = _token(w)
    me = w.players[8]  # table 5, seat a
    with w.db.read() as conn:
        code = player_codes(w.db, conn, w.event, [me])[me]
    before = ledger_size(w)
    status, text = _post(w, f"/p/{token}/drop", player=me, code=code)
    assert status == 409 and "5番卓の対戦の結果がまだ入っていません" in text and ledger_size(w) == before
    status, text = _post(w, f"/p/{token}/drop", player=me, code="ZZZZ-ZZZZ")
    assert status == 422 and "登録コードが違います" in text and ledger_size(w) == before
    report_result(w.db, w.event, 1, 5, Wanted(score="2-1"))
    state = w.clients["signed_out"].get(f"/p/{token}/player/{me}/state").json()
    assert (state["result"], state["score"]) == ("win", "2-1")
    assert "記録されました: あなたの勝ち 2-1" in w.clients["signed_out"].get(f"/p/{token}/player/{me}").text
    status, text = _post(w, f"/p/{token}/drop", player=me, code=code)
    assert status == 200 and "大会からドロップしました" in text
    api = w.clients["signed_out"].http.post(
        f"/api/p/{token}/drop", json={"command_id": w.cid(), "player": me, "code": code}
    )
    assert api.status_code == 409 and "すでに大会から抜けています" in api.json()["detail"]


def test_judges_calls_show_nothing_on_the_players_page_but_who_is_coming(world: World) -> None:
    w = world
    token = _token(w)
    me = w.players[18] if len(w.players) > 18 else w.players[-2]
    table = (w.players.index(me) // 2) + 1
    n = raise_call(w.db, w.event, table, "dispute", judge=FLOOR_JUDGE[0])["call"]
    text = w.clients["signed_out"].get(f"/p/{token}/player/{me}").text
    assert "ジャッジを呼んでいます" in text and "もめごと" not in text.split("call-status")[1][:200]
    claim_call(w.db, w.event, n, judge=FLOOR_JUDGE[0])
    assert (
        w.clients["signed_out"].get(f"/p/{token}/player/{me}/state").json()["call"]["judge"] == FLOOR_JUDGE[0]
    )
