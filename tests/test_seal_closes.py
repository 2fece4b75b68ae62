"""A seal closes the event: after the head judge's seal nothing is recorded, confirmed,
corrected, paired, reported or dropped in it, on any path (the services, the web pages, the
JSON API, the command line, the players' winner's report), each refused with the same clear
message and nothing appended; the head judge reopens it with a reason, an entry every later
paper shows, and everything works again, a new seal too. SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import Backend, EventSetup, make_event, run_cli
from shinpan import reports
from shinpan.engine.event_rules import Role
from shinpan.errors import EventClosed
from shinpan.files import seals, transfer
from shinpan.files.csvio import PlayerRow
from shinpan.services import (
    appeals,
    corrections,
    events,
    formats,
    integrity,
    players,
    publish,
    reopen,
    rounds,
    seal,
    swiss,
    winner_reports,
)
from shinpan.services.codes import match_codes
from shinpan.services.heads import read_head
from shinpan.store.db import Database
from shinpan.web.live import panels_touched
from web_support import HEAD_JUDGE, build_world, database_url, ledger_size


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """shinpan's data folder for this test: where a PostgreSQL installation keeps its key."""
    folder = tmp_path / "home"
    monkeypatch.setenv("SHINPAN_HOME", str(folder))
    monkeypatch.setenv("COLUMNS", "400")
    return folder


def length(ev: EventSetup) -> int:
    with ev.db.read() as conn:
        return read_head(conn, ev.id).position


# Every write a person makes, as a service call on the event of :func:`make_event` (round 1
# paired, not started; ruling 1 of P001's extra cards, ruling 2 of P003's tardiness).
WRITES: dict[str, Callable[[EventSetup], Any]] = {
    "record": lambda ev: ev.record("P002", "ingame.slow-play"),
    "confirm": lambda ev: corrections.confirm(ev.db, ev.id, [1]),
    "deviate": lambda ev: corrections.deviate(ev.db, ev.id, 1, ["caution"], "初参加のため"),
    "void": lambda ev: corrections.void(ev.db, ev.id, 1, "別の選手だった"),
    "appeal": lambda ev: appeals.file_appeal(ev.db, ev.id, 1, "P001", "引いていない"),
    "statement": lambda ev: appeals.add_statement(ev.db, ev.id, "P001", "player", "見ていました"),
    "start round": lambda ev: rounds.start_round(ev.db, ev.id),
    "result": lambda ev: events.report_result(ev.db, ev.id, 1, 1, result="a"),
    "end round": lambda ev: events.end_round(ev.db, ev.id, 1),
    "late entrant": lambda ev: players.add_player(
        ev.db, ev.id, PlayerRow("P009", "選手 9", "せんしゅ", None)
    ),
    "correct a name": lambda ev: players.correct_player(
        ev.db, ev.id, PlayerRow("P001", "改名", "かいめい", None)
    ),
    "drop": lambda ev: swiss.drop_player(ev.db, ev.id, "P004"),
    "add a judge": lambda ev: events.add_judge(ev.db, ev.id, name="FJ2", level=1, role=Role.floor_judge),
    "publish": lambda ev: publish.publish(ev.db, ev.id, names="names"),
    "format": lambda ev: formats.set_format(ev.db, ev.id, match_format="bo1"),
    "seal again": lambda ev: seal.seal_event(ev.db, ev.id),
}


@pytest.fixture
def ev(db: Database) -> EventSetup:
    setup = make_event(db, players=4)
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P003", "pregame.tardiness")
    return setup


