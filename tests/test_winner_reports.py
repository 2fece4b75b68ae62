"""A winner's report (T11, T12): where the event allows it, the winner of a match reports
its score on the players' pages with the code printed on the table's slip; it waits on the
scorekeeper's page and counts once one tap confirms it. A wrong code is refused in Japanese
and changes nothing; a result that already stands is named; each address has a limit; the
ledger keeps the report and its confirmation, and an import decides them again. SQLite and
PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import run_cli
from shinpan.errors import ResultStands
from shinpan.files import transfer
from shinpan.files.csvio import parse_players
from shinpan.reports.result_slip import result_slips
from shinpan.services import (
    accounts,
    events,
    integrity,
    playoff,
    publish,
    queries,
    rounds,
    swiss,
    winner_reports,
)
from shinpan.services.results import Wanted, report_result
from shinpan.store.db import Database
from shinpan.web.public import AddressLimit
from web_support import HEAD_JUDGE, World, csrf_in, ledger_size, player_table, players_csv, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for made in worlds(request, tmp_path_factory, players=12, spare=0):
        rounds.start_round(made.db, made.event)  # results once the round runs (T5)
        yield made


def _open(w: World, *, reports: bool = True, per_minute: int = 10_000) -> str:
    w.app.state.public_limit = AddressLimit(10_000)
    w.app.state.report_limit = AddressLimit(per_minute)
    token = publish.publish(w.db, w.event, names="names", winner_report=reports).token
    assert token is not None
    return token


def _slip(w: World, table: int) -> tuple[str, str]:
    """The slip of ``table`` in round 1: its QR code's address (path and query) and its code."""
    found = next(s for s in result_slips(w.db, w.event, 1).slips if s.table == table)
    parts = urlsplit(found.url)
    return f"{parts.path}?{parts.query}", found.code


def _match(w: World, table: int) -> dict[str, object]:
    return next(m for m in queries.round_matches(w.db, w.event, 1)["matches"] if m["table"] == table)


def _send(w: World, token: str, table: int, code: str, score: str) -> tuple[int, str]:
    r = w.clients["signed_out"].http.post(
        f"/p/{token}/report",
        data={"round_no": "1", "table": str(table), "code": code, "score": score, "command_id": w.cid("win")},
    )
    return r.status_code, r.text


def test_a_winner_reports_with_the_slips_code_and_the_scorekeeper_confirms_in_one_tap(world: World) -> None:
    w, sk = world, world.clients["scorekeeper"]
    token = _open(w)
    qr, code = _slip(w, 1)
    led = w.clients["signed_out"].http.get(qr, follow_redirects=False)  # the QR code on the slip
    assert led.status_code == 303 and led.headers["location"].startswith(f"/p/{token}/report?")
    form = w.clients["signed_out"].get(led.headers["location"])
    assert form.status_code == 200 and "勝利の報告" in form.text and code in form.text
    assert "2-1" in form.text and "結果票のコード" in form.text

    status, page = _send(w, token, 1, code.lower().replace("-", " "), "2-1")  # typed loosely
    assert status == 200 and "送信しました" in page and "2-1" in page
    assert _match(w, 1)["result"] is None  # nothing counts before the scorekeeper confirms

    sheet = sk.get(f"/events/{w.event}/scorekeeper").text
    assert "確定待ちの勝者報告" in sheet and 'id="winner-report-1"' in sheet
    seq = re.search(r'name="report" value="(\d+)"', sheet)
    assert seq is not None
    tapped = sk.http.post(
        f"/events/{w.event}/scorekeeper/confirm",
        data={"csrf_token": csrf_in(sheet), "command_id": w.cid("tap"), "report": seq[1], "round_no": "1"},
        follow_redirects=False,
    )
    assert tapped.status_code == 303
    after = sk.get(tapped.headers["location"]).text
    assert 'class="flash ok"' in after and 'id="winner-report-1"' not in after
    m = _match(w, 1)
    assert m["result"] == "a" and [d["winner"] for d in m["duels"]] == [
        m["player_a"],
        m["player_a"],
        m["player_b"],
    ]
    assert integrity.verify(w.db).ok


def test_a_wrong_code_is_refused_in_japanese_and_changes_nothing(world: World) -> None:
    w = world
    token = _open(w)
    _, right = _slip(w, 2)
    _, other = _slip(w, 3)
    before = ledger_size(w)
    status, page = _send(w, token, 2, other, "2-0")  # another table's code
    assert status == 422 and "コードがこの卓の結果票のものと違います" in page
    status, page = _send(w, token, 2, "XXXX-XXXX", "2-0")
    assert status == 422 and "コードがこの卓の結果票のものと違います" in page
    assert ledger_size(w) == before and _match(w, 2)["result"] is None
    status, page = _send(w, token, 2, right, "3-0")  # no such score in best of three
    assert status == 422 and ledger_size(w) == before
    assert 'value="' + right + '"' in page  # the code stays typed


def test_confirming_when_a_result_already_stands_says_which_stands(world: World) -> None:
    w = world
    token = _open(w)
    _, code = _slip(w, 4)
    assert _send(w, token, 4, code, "2-0")[0] == 200
    with w.db.read() as conn:
        (waiting,) = [r for r in winner_reports.pending_reports(conn, w.event, 1) if r.table == 4]
    report_result(w.db, w.event, 1, 4, Wanted(score="0-2"))  # the scorekeeper, from the paper slip
    with pytest.raises(ResultStands, match="0-2"):
        winner_reports.confirm_report(w.db, w.event, waiting.seq)
    assert _match(w, 4)["result"] == "b"
    status, page = _send(w, token, 4, code, "2-0")  # too late from the phone as well
    assert status == 409 and "もう結果があります" in page


