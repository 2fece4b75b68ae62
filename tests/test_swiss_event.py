"""A whole small Swiss event through the services, on SQLite and on PostgreSQL: pairing with a
recorded seed, the round's clock and each table's time (D21), penalties landing on the
matches (D10), a disqualification waiting for the head judge (D17) and then ending the
match (D22), a drop, results, standings after each round and as they stood earlier.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from conftest import FLOOR_JUDGE, T0, EventSetup
from shinpan.engine.event_rules import Role
from shinpan.errors import Conflict, Forbidden, InvalidInput, NotFound, Refused
from shinpan.services import corrections, deadlines, events, integrity, rounds, swiss
from shinpan.services.context import stamp
from shinpan.services.scoresheet import round_sheet
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.tournament import pair_round, recommended_rounds
from shinpan.tournament.model import Entrant
from shinpan.tournament.rounds import OpenTable
from shinpan.views.standings import event_standings

# -- helpers --------------------------------------------------------------------------------


def consistent(db: Database) -> None:
    assert integrity.rebuild(db, check_only=True) == []
    result = integrity.verify(db)
    assert result.ok, (result.breaks, result.differences)


def ledger(ev: EventSetup, kind: str | None = None) -> list[dict[str, Any]]:
    with ev.db.read() as conn:
        rows = Statement("SELECT kind, body FROM entries WHERE event_id = :e ORDER BY seq").all(
            conn, {"e": ev.id}
        )
        return [{"kind": k, **json.loads(b)} for k, b in rows if kind in (None, k)]


def size(ev: EventSetup) -> int:
    with ev.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries WHERE event_id = :e").scalar(conn, {"e": ev.id}))


def table_of(paired: swiss.PairedRound, player: str) -> dict[str, Any]:
    return next(p for p in paired.pairings if player in (p["a"], p["b"]))


def opponent(paired: swiss.PairedRound, player: str) -> str | None:
    p = table_of(paired, player)
    return p["b"] if p["a"] == player else p["a"]


def row(ev: EventSetup, round_no: int, player: str) -> dict[str, Any]:
    found = [
        s for s in event_standings(ev.db, ev.id, round_no).as_json()["standings"] if s["player"] == player
    ]
    assert len(found) == 1
    return found[0]


def finish(ev: EventSetup, paired: swiss.PairedRound, winner_side: str = "a") -> None:
    """Every match of the round still without a result: the ``winner_side`` wins 2-0."""
    sheet = round_sheet(ev.db, ev.id, paired.round)
    if sheet.clock.state == "paired":
        rounds.start_round(ev.db, ev.id, now=ev.clock.now)  # results once the round runs (T5)
    for m in sheet.rows:
        if m.b is not None and m.result is None:
            winner = m.a.number if winner_side == "a" else m.b.number
            for _ in range(2):
                events.report_result(ev.db, ev.id, paired.round, m.table, winner=winner, now=ev.clock.now)


@pytest.fixture
def swiss_event(new_event: Callable[..., EventSetup]) -> EventSetup:
    """Nine players, nobody paired yet."""
    return new_event(players=9, pair=False)


# -- the whole event ---------------------------------------------------------------------------


def test_a_small_swiss_event_from_the_first_pairing_to_the_standings(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=1998, now=ev.clock.now)
    # Round 1: everyone once, four tables and the bye; the seed is in the ledger and pairs
    # the same round again.
    seated = [p for t in r1.pairings for p in (t["a"], t["b"]) if p]
    assert sorted(seated) == ev.players and r1.round == 1
    assert [p["table"] for p in r1.pairings] == [1, 2, 3, 4, None]
    paired_entry = ledger(ev, "round.paired")[0]
    assert paired_entry["seed"] == 1998
    again = pair_round(1, [Entrant(p) for p in ev.players], [], paired_entry["seed"])
    assert [(p.a, p.b) for p in again] == [(p["a"], p["b"]) for p in r1.pairings]

    started = rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    assert started["minutes"] == 50 and started["ends_at"] == stamp(T0 + timedelta(minutes=50))

    slow, match_loser, cheat = (r1.pairings[n]["a"] for n in range(3))
    bye = r1.pairings[4]["a"]
    # Slow play: the 1st gives extra turns at the table, the 2nd a duel loss to the opponent.
    ev.clock.advance(10)
    first_slow = ev.record(slow, "ingame.slow-play").rulings[0]["number"]
    second_slow = ev.record(slow, "ingame.slow-play").rulings[0]["number"]
    # Early withdrawal: a match loss now, and a deadline at the end of the round.
    withdrawal = ev.record(match_loser, "ingame.early-withdrawal").rulings[0]["number"]
    # Cheating: disqualification waits for the head judge (D17) and the match goes on.
    dq = ev.record(cheat, "severe.cheating").rulings[0]["number"]
    sheet = round_sheet(ev.db, ev.id, now=ev.clock.now)
    tables = {m.table: m for m in sheet.rows}
    assert [
        (d.number, d.winner and d.winner.number, d.cause and d.cause.ruling) for d in tables[1].duels
    ] == [(1, opponent(r1, slow), second_slow)]
    assert [x.ruling for x in tables[1].clock.extra_turns] == [first_slow]  # type: ignore[union-attr]
    assert tables[2].result == "b" and tables[2].cause and tables[2].cause.ruling == withdrawal
    assert tables[3].result is None and [p.number for p in sheet.pending] == [cheat]
    assert sheet.people[cheat].pending == ("disqualification",)
    assert row(ev, 1, cheat)["status"] == "active"
    # A judge gives table 4 five minutes for a deck check: its own end time moves.
    rounds.give_time(ev.db, ev.id, 4, 5, "デッキチェック", judge=FLOOR_JUDGE, now=ev.clock.now)
    clock = rounds.round_clock(ev.db, ev.id, now=ev.clock.now)
    ends = {t.table: t.ends_at for t in clock.tables}
    assert ends[1] == stamp(T0 + timedelta(minutes=50)) and ends[4] == stamp(T0 + timedelta(minutes=55))
    assert clock.seconds_left == 40 * 60
    assert [d.ruling for d in clock.due_at_round_end] == [withdrawal]
    # The head judge confirms: the player is disqualified and loses the match (D22).
    ev.clock.advance(5)
    corrections.confirm(ev.db, ev.id, [dq], now=ev.clock.now)
    sheet = round_sheet(ev.db, ev.id, now=ev.clock.now)
    m3 = next(m for m in sheet.rows if m.table == 3)
    assert m3.winner and m3.winner.number == opponent(r1, cheat) and m3.cause and m3.cause.ruling == dq
    assert sheet.pending == []
    # The scorekeeper reports the rest; the round ends.
    finish(ev, r1)
    ev.clock.advance(40)
    events.end_round(ev.db, ev.id, now=ev.clock.now)
    after1 = event_standings(ev.db, ev.id, 1).as_json()  # after round 1, asked by number (T6)
    assert after1["round"] == 1
    by_player = {s["player"]: s for s in after1["standings"]}
    assert by_player[bye]["points"] == 3 and by_player[bye]["wins"] == 1
    assert by_player[cheat]["rank"] is None and by_player[cheat]["status"] == "disqualified"
    assert by_player[match_loser]["points"] == 0 and by_player[opponent(r1, match_loser)]["points"] == 3
    assert by_player[opponent(r1, match_loser)]["gw"] == 1.0  # a penalty's match loss counts 2-0
    assert after1["standings"][-1]["player"] == cheat

    # Between rounds: the player who lost the match drops.
    swiss.drop_player(ev.db, ev.id, match_loser, now=ev.clock.now)
    r2 = swiss.pair_next_round(ev.db, ev.id, now=ev.clock.now)
    seed2 = ledger(ev, "round.paired")[1]["seed"]
    assert r2.round == 2 and isinstance(seed2, int) and r2.seed == seed2
    seated2 = [p for t in r2.pairings for p in (t["a"], t["b"]) if p]
    assert sorted(seated2) == sorted(set(ev.players) - {cheat, match_loser})
    assert r2.pairings[-1]["b"] is None and r2.pairings[-1]["a"] != bye  # nobody has a second bye
    met = {frozenset((p["a"], p["b"])) for p in r1.pairings if p["b"]}
    assert not any(frozenset((p["a"], p["b"])) in met for p in r2.pairings if p["b"])
    rounds.start_round(ev.db, ev.id, minutes=40, now=ev.clock.now)
    finish(ev, r2, "b")
    events.end_round(ev.db, ev.id, now=ev.clock.now)

    # The standings now, and as they stood after round 1 (statuses included).
    now = {s["player"]: s for s in event_standings(ev.db, ev.id).as_json()["standings"]}
    assert now[match_loser]["status"] == "dropped" and now[match_loser]["rank"] is not None
    assert sum(s["wins"] for s in now.values()) >= 8
    # T6: the drop came after round 1 ended, so the standings after round 1 are as they were.
    assert event_standings(ev.db, ev.id, 1).as_json() == after1
    consistent(ev.db)


def test_standings_as_they_stood_keep_the_status_of_that_time(swiss_event: EventSetup) -> None:
    """A disqualification in round 2 shows in round 2's standings, not in round 1's."""
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=3, now=ev.clock.now)
    finish(ev, r1)
    events.end_round(ev.db, ev.id, now=ev.clock.now)
    r2 = swiss.pair_next_round(ev.db, ev.id, seed=4, now=ev.clock.now)
    cheat = r2.pairings[0]["a"]
    corrections.confirm(
        ev.db, ev.id, [ev.record(cheat, "severe.cheating").rulings[0]["number"]], now=ev.clock.now
    )
    assert row(ev, 1, cheat)["status"] == "active" and row(ev, 1, cheat)["rank"] is not None
    assert row(ev, 2, cheat)["status"] == "disqualified" and row(ev, 2, cheat)["rank"] is None


# -- the clock (D21) ---------------------------------------------------------------------------


def test_tardiness_runs_from_the_rounds_start_other_deadlines_from_the_ruling(
    swiss_event: EventSetup,
) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=5, now=ev.clock.now)
    late_before_start = r1.pairings[0]["a"]
    ev.record(late_before_start, "pregame.tardiness")  # no round started: from the ruling (D21)
    ev.clock.advance(3)
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    ev.clock.advance(6)
    late = r1.pairings[1]["a"]
    ev.record(late, "pregame.tardiness")
    ev.record(r1.pairings[2]["a"], "cards.marked-no-pattern")
    due = {(d.player, d.due_kind): d for d in deadlines.list_deadlines(ev.db, ev.id, now=ev.clock.now)}
    assert due[(late_before_start, "minutes")].due_at == stamp(T0 + timedelta(minutes=10))
    assert due[(late, "minutes")].due_at == stamp(T0 + timedelta(minutes=13))  # start + 10
    assert due[(r1.pairings[2]["a"], "minutes")].due_at == stamp(T0 + timedelta(minutes=19))  # ruling + 10
    # The end-of-match deadline waits for the match, shown with its table at the round's end.
    assert not due[(late, "end_of_match")].overdue
    playing = {t.table: t for t in rounds.round_clock(ev.db, ev.id).still_playing}
    assert [d.player for d in playing[r1.pairings[1]["table"]].due_at_end] == [late]
    # The round ends with its open tables resolved (here: draws), never left open.
    events.end_round(ev.db, ev.id, now=ev.clock.now, open_tables=dict.fromkeys(playing, OpenTable.draw))
    assert rounds.round_clock(ev.db, ev.id).still_playing == []
    consistent(ev.db)


def test_a_round_starts_once_for_its_length_and_ends_once(swiss_event: EventSetup) -> None:
    ev = swiss_event
    with pytest.raises(Conflict, match="pair round 1 first"):
        rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    swiss.pair_next_round(ev.db, ev.id, seed=1, now=ev.clock.now)
    with pytest.raises(InvalidInput):
        rounds.start_round(ev.db, ev.id, minutes=0, now=ev.clock.now)
    assert (
        rounds.start_round(ev.db, ev.id, minutes=30, command_id="start-1", now=ev.clock.now)["minutes"] == 30
    )
    assert rounds.start_round(ev.db, ev.id, minutes=30, command_id="start-1")["minutes"] == 30  # a retry
    with pytest.raises(Conflict, match="already started"):
        rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    with pytest.raises(InvalidInput, match="why"):
        rounds.give_time(ev.db, ev.id, 1, 3, "  ", now=ev.clock.now)
    with pytest.raises(Refused, match="bye"):
        rounds.give_time(ev.db, ev.id, 5, 3, "judge call", now=ev.clock.now)
    with pytest.raises(Forbidden):
        events.add_judge(ev.db, ev.id, name="SK", level=None, role=Role.scorekeeper)
        rounds.give_time(ev.db, ev.id, 1, 3, "judge call", judge="SK", now=ev.clock.now)
    with pytest.raises(Conflict, match="tables 1, 2, 3, 4"):  # open tables are resolved first
        events.end_round(ev.db, ev.id, now=ev.clock.now)
    draws = dict.fromkeys((1, 2, 3, 4), OpenTable.draw)
    assert events.end_round(ev.db, ev.id, now=ev.clock.now, open_tables=draws) == 1
    with pytest.raises(Conflict, match="already ended"):
        events.end_round(ev.db, ev.id, 1, now=ev.clock.now)


def test_the_event_sets_the_round_length(db: Database) -> None:
    event = events.create_event(db, name="長い大会", head_judge="HJ", head_judge_level=2, round_minutes=60)
    from shinpan.files.csvio import PlayerRow

    events.import_players(db, event, [PlayerRow(f"X{i}", f"選手{i}", "", None) for i in range(4)])
    swiss.pair_next_round(db, event, seed=0)
    assert rounds.start_round(db, event)["minutes"] == 60


# -- bad input changes nothing -----------------------------------------------------------------


def test_bad_input_is_refused_clearly_and_changes_nothing(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=11, now=ev.clock.now)
    cheat = r1.pairings[0]["a"]
    corrections.confirm(
        ev.db, ev.id, [ev.record(cheat, "severe.cheating").rulings[0]["number"]], now=ev.clock.now
    )
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    before = size(ev)
    with pytest.raises(Conflict, match="without a result"):
        swiss.pair_next_round(ev.db, ev.id, now=ev.clock.now)  # pairing a round twice
    with pytest.raises(Refused, match="bye"):
        events.report_result(ev.db, ev.id, 1, 5, result="a", now=ev.clock.now)  # a result for a bye
    with pytest.raises(Refused, match="disqualified"):
        swiss.drop_player(ev.db, ev.id, cheat, now=ev.clock.now)
    with pytest.raises(NotFound, match="table 9"):
        events.report_result(ev.db, ev.id, 1, 9, result="a", now=ev.clock.now)
    with pytest.raises(NotFound):
        swiss.drop_player(ev.db, ev.id, "nobody", now=ev.clock.now)
    with pytest.raises(Conflict, match="paired at table"):
        swiss.drop_player(ev.db, ev.id, r1.pairings[1]["a"], now=ev.clock.now)
    with pytest.raises(InvalidInput, match="seed"):
        swiss.pair_next_round(ev.db, ev.id, seed=2**31, now=ev.clock.now)
    finish(ev, r1)
    with pytest.raises(Conflict, match="has not ended"):
        swiss.pair_next_round(ev.db, ev.id, now=ev.clock.now)
    assert size(ev) == before + 6  # only the results
    consistent(ev.db)


def test_a_dropped_player_is_never_paired_again_and_stays_in_the_standings(swiss_event: EventSetup) -> None:
    ev = swiss_event
    for seed in (1, 2):
        paired = swiss.pair_next_round(ev.db, ev.id, seed=seed, now=ev.clock.now)
        finish(ev, paired)
        events.end_round(ev.db, ev.id, now=ev.clock.now)
        if seed == 1:
            leaving = paired.pairings[0]["a"]
            swiss.drop_player(ev.db, ev.id, leaving, now=ev.clock.now)
            with pytest.raises(Refused, match="already dropped"):
                swiss.drop_player(ev.db, ev.id, leaving, now=ev.clock.now)
        else:
            assert all(leaving not in (p["a"], p["b"]) for p in paired.pairings)
    assert row(ev, 2, leaving)["status"] == "dropped" and row(ev, 2, leaving)["points"] == 3


def test_a_dropped_player_stays_dropped_when_a_later_ruling_is_voided(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=8, now=ev.clock.now)
    finish(ev, r1)
    leaving = r1.pairings[0]["a"]
    swiss.drop_player(ev.db, ev.id, leaving, now=ev.clock.now)
    dq = ev.record(leaving, "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [dq], now=ev.clock.now)
    assert row(ev, 1, leaving)["status"] == "disqualified"
    corrections.void(ev.db, ev.id, dq, "wrong player", now=ev.clock.now)
    assert row(ev, 1, leaving)["status"] == "dropped"
    consistent(ev.db)


# -- the head judge changes a pairing -------------------------------------------------------


def test_the_head_judge_changes_a_pairing_before_the_round_starts(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=21, now=ev.clock.now)
    (t1a, t1b), (t2a, t2b) = [(p["a"], p["b"]) for p in r1.pairings[:2]]
    swap = [swiss.TableChange(1, t1a, t2b), swiss.TableChange(2, t2a, t1b)]
    with pytest.raises(Forbidden):
        swiss.edit_pairings(ev.db, ev.id, swap, "friends", actor=FLOOR_JUDGE, now=ev.clock.now)
    with pytest.raises(InvalidInput, match="why"):
        swiss.edit_pairings(ev.db, ev.id, swap, " ", now=ev.clock.now)
    with pytest.raises(InvalidInput, match="paired twice"):
        swiss.edit_pairings(ev.db, ev.id, swap[:1], "siblings", now=ev.clock.now)
    swiss.edit_pairings(ev.db, ev.id, swap, "siblings must not meet", now=ev.clock.now)
    sheet = {m.table: (m.a.number, m.b and m.b.number) for m in round_sheet(ev.db, ev.id).rows}
    assert sheet[1] == (t1a, t2b) and sheet[2] == (t2a, t1b)
    assert ledger(ev, "pairing.edited")[0]["reason"] == "siblings must not meet"
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    with pytest.raises(Conflict, match="has started"):
        swiss.edit_pairings(ev.db, ev.id, swap, "again", now=ev.clock.now)
    consistent(ev.db)


def test_a_loss_carried_from_the_last_round_lands_on_the_new_pairing(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=30, now=ev.clock.now)
    finish(ev, r1)
    late = r1.pairings[0]["a"]
    ev.record(late, "pregame.tardiness")  # no match in progress: the duel loss waits (D10)
    events.end_round(ev.db, ev.id, now=ev.clock.now)
    r2 = swiss.pair_next_round(ev.db, ev.id, seed=31, now=ev.clock.now)
    m = next(m for m in round_sheet(ev.db, ev.id).rows if late in (m.a.number, m.b and m.b.number))
    assert m.b is not None and [d.winner and d.winner.number for d in m.duels] == [opponent(r2, late)]
    consistent(ev.db)


@pytest.mark.parametrize(("players", "rounds_"), [(8, 3), (9, 4), (16, 4), (32, 5)])
def test_the_recommended_number_of_rounds_follows_the_player_count(players: int, rounds_: int) -> None:
    assert recommended_rounds(players) == rounds_


def test_a_disqualification_waiting_for_the_head_judge_still_plays_d17(swiss_event: EventSetup) -> None:
    ev = swiss_event
    r1 = swiss.pair_next_round(ev.db, ev.id, seed=12, now=ev.clock.now)
    finish(ev, r1)
    waiting = r1.pairings[0]["a"]
    ev.record(waiting, "severe.cheating")  # recorded, not confirmed
    events.end_round(ev.db, ev.id, now=ev.clock.now)
    r2 = swiss.pair_next_round(ev.db, ev.id, seed=13, now=ev.clock.now)
    assert waiting in [p for t in r2.pairings for p in (t["a"], t["b"])]
    assert [p.number for p in round_sheet(ev.db, ev.id).pending] == [waiting]
    assert row(ev, 2, waiting)["status"] == "active"
