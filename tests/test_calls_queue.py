"""The judges' queue of calls (T14) on judges' phones and on the desk, SQLite and
PostgreSQL: open calls longest waiting first with the minutes shown; claim, escalate and
resolve in one tap; resolving proposes the extension, confirmed or changed with a reason;
the desk shows escalated calls beside the appeals; the live stream names the calls panel.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shinpan.services import publish, rounds
from shinpan.services.calls import raise_call, raise_call_as_player
from shinpan.web.live import panels_touched
from web_support import FLOOR_JUDGE, World, ledger_size, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for made in worlds(request, tmp_path_factory, players=16, spare=0):
        rounds.start_round(made.db, made.event)
        publish.publish(made.db, made.event, names="names")
        yield made


def _form(w: World, role: str, path: str, page: str, **data: str) -> tuple[int, str]:
    client = w.clients[role]
    r = client.post(
        path,
        data={"command_id": w.cid("q"), "csrf_token": client.csrf, **data},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"},
    )
    return r.status_code, r.text


def test_a_claim_on_one_phone_shows_on_the_others_and_the_time_comes_back(world: World) -> None:
    w = world
    queue = f"/events/{w.event}/calls"
    first = raise_call_as_player(w.db, w.event, 3, "rules")["call"]
    second = raise_call(w.db, w.event, 4, judge=FLOOR_JUDGE[0])["call"]
    page = w.clients["floor_judge"].get(queue).text
    assert page.index(f'id="call-{first}"') < page.index(f'id="call-{second}"')  # longest waiting first
    assert "3番卓" in page and "ルールの質問" in page and "分待ち" in page and "対応する" in page
    status, text = _form(w, "floor_judge", f"/events/{w.event}/desk/call/{first}/claim", queue)
    assert status == 200 and f"{FLOOR_JUDGE[0]}が対応中" in text
    other = w.clients["head_judge"].get(queue).text  # the other phone, redrawn on the change
    assert f"{FLOOR_JUDGE[0]}が対応中" in other and f"/events/{w.event}/record?call={first}" in other
    before = ledger_size(w)
    status, text = _form(w, "head_judge", f"/events/{w.event}/desk/call/{first}/claim", queue)
    assert status == 409 and "すでに" in text and ledger_size(w) == before
    form = w.clients["floor_judge"].get(f"/events/{w.event}/desk/call/{first}/resolve").text
    assert "延長の提案: 0分" in form
    status, text = _form(
        w, "floor_judge", f"/events/{w.event}/desk/call/{first}/resolve", queue,
        outcome="none", rulings="", minutes="2", proposed="0", reason="",
    )  # fmt: skip
    assert status == 422 and "理由" in text and ledger_size(w) == before
    status, text = _form(
        w, "floor_judge", f"/events/{w.event}/desk/call/{first}/resolve", queue,
        outcome="none", rulings="", minutes="2", proposed="0", reason="デッキ確認も",
    )  # fmt: skip
    assert status == 200 and f'id="call-{first}"' not in text
    with w.db.read() as conn:
        clock = rounds.read_clock(conn, w.event, 1, rounds.parse_stamp(rounds.stamp()))
    (table,) = [t for t in clock.tables if t.table == 3]
    assert [(g.minutes, g.reason) for g in table.time_given] == [(2, "デッキ確認も")]


def test_the_desk_shows_escalated_calls_beside_the_appeals(world: World) -> None:
    w = world
    n = raise_call(w.db, w.event, 6, "dispute", judge=FLOOR_JUDGE[0])["call"]
    desk = f"/events/{w.event}/desk"
    status, text = _form(w, "floor_judge", f"/events/{w.event}/desk/call/{n}/escalate", desk)
    assert status == 200 and 'id="appeals"' in text
    page = w.clients["head_judge"].get(desk).text
    appeals = page[page.index('id="appeals"') : page.index('id="calls"')]
    assert "ヘッドジャッジに渡されたコール" in appeals and "6番卓" in appeals
    assert "ヘッドジャッジ対応中" in page[page.index('id="calls"') :]


def test_the_stream_names_the_calls_panel_for_every_moment_of_a_call() -> None:
    for kind in ("call.raised", "call.claimed", "call.escalated", "call.resolved"):
        assert "calls" in panels_touched(frozenset({kind}))
    assert "appeals" in panels_touched(frozenset({"call.escalated"}))


def test_the_statistics_page_charts_the_calls(world: World) -> None:
    w = world
    raise_call(w.db, w.event, 7, judge=FLOOR_JUDGE[0])
    page = w.clients["head_judge"].get(f"/events/{w.event}/reports/stats")
    assert (
        page.status_code == 200
        and 'id="chart-calls"' in page.text
        and "ラウンド別のジャッジ・コール" in page.text
    )
    assert "対応時間の中央値" in page.text and "90パーセンタイル" in page.text