@pytest.mark.parametrize("write", list(WRITES))
def test_every_write_is_refused_after_a_seal_and_done_after_a_reopening(ev: EventSetup, write: str) -> None:
    if write == "format":  # the format changes before round 1 is paired
        ev = make_event(ev.db, players=4, pair=False)
    if write in ("result", "drop"):  # results once the round runs (T5); a drop once the match is over
        rounds.start_round(ev.db, ev.id)
    if write == "drop":
        events.report_result(ev.db, ev.id, 1, 2, result="a")
    done = seal.seal_event(ev.db, ev.id)
    before = length(ev)
    with pytest.raises(EventClosed) as refused:
        WRITES[write](ev)
    assert refused.value.status == 423
    assert f"{HEAD} sealed it at" in str(refused.value) and "the head judge must reopen it" in str(
        refused.value
    )
    assert length(ev) == before  # nothing appended
    again = reopen.reopen_event(ev.db, ev.id, "結果の入力漏れ")
    assert again["seal"] == done["seq"]
    WRITES[write](ev)  # done now
    assert length(ev) > before + 1
    assert integrity.verify(ev.db, ev.id).ok


HEAD = "HJ"  # make_event's head judge


def test_a_retry_of_a_command_made_before_the_seal_answers_as_the_first_time(ev: EventSetup) -> None:
    first = ev.record("P002", "ingame.slow-play", command_id="retry-0001")
    seal.seal_event(ev.db, ev.id)
    again = ev.record("P002", "ingame.slow-play", command_id="retry-0001")
    assert again.entry == first.entry


def test_the_reopening_needs_a_reason_a_seal_and_the_head_judge(ev: EventSetup) -> None:
    from shinpan.errors import Conflict, Forbidden, InvalidInput

    with pytest.raises(Conflict, match="not sealed"):
        reopen.reopen_event(ev.db, ev.id, "理由")
    seal.seal_event(ev.db, ev.id)
    with pytest.raises(InvalidInput, match="say why"):
        reopen.reopen_event(ev.db, ev.id, "   ")
    with pytest.raises(Forbidden):
        reopen.reopen_event(ev.db, ev.id, "理由", actor=ev.floor_judge)
    reopen.reopen_event(ev.db, ev.id, "理由")
    with pytest.raises(Conflict, match="not sealed"):
        reopen.reopen_event(ev.db, ev.id, "もう一度")


def test_every_later_paper_shows_the_reopening_and_a_new_seal_covers_what_came_after(
    ev: EventSetup, backend: Backend
) -> None:
    first = seal.seal_event(ev.db, ev.id)
    reopen.reopen_event(ev.db, ev.id, "結果の入力漏れ")
    ev.record("P004", "ingame.slow-play")
    html = reports.render(reports.penalty_report(ev.db, ev.id), "html").content.decode("utf-8")
    assert "封印の解除" in html and "結果の入力漏れ" in html and f"第{first['seq'] + 1}項" in html
    pdf = reports.render(reports.penalty_report(ev.db, ev.id), "pdf").content
    assert pdf.startswith(b"%PDF")
    second = seal.seal_event(ev.db, ev.id)
    assert second["seq"] > first["seq"] + 2
    result = integrity.verify(ev.db)
    assert result.ok and result.sealed == {ev.id: second["position"]}
    assert len(seal.kept_seals(ev.db)) == 2
    html = reports.render(reports.penalty_report(ev.db, ev.id), "html").content.decode("utf-8")
    assert "封印済み" in html and "結果の入力漏れ" in html  # the reopening is still on paper
    assert integrity.rebuild(ev.db, ev.id, check_only=True) == []


def test_a_sealed_then_reopened_event_survives_export_import_and_rebuild(
    ev: EventSetup, backend: Backend, tmp_path: Path
) -> None:
    seal.seal_event(ev.db, ev.id)
    reopen.reopen_event(ev.db, ev.id, "結果の入力漏れ")
    ev.record("P004", "ingame.slow-play")
    seal.seal_event(ev.db, ev.id)
    data = transfer.export_event(ev.db, ev.id)
    kinds = [e["kind"] for e in data["entries"]]
    assert kinds.count("event.sealed") == 2 and kinds.count("event.reopened") == 1
    other = Database(f"sqlite:///{tmp_path / 'elsewhere' / 'shinpan.sqlite3'}")
    try:
        assert seals.trust_export_keys(other, data, [seal.fingerprint(data["seals"][0]["key"])]) == []
        imported = transfer.import_event(other, json.loads(json.dumps(data)))
        new_id = imported.event_id
        assert integrity.verify(other, new_id).ok
        assert integrity.rebuild(other, new_id, check_only=True) == []
        with pytest.raises(EventClosed):  # the import is sealed as the file is
            corrections.void(other, new_id, 1, "別の選手だった")
    finally:
        other.close()
    assert integrity.rebuild(ev.db, ev.id, check_only=True) == []


