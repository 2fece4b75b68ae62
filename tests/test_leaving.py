"""D14, D17, D22: a ruling recorded for a player who has already left the event (dropped,
withdrawn, ejected, disqualified) is recorded and counted (D1), says so, applies to no match
and sets no deadline, on every path: the pure core, ``shinpan replay`` and the ledger."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import T0, run_cli
from ledger_paths import Refused, through_ledger
from shinpan.engine import Deviation, Record, ScenarioError, decide, replay
from shinpan.engine.effects import Match, PlayerView, plan_ruling
from shinpan.engine.event_rules import Status
from shinpan.engine.leaving import as_left, left_by, left_reason
from shinpan.guideline.terms import Act
from shinpan.services import deadlines, queries
from shinpan.store.db import Database
from shinpan.views.events import list_events
from support import BOOK

TARDY = "pregame.tardiness"
# A is late, still absent at ten minutes, not there by the end of the match: withdrawn (D9).
WITHDRAWN = [{"player": "A", "infraction": TARDY}, {"missed": 0}, {"missed": 0}]


def tardy(player: str = "A") -> Any:
    (made,) = decide(BOOK, Record(player, TARDY), {}, {"A", "B"})
    return made


def test_a_ruling_for_a_player_who_left_keeps_its_penalties_and_sets_no_deadline() -> None:
    made = tardy()
    assert made.dues  # tardiness owes the player's arrival
    left = as_left(made, Status.disqualified)
    assert left.dues == () and left.penalties == made.penalties and left.offense == made.offense
    assert left_reason(left) == "left_disqualified"
    assert as_left(made, None) == made


def test_d17_a_disqualification_waiting_for_the_head_judge_has_not_removed_the_player() -> None:
    (dq,) = decide(BOOK, Record("A", "severe.cheating"), {}, {"A", "B"})
    assert dq.needs_head_judge and "disqualification" in dq.penalties
    assert left_by(BOOK, [dq]) is None
    (deviated,) = decide(
        BOOK,
        Record("A", "ingame.slow-play", deviation=Deviation(("disqualification",), "stalling")),
        {},
        {"A", "B"},
    )
    assert left_by(BOOK, [deviated]) is Status.disqualified  # the head judge's own: at once


def test_d22_a_draw_for_a_player_who_left_leaves_the_match_their_leaving_decided() -> None:
    ended = Match(3, 7, "A", "B", result="b", result_ruling=4)
    view = PlayerView("A", Status.disqualified, ended)
    assert plan_ruling(view, 9, [Act("match_draw"), Act("duel_loss")], pending=False) == []
    still = PlayerView("A", Status.active, ended)
    assert plan_ruling(still, 9, [Act("match_draw")], pending=False) != []


def test_replay_a_withdrawn_player_s_new_tardiness_has_no_deadline_to_miss() -> None:
    rulings = replay(
        BOOK, {"players": ["A", "B"], "events": [*WITHDRAWN, {"player": "A", "infraction": TARDY}]}
    )
    last = rulings[-1]
    assert last["rule"] == TARDY and last["offense"] == 2 and not last["follow_up"]
    assert "already withdrawn" in last["explanation"]
    with pytest.raises(ScenarioError) as refused:
        replay(
            BOOK,
            {
                "players": ["A", "B"],
                "events": [*WITHDRAWN, {"player": "A", "infraction": TARDY}, {"missed": 3}],
            },
        )
    assert refused.value.index == 4


def test_the_ledger_records_a_withdrawn_player_s_ruling_with_no_deadline_and_says_so(db: Database) -> None:
    scenario = {"players": ["A", "B"], "events": [*WITHDRAWN, {"player": "A", "infraction": TARDY}]}
    through_ledger(db, scenario, T0)
    (event,) = [e.id for e in list_events(db)]
    feed = queries.rulings_feed(db, event, limit=100)
    last = max(feed, key=lambda r: r["number"])
    assert last["rule"] == TARDY and "すでに棄権" in last["explanation_ja"]
    assert not [d for d in deadlines.list_deadlines(db, event, now=T0) if d.ruling == last["number"]]
    with pytest.raises(Refused) as refused:
        through_ledger(db, {**scenario, "events": [*scenario["events"], {"missed": 3}]}, T0)
    assert refused.value.index == 4


def test_the_cli_warns_japanese_first_and_the_json_says_who_had_left(db: Database, db_url: str) -> None:
    through_ledger(db, {"players": ["A", "B"], "events": WITHDRAWN}, T0)
    (event,) = [e.id for e in list_events(db)]
    args = ["record", "--event", str(event), "--player", "A", TARDY, "--yes"]
    shown = run_cli(*args, db=db_url)
    assert shown.returncode == 0, shown.stderr
    warning = next(line for line in shown.stdout.splitlines() if line.startswith("注意"))
    assert "すでに棄権" in warning and warning.index("すでに棄権") < warning.index("already withdrawn")
    answer = json.loads(run_cli(*args, "--json", db=db_url).stdout)
    (left,) = answer["left"]
    assert (left["player"], left["status"]) == ("A", "withdrawn") and "期限も設けません" in left["ja"]
    assert answer["rulings"][0]["dues"] == []
