"""Judge calls (T14) through the services, on SQLite and PostgreSQL: raised, claimed,
escalated, resolved with the table's time given back on the clock (T5); a ruling recorded
from a call cites it; a player drops themselves between rounds with their registration
code. Bad input is refused with a Japanese message and changes nothing; the ledger keeps
every moment, an export imports again entry for entry, and a rebuild gives the same tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FLOOR_JUDGE, HEAD_JUDGE, EventSetup
from shinpan.cli.common import in_japanese
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused, ShinpanError
from shinpan.files import transfer
from shinpan.services import events, integrity, publish, rounds, swiss
from shinpan.services.calls import (
    PLAYER,
    Resolution,
    claim_call,
    escalate_call,
    list_calls,
    raise_call,
    raise_call_as_player,
    resolve_call,
)
from shinpan.services.codes import player_codes
from shinpan.services.results import Wanted, report_result
from shinpan.services.self_service import drop_myself
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot
from shinpan.store.ledger import read_entries


def _started(ev: EventSetup) -> str:
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    token = publish.publish(ev.db, ev.id, names="names", now=ev.clock.now).token
    assert token is not None
    return token


def _size(ev: EventSetup) -> int:
    with ev.db.read() as conn:
        return len(list(read_entries(conn, ev.id)))


def _given(ev: EventSetup, table: int) -> list[tuple[int, str]]:
    with ev.db.read() as conn:
        clock = rounds.read_clock(conn, ev.id, 1, ev.clock.now)
    (t,) = [t for t in clock.tables if t.table == table]
    return [(g.minutes, g.reason) for g in t.time_given]


def _refused_in_japanese(error: ShinpanError) -> str:
    told = in_japanese(error)
    assert " / " in told, f"no Japanese for {error.template!r}"
    return told


def test_a_players_call_is_claimed_resolved_and_the_table_gets_its_time_back(ev: EventSetup) -> None:
    _started(ev)
    ev.clock.advance(minutes=10)
    raised = raise_call_as_player(ev.db, ev.id, 2, "rules", now=ev.clock.now)
    assert raised == {"call": raised["call"], "round": 1, "table": 2, "state": "open"}
    n = raised["call"]
    ev.clock.advance(seconds=140)
    (listed,) = list_calls(ev.db, ev.id, open_only=True, now=ev.clock.now)["calls"]
    assert (listed["waited_s"], listed["state"], listed["judge"], listed["reason"]) == (
        140,
        "open",
        None,
        "rules",
    )
    assert claim_call(ev.db, ev.id, n, judge=FLOOR_JUDGE, now=ev.clock.now)["state"] == "claimed"
    ev.clock.advance(minutes=3, seconds=20)  # 3:20 at the table: 2:20 over the first minute → 3 minutes
    recorded = ev.record("P003", "ingame.slow-play", call=n)
    ruling = recorded.rulings[0]["number"]
    (held,) = list_calls(ev.db, ev.id, now=ev.clock.now)["calls"]
    assert (held["judge"], held["rulings"], held["waited_s"]) == (FLOOR_JUDGE, [ruling], 140)
    done = resolve_call(ev.db, ev.id, n, Resolution("ruling", [ruling]), judge=FLOOR_JUDGE, now=ev.clock.now)
    assert (done["state"], done["outcome"], done["rulings"], done["proposed"], done["minutes"]) == (
        "resolved",
        "ruling",
        [ruling],
        3,
        3,
    )
    assert _given(ev, 2) == [(3, "ジャッジ・コールの対応時間")]
    assert list_calls(ev.db, ev.id, open_only=True, now=ev.clock.now)["calls"] == []
    with ev.db.read() as conn:
        kinds = [(e.kind, e.actor) for e in read_entries(conn, ev.id) if e.kind != "match.extended"][-5:]
    assert kinds == [
        ("call.raised", PLAYER),
        ("call.claimed", FLOOR_JUDGE),
        ("ruling.recorded", FLOOR_JUDGE),
        ("call.resolved", FLOOR_JUDGE),
        ("time.extended", FLOOR_JUDGE),
    ]


def test_the_judge_changes_the_proposed_minutes_only_with_a_reason(ev: EventSetup) -> None:
    _started(ev)
    n = raise_call(ev.db, ev.id, 1, judge=FLOOR_JUDGE, now=ev.clock.now)["call"]
    claim_call(ev.db, ev.id, n, judge=FLOOR_JUDGE, now=ev.clock.now)
    ev.clock.advance(seconds=61)
    before = _size(ev)
    with pytest.raises(InvalidInput) as refused:
        resolve_call(ev.db, ev.id, n, Resolution("none", extend=4), judge=FLOOR_JUDGE, now=ev.clock.now)
    assert "理由" in _refused_in_japanese(refused.value) and _size(ev) == before
    done = resolve_call(
        ev.db,
        ev.id,
        n,
        Resolution("none", extend=4, reason="デッキの確認も"),
        judge=FLOOR_JUDGE,
        now=ev.clock.now,
    )
    assert (done["proposed"], done["minutes"]) == (1, 4)
    assert _given(ev, 1) == [(4, "デッキの確認も")]


def test_an_escalated_call_goes_to_the_head_judge_and_ends_as_an_appeal(ev: EventSetup) -> None:
    _started(ev)
    n = raise_call(ev.db, ev.id, 3, "dispute", judge=FLOOR_JUDGE, now=ev.clock.now)["call"]
    claim_call(ev.db, ev.id, n, judge=FLOOR_JUDGE, now=ev.clock.now)
    assert escalate_call(ev.db, ev.id, n, judge=FLOOR_JUDGE, now=ev.clock.now)["state"] == "escalated"
    ev.clock.advance(seconds=30)
    done = resolve_call(ev.db, ev.id, n, Resolution("appeal"), judge=HEAD_JUDGE, now=ev.clock.now)
    assert (done["outcome"], done["minutes"]) == ("appeal", 0)
    assert _given(ev, 3) == []  # no minute over the first: nothing on the clock


def test_bad_calls_are_refused_in_japanese_and_change_nothing(ev: EventSetup) -> None:
    _started(ev)
    n = raise_call_as_player(ev.db, ev.id, 1, now=ev.clock.now)["call"]
    before = _size(ev)
    cases: list[tuple[type[ShinpanError], object]] = [
        (Refused, lambda: raise_call_as_player(ev.db, ev.id, 99, now=ev.clock.now)),  # no such table
        (
            Conflict,
            lambda: raise_call_as_player(ev.db, ev.id, 1, "time", now=ev.clock.now),
        ),  # one open per table
        (InvalidInput, lambda: raise_call_as_player(ev.db, ev.id, 2, "bored", now=ev.clock.now)),
        (
            Conflict,
            lambda: resolve_call(ev.db, ev.id, n, Resolution("none"), judge=FLOOR_JUDGE),
        ),  # not claimed
        (NotFound, lambda: claim_call(ev.db, ev.id, n + 1000, judge=FLOOR_JUDGE)),
    ]
    for kind, attempt in cases:
        with pytest.raises(kind) as refused:
            attempt()  # type: ignore[operator]
        _refused_in_japanese(refused.value)
    claim_call(ev.db, ev.id, n, judge=FLOOR_JUDGE, now=ev.clock.now)
    before = _size(ev)
    with pytest.raises(Conflict) as taken:
        claim_call(ev.db, ev.id, n, judge=HEAD_JUDGE, now=ev.clock.now)
    assert FLOOR_JUDGE in _refused_in_japanese(taken.value)
    with pytest.raises(InvalidInput) as cites:
        resolve_call(ev.db, ev.id, n, Resolution("ruling"), judge=FLOOR_JUDGE, now=ev.clock.now)
    _refused_in_japanese(cites.value)
    assert _size(ev) == before
    resolve_call(ev.db, ev.id, n, Resolution("none"), judge=FLOOR_JUDGE, now=ev.clock.now)
    before = _size(ev)
    with pytest.raises(Conflict) as twice:
        resolve_call(ev.db, ev.id, n, Resolution("none"), judge=FLOOR_JUDGE, now=ev.clock.now)
    _refused_in_japanese(twice.value)
    with pytest.raises(Conflict):
        ev.record("P001", "ingame.slow-play", call=n)  # a resolved call takes no ruling
    assert _size(ev) == before


def test_a_player_drops_between_rounds_with_their_code_and_is_not_paired_again(ev: EventSetup) -> None:
    _started(ev)
    with ev.db.read() as conn:
        code = player_codes(ev.db, conn, ev.id, ["P003"])["P003"]
    before = _size(ev)
    with pytest.raises(Conflict) as playing:  # table 2 has no result yet
        drop_myself(ev.db, ev.id, "P003", code, now=ev.clock.now)
    assert "2" in _refused_in_japanese(playing.value)
    with pytest.raises(Refused) as wrong:
        drop_myself(ev.db, ev.id, "P003", "XXXX-XXXX", now=ev.clock.now)
    _refused_in_japanese(wrong.value)
    assert _size(ev) == before
    report_result(ev.db, ev.id, 1, 2, Wanted(score="2-0"), now=ev.clock.now)
    assert drop_myself(ev.db, ev.id, "P003", code, now=ev.clock.now) == {"player": "P003", "round": 1}
    with pytest.raises(Conflict):
        drop_myself(ev.db, ev.id, "P003", code, now=ev.clock.now)
    for table in (1, 3, 4):
        report_result(ev.db, ev.id, 1, table, Wanted(score="2-0"), now=ev.clock.now)
    events.end_round(ev.db, ev.id, now=ev.clock.now)
    paired = swiss.pair_next_round(ev.db, ev.id, seed=1, now=ev.clock.now)
    seated = {p for t in paired.pairings for p in (t["a"], t["b"])}
    assert "P003" not in seated and "P004" in seated


def test_calls_and_a_players_drop_survive_export_import_and_rebuild(ev: EventSetup, tmp_path: Path) -> None:
    _started(ev)
    a = raise_call_as_player(ev.db, ev.id, 1, "time", now=ev.clock.now)["call"]
    b = raise_call(ev.db, ev.id, 2, judge=FLOOR_JUDGE, now=ev.clock.now)["call"]
    claim_call(ev.db, ev.id, a, judge=FLOOR_JUDGE, now=ev.clock.now)
    ev.clock.advance(minutes=4)
    ruling = ev.record("P001", "ingame.slow-play", call=a).rulings[0]["number"]
    resolve_call(ev.db, ev.id, a, Resolution("ruling", [ruling]), judge=FLOOR_JUDGE, now=ev.clock.now)
    escalate_call(ev.db, ev.id, b, judge=FLOOR_JUDGE, now=ev.clock.now)
    ev.clock.advance(minutes=2)
    resolve_call(
        ev.db, ev.id, b, Resolution("none", extend=0, reason="対局外"), judge=HEAD_JUDGE, now=ev.clock.now
    )
    report_result(ev.db, ev.id, 1, 3, Wanted(score="2-1"), now=ev.clock.now)
    with ev.db.read() as conn:
        code = player_codes(ev.db, conn, ev.id, ["P005"])["P005"]
    drop_myself(ev.db, ev.id, "P005", code, now=ev.clock.now)
    assert integrity.rebuild(ev.db, ev.id, check_only=True) == []
    with ev.db.read() as conn:
        stored = snapshot(conn, ev.id)
    integrity.rebuild(ev.db, ev.id)
    with ev.db.read() as conn:
        assert snapshot(conn, ev.id) == stored
    data = transfer.export_event(ev.db, ev.id)
    kinds = [e["kind"] for e in data["entries"]]
    assert {"call.raised", "call.claimed", "call.escalated", "call.resolved", "player.dropped"} <= set(kinds)
    other = Database(f"sqlite:///{tmp_path}/imported.sqlite3")
    try:
        imported = transfer.import_event(other, data)
        again = transfer.export_event(other, imported.event_id)
        count = len(data["entries"])
        assert again["entries"][:count] == data["entries"]
        # after the file, only the import's own: unpublished, and its note of the file
        assert [e["kind"] for e in again["entries"][count:]] == ["event.published", "event.imported"]
        calls = list_calls(other, imported.event_id, now=ev.clock.now)["calls"]
        assert [(c["call"], c["state"], c["outcome"], c["rulings"]) for c in calls] == [
            (a, "resolved", "ruling", [ruling]),
            (b, "resolved", "none", []),
        ]
    finally:
        other.close()