def test_the_command_line_refuses_after_a_seal_and_reopens(ev: EventSetup, backend: Backend) -> None:
    sealed = run_cli("event", "seal", "--event", str(ev.id), "--yes", db=backend.url)
    assert sealed.returncode == 0, sealed.stderr
    refused = run_cli(
        "result", "--event", str(ev.id), "--round", "1", "--table", "1", "--match", "a", db=backend.url
    )
    assert refused.returncode == 1
    assert (
        "この大会は封印されています" in refused.stderr
        and "ヘッドジャッジが封印を解除してください" in refused.stderr
    )
    no_reason = run_cli("event", "reopen", "--event", str(ev.id), "--reason", " ", db=backend.url)
    assert no_reason.returncode == 1 and "封印を解除する理由を書いてください" in no_reason.stderr
    opened = run_cli(
        "event", "reopen", "--event", str(ev.id), "--reason", "決勝の結果の訂正", "--json", db=backend.url
    )
    assert opened.returncode == 0, opened.stderr
    said = json.loads(opened.stdout)
    assert said["reason"] == "決勝の結果の訂正" and said["seq"] == said["seal"] + 1
    floor = run_cli(
        "event", "reopen", "--event", str(ev.id), "--reason", "x", "--judge", ev.floor_judge, db=backend.url
    )
    assert floor.returncode == 1
    checked = run_cli("verify", db=backend.url)
    assert checked.returncode == 0
    assert f"大会 {ev.id} は第{said['seal'] - 1}項で封印済み(第{said['seq']}項で封印を解除)" in checked.stdout
    assert json.loads(run_cli("verify", "--json", db=backend.url).stdout)["reopened"] == {
        str(ev.id): said["seq"]
    }


def test_the_players_winner_report_is_refused_after_a_seal(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)
    publish.publish(ev.db, ev.id, winner_report=True)
    with ev.db.read() as conn:
        code = match_codes(ev.db, conn, ev.id, 1, [1])[1]
    seal.seal_event(ev.db, ev.id)
    before = length(ev)
    with pytest.raises(EventClosed):
        winner_reports.report_win(ev.db, ev.id, 1, 1, code, "2-0")
    assert length(ev) == before
    reopen.reopen_event(ev.db, ev.id, "勝者報告を受ける")
    assert winner_reports.report_win(ev.db, ev.id, 1, 1, code, "2-0").seq == before + 2