def test_an_event_that_takes_no_winners_reports_refuses_them_and_each_address_has_a_limit(
    world: World,
) -> None:
    w, anyone = world, world.clients["signed_out"]
    token = _open(w, reports=False)
    qr, code = _slip(w, 1)
    refused = anyone.http.get(qr, follow_redirects=False)
    assert refused.status_code == 404 and "スコアキーパーの机" in refused.text
    before = ledger_size(w)
    status, page = _send(w, token, 1, code, "2-0")
    assert status == 404 and "スコアキーパーの机" in page and ledger_size(w) == before

    token = _open(w, per_minute=3)
    for _ in range(3):
        assert _send(w, token, 2, "XXXX-XXXX", "2-0")[0] == 422
    status, page = _send(w, token, 2, "XXXX-XXXX", "2-0")
    assert status == 429 and "1分" in page


def test_the_setting_is_on_the_command_line_and_an_import_decides_reports_again(
    world: World, tmp_path_factory: pytest.TempPathFactory
) -> None:
    w = world
    done = run_cli("event", "publish", "--event", str(w.event), "--winner-report", "--json", db=w.db.url)
    assert done.returncode == 0, done.stderr
    assert '"winner_report": true' in done.stdout
    token = _open(w)
    _, code = _slip(w, 5)
    assert _send(w, token, 5, code, "1-1@time")[0] == 200
    with w.db.read() as conn:
        (waiting,) = [r for r in winner_reports.pending_reports(conn, w.event, 1) if r.table == 5]
    assert waiting.at_time
    assert winner_reports.confirm_report(w.db, w.event, waiting.seq)["result"] == "draw"  # by duels (T8)
    data = transfer.export_event(w.db, w.event)
    kinds = {e["kind"] for e in data["entries"]}
    assert {"winner.reported", "winner.confirmed"} <= kinds
    other = Database(f"sqlite:///{tmp_path_factory.mktemp('imported')}/x.sqlite3")
    try:
        imported = transfer.import_event(other, data)
        again = transfer.export_event(other, imported.event_id)
        assert again["entries"][: len(data["entries"])] == data["entries"]
    finally:
        other.close()


def test_the_slips_qr_code_carries_round_table_and_code(world: World) -> None:
    qr, code = _slip(world, 1)
    query = parse_qs(urlsplit(qr).query)
    assert query == {"round": ["1"], "table": ["1"], "code": [code]}


def test_the_json_api_lists_waiting_reports_and_confirms_one_for_the_scorekeeper_only(world: World) -> None:
    w, sk = world, world.clients["scorekeeper"]
    token = _open(w)
    _, code = _slip(w, 6)
    assert _send(w, token, 6, code, "0-2")[0] == 200
    listed = sk.get(f"/api/events/{w.event}/winner-reports")
    assert listed.status_code == 200
    (waiting,) = [r for r in listed.json() if r["table"] == 6]
    assert (waiting["score"], waiting["at_time"], waiting["round"]) == ("0-2", False, 1)
    path = f"/api/events/{w.event}/winner-reports/{waiting['report']}/confirm"
    assert w.clients["viewer"].post(path, json={"command_id": w.cid()}).status_code == 403
    command = w.cid()
    done = sk.post(path, json={"command_id": command})
    assert done.status_code == 200, done.text
    assert (done.json()["result"], done.json()["shown"], done.json()["report"]) == (
        "b",
        "0-2",
        waiting["report"],
    )
    retried = sk.post(path, json={"command_id": command})  # a phone's retry: the first answer again
    assert retried.status_code == 200, retried.text
    assert {k: v for k, v in retried.json().items() if k != "replayed"} == {
        k: v for k, v in done.json().items() if k != "replayed"
    }
    again = sk.post(path, json={"command_id": w.cid()})
    assert again.status_code == 409
    assert all(r["table"] != 6 for r in sk.get(f"/api/events/{w.event}/winner-reports").json())
    document = sk.get("/api/openapi.json").json()
    assert "post" in document["paths"]["/api/events/{event_id}/winner-reports/{report}/confirm"]
    assert "get" in document["paths"]["/api/events/{event_id}/winner-reports"]


def test_a_playoffs_winner_picks_only_scores_with_a_winner(world: World) -> None:
    """T10: a playoff's match has no draw and no loss for both, so its report page offers no
    score that leaves the duels equal (each would be refused); the Swiss rounds' page does."""
    w = world
    head = accounts.account_named(w.db, HEAD_JUDGE[0])
    assert head is not None
    event = events.create_event(
        w.db, name="決勝のある大会", head_judge=HEAD_JUDGE[0], head_judge_level=HEAD_JUDGE[2],
        head_judge_account=head.uid,
    )  # fmt: skip
    table = player_table(4, prefix="W")
    events.import_players(w.db, event, parse_players(players_csv(table)), command_id=w.cid("po-players"))
    swiss.pair_next_round(w.db, event, seed=1)
    rounds.start_round(w.db, event)
    for n in (1, 2):
        report_result(w.db, event, 1, n, Wanted(score="2-0"))
    w.app.state.public_limit = AddressLimit(10_000)
    token = publish.publish(w.db, event, names="names", winner_report=True).token
    swiss_page = w.clients["signed_out"].get(f"/p/{token}/report?table=1").text
    assert 'value="1-1-1"' in swiss_page and 'value="1-1@time"' in swiss_page
    events.end_round(w.db, event)
    playoff.start_playoff(w.db, event, 4, command_id=w.cid("po-start"))
    page = w.clients["signed_out"].get(f"/p/{token}/report?table=1").text
    offered = re.findall(r'name="score" value="([^"]+)"', page)
    assert offered == ["2-0", "2-1", "0-2", "1-2", "1-0@time", "0-1@time"]
