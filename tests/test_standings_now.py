"""RULES T6's second paragraph (the standings now) and T10's last sentence (a disqualified
player has no place): first as the core decides them, then on every path that names no
round (the services, Matches' sheet, ``shinpan standings`` and ``placings``, the JSON API,
the playoff's cut), on SQLite and PostgreSQL.

The JSON API and Matches are read on an event of eight, P001 disqualified after round 1.

The event: four players, one round, P001 beats P002 2-0 and P003 beats P004 2-1; after the round
ended, P001 is caught cheating and the head judge confirms the disqualification.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from conftest import EventSetup, run_cli
from shinpan.errors import InvalidInput
from shinpan.services import corrections, events, playoff, results, rounds
from shinpan.services.results import Wanted
from shinpan.services.scoresheet import round_sheet
from shinpan.tournament import Entrant, Played, PlayerState, Standing, standings
from shinpan.tournament.playoff import first_round, next_round, placings, qualifiers
from shinpan.views.standings import event_standings
from web_support import World, worlds

# --- the core: T3, T6, T10

WON = [Played(1, "A", "B", "a", ("A", "A")), Played(1, "C", "D", "a", ("C", "D", "C"))]


def entrants(**status: PlayerState) -> list[Entrant]:
    return [Entrant(p, status.get(p, PlayerState.active)) for p in "ABCD"]


def ranks(lines: list[Standing]) -> dict[str, int | None]:
    return {line.player: line.rank for line in lines}


def test_t6_now_a_disqualification_after_the_last_round_takes_the_rank_and_the_others_move_up() -> None:
    after_round_1 = standings(entrants(), WON)
    assert ranks(after_round_1) == {"A": 1, "C": 2, "B": 3, "D": 4}
    now = standings(entrants(A=PlayerState.disqualified), WON)
    assert ranks(now) == {"C": 1, "B": 2, "D": 3, "A": None}
    assert [line.player for line in now][-1] == "A"  # listed, after the ranked ones (T3)


def test_t3_dropped_withdrawn_and_ejected_players_keep_their_rank_now() -> None:
    now = standings(entrants(A=PlayerState.dropped, C=PlayerState.ejected, B=PlayerState.withdrawn), WON)
    assert ranks(now) == {"A": 1, "C": 2, "B": 3, "D": 4}


def test_t10_the_cut_leaves_a_disqualified_player_out_and_the_next_ranked_takes_the_seat() -> None:
    now = standings(entrants(A=PlayerState.disqualified), WON)
    with pytest.raises(InvalidInput, match="still in the event"):
        qualifiers(now, 4, {})
    eight = [Entrant(p, PlayerState.active) for p in "ABCDEFGH"]
    games = [Played(1, a, b, "a", (a, a)) for a, b in ("AB", "CD", "EF", "GH")]
    table = standings(
        [replace(e, status=PlayerState.disqualified) if e.player == "A" else e for e in eight], games
    )
    assert "A" not in qualifiers(table, 4, {}) and len(qualifiers(table, 4, {})) == 4


SWISS = ["Hana", "Goro", "Fumi", "Eiji", "Daichi"]


def test_t10_without_a_playoff_a_disqualified_player_has_no_place_and_the_rest_move_up() -> None:
    assert placings(SWISS, [], {"Hana"}) == [(1, "Goro"), (2, "Fumi"), (3, "Eiji"), (4, "Daichi")]
    assert placings(SWISS, []) == list(enumerate(SWISS, start=1))


def test_t10_a_finalist_disqualified_after_the_final_has_no_place_wherever_it_came() -> None:
    semi = [replace(b, winner=b.a.player) if b.a else b for b in first_round(SWISS[:4])]  # Hana, Goro win
    final = [replace(b, winner="Hana") for b in next_round(semi, ())]
    assert [p for _, p in placings(SWISS, [semi, final])] == ["Hana", "Goro", "Fumi", "Eiji", "Daichi"]
    placed = placings(SWISS, [semi, final], {"Hana"})
    assert placed == [(1, "Goro"), (2, "Fumi"), (3, "Eiji"), (4, "Daichi")]


# --- every path that names no round, on both databases


@pytest.fixture
def dq_after_last_round(new_event: Callable[..., EventSetup]) -> EventSetup:
    ev = new_event(players=4)
    rounds.start_round(ev.db, ev.id)
    results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"))  # P001 beats P002
    results.report_result(ev.db, ev.id, 1, 2, Wanted(score="2-1"))  # P003 beats P004
    events.end_round(ev.db, ev.id)
    dq = ev.record("P001", "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [dq])
    return ev


def rows(table: dict[str, object]) -> dict[str, object]:
    return {s["player"]: s["rank"] for s in table["standings"]}  # type: ignore[attr-defined, index]


def test_t6_every_view_without_a_round_shows_the_standings_now(dq_after_last_round: EventSetup) -> None:
    ev = dq_after_last_round
    now = event_standings(ev.db, ev.id)
    assert now.now and rows(now.as_json()) == {"P003": 1, "P002": 2, "P004": 3, "P001": None}
    after_1 = event_standings(ev.db, ev.id, 1)
    assert not after_1.now and rows(after_1.as_json())["P001"] == 1  # "after round 1" stands as it was
    sheet = round_sheet(ev.db, ev.id)  # Matches, on the current round
    assert sheet.standings.now and {s.player: s.rank for s in sheet.standings.rows}["P001"] is None
    assert playoff.final_placings(ev.db, ev.id) == [(1, "P003"), (2, "P002"), (3, "P004")]


def test_t6_t10_the_cli_titles_the_standings_now_and_gives_no_place(
    dq_after_last_round: EventSetup, db_url: str
) -> None:
    ev = dq_after_last_round
    shown = run_cli("standings", "--event", str(ev.id), db=db_url)
    assert shown.returncode == 0, shown.stderr
    assert "現在の順位" in shown.stdout and "第1回戦終了時点" not in shown.stdout
    table = json.loads(run_cli("standings", "--event", str(ev.id), "--json", db=db_url).stdout)
    assert table["now"] is True and rows(table) == {"P003": 1, "P002": 2, "P004": 3, "P001": None}
    after = json.loads(
        run_cli("standings", "--event", str(ev.id), "--round", "1", "--json", db=db_url).stdout
    )
    assert after["now"] is False and rows(after)["P001"] == 1
    assert "第1回戦終了時点" in run_cli("standings", "--event", str(ev.id), "--round", "1", db=db_url).stdout
    placed = json.loads(run_cli("placings", "--event", str(ev.id), "--json", db=db_url).stdout)
    assert placed["placings"] == [
        {"place": 1, "player": "P003"},
        {"place": 2, "player": "P002"},
        {"place": 3, "player": "P004"},
    ]


def test_t10_the_playoff_cut_is_drawn_from_the_standings_now(new_event: Callable[..., EventSetup]) -> None:
    ev = new_event(players=6)
    rounds.start_round(ev.db, ev.id)
    for table in (1, 2, 3):
        results.report_result(ev.db, ev.id, 1, table, Wanted(score="2-0"))
    events.end_round(ev.db, ev.id)
    dq = ev.record("P001", "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [dq])
    started = playoff.start_playoff(ev.db, ev.id, 4, seed=1)
    seated = {p for pairing in started.as_json()["pairings"] for p in (pairing["a"], pairing["b"])}
    assert "P001" not in seated and len(seated) == 4
    assert "P001" not in [p for _, p in playoff.final_placings(ev.db, ev.id)]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Eight players; round 1 played (seat a wins every table) and ended; then P001 is
    disqualified, confirmed by the head judge."""
    for w in worlds(request, tmp_path_factory, players=8, spare=0):
        rounds.start_round(w.db, w.event)
        for table in (1, 2, 3, 4):
            results.report_result(w.db, w.event, 1, table, Wanted(score="2-0" if table > 1 else "2-1"))
        events.end_round(w.db, w.event)
        corrections.confirm(w.db, w.event, [w.record(w.players[0], "severe.cheating")])
        yield w


def test_t6_the_json_api_and_matches_show_the_standings_now(world: World) -> None:
    w, hj = world, world.clients["head_judge"]
    now = hj.get(f"/api/events/{w.event}/standings").json()
    assert now["now"] is True
    assert {s["player"]: s["rank"] for s in now["standings"]}[w.players[0]] is None
    after = hj.get(f"/api/events/{w.event}/standings?round=1").json()
    assert after["now"] is False and {s["player"]: s["rank"] for s in after["standings"]}[w.players[0]] == 4
    page = hj.get(f"/events/{w.event}/scorekeeper").text
    title = page.split('id="standings-title">', 1)[1].split("</h2>", 1)[0]
    assert title == "現在の順位"
    placed = hj.get(f"/api/events/{w.event}/placings").json()["placings"]
    assert w.players[0] not in [p["player"] for p in placed] and placed[0]["place"] == 1