# -- the web and the JSON API ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_pages_and_the_api_refuse_after_a_seal_say_so_and_the_head_judge_reopens(
    kind: str, tmp_path: Path
) -> None:
    with database_url(kind, tmp_path) as url:
        w = build_world(url, players=4, spare=0)
        try:
            hj, fj, sk = (w.clients[r] for r in ("head_judge", "floor_judge", "scorekeeper"))
            sealed = hj.post(f"/api/events/{w.event}/seal", json={"command_id": w.cid("seal")})
            assert sealed.status_code == 200, sealed.text
            state = hj.get(f"/api/events/{w.event}/seal").json()
            assert state["sealed"] is True and state["by"] == HEAD_JUDGE[0]
            before = ledger_size(w)

            api = fj.post(
                f"/api/events/{w.event}/rulings",
                json={"command_id": w.cid(), "player": w.players[0], "infraction": "ingame.cards-off-table"},
            )
            assert api.status_code == 423, api.text
            assert "この大会は封印されています" in api.json()["detail"]
            form = fj.post(
                f"/events/{w.event}/record",
                data={"command_id": w.cid(), "player": w.players[0], "infraction": "ingame.cards-off-table"},
            )
            assert (
                form.status_code == 423 and "記録するにはヘッドジャッジが封印を解除してください" in form.text
            )
            assert ledger_size(w) == before

            for page in (f"/events/{w.event}/scorekeeper", f"/events/{w.event}/desk"):
                shown = (sk if "scorekeeper" in page else hj).get(page).text
                assert 'id="seal-state"' in shown and "この大会は封印されています" in shown, page
            assert panels_touched(frozenset({"event.sealed"})) == ["queue"]  # a live desk is told
            live = hj.get(f"/events/{w.event}/desk/panels?only=queue").text
            assert "この大会は封印されています" in live
            token = publish_token(w)
            assert token is None  # publishing is a command too: refused while sealed

            reports_page = hj.get(f"/events/{w.event}/reports").text
            assert 'action="/events/' in reports_page and "/reopen" in reports_page
            assert "封印を解除する" in reports_page
            assert "/reopen" not in sk.get(f"/events/{w.event}/reports").text
            refused = sk.post(f"/events/{w.event}/reopen", data={"command_id": w.cid(), "reason": "x"})
            assert refused.status_code == 403
            blank = hj.post(f"/events/{w.event}/reopen", data={"command_id": w.cid(), "reason": ""})
            assert blank.status_code == 422 and "封印を解除する理由を書いてください" in blank.text
            reopened = hj.post(
                f"/events/{w.event}/reopen",
                data={"command_id": w.cid(), "reason": "入力漏れの記録"},
                follow_redirects=True,
            )
            assert reopened.status_code == 200 and "封印を解除しました" in reopened.text
            assert "封印の後に解除されました" in reopened.text and "入力漏れの記録" in reopened.text

            api = fj.post(
                f"/api/events/{w.event}/rulings",
                json={"command_id": w.cid(), "player": w.players[0], "infraction": "ingame.cards-off-table"},
            )
            assert api.status_code in (200, 201), api.text
            desk = hj.get(f"/events/{w.event}/desk").text
            assert "封印の後に解除されました" in desk
            token = publish_token(w)
            assert token is not None
            public = w.clients["signed_out"].get(f"/p/{token}/pairings").text
            assert "封印の後に解除されました" in public and "入力漏れの記録" in public
            home = w.clients["signed_out"].get(f"/p/{token}").text  # the player's own table
            assert "封印の後に解除されました" in home

            again = hj.post(f"/api/events/{w.event}/seal", json={"command_id": w.cid("seal")})
            assert again.status_code == 200
            public = w.clients["signed_out"].get(f"/p/{token}/pairings").text
            assert "この大会は封印されています" in public
            api_reopen = hj.post(
                f"/api/events/{w.event}/reopen", json={"command_id": w.cid(), "reason": "もう一度"}
            )
            assert api_reopen.status_code == 200 and api_reopen.json()["reason"] == "もう一度"
            assert integrity.verify(w.db, w.event).ok
        finally:
            w.close()


def publish_token(w: Any) -> str | None:
    try:
        return publish.publish(w.db, w.event, names="names").token
    except EventClosed:
        return None


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_players_page_refuses_a_winners_report_after_a_seal(kind: str, tmp_path: Path) -> None:
    from shinpan.web.public import AddressLimit

    with database_url(kind, tmp_path) as url:
        w = build_world(url, players=4, spare=0)
        try:
            w.app.state.public_limit = AddressLimit(10_000)
            w.app.state.report_limit = AddressLimit(10_000)
            rounds.start_round(w.db, w.event)
            token = publish.publish(w.db, w.event, names="names", winner_report=True).token
            with w.db.read() as conn:
                code = match_codes(w.db, conn, w.event, 1, [1])[1]
            seal.seal_event(w.db, w.event)
            before = ledger_size(w)
            sent = w.clients["signed_out"].http.post(
                f"/p/{token}/report",
                data={
                    "round_no": "1",
                    "table": "1",
                    "code": code,
                    "score": "2-0",
                    "command_id": w.cid("win"),
                },
            )
            assert sent.status_code == 423, sent.text
            assert "この大会は封印されています" in sent.text
            assert ledger_size(w) == before
        finally:
            w.close()
