"""What the desk, the API and a ruling's page read, through the store's typed reads
(``store.feed``, ``store.appeals``, ``store.matches``, ``store.players``) — on SQLite and
on PostgreSQL: the feed newest first and its pages, the confirmation queue (D17), appeals
open first (D11) with the statements, who a ruling concerns, and a player's matches with
their duels.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import EventSetup
from shinpan.errors import Conflict, NotFound
from shinpan.services import appeals, corrections, events, queries, rounds
from shinpan.store.ledger import EVENT_COLUMNS, open_command
from shinpan.store.settings import EventSettings, event_settings


def numbers(feed: list[dict[str, Any]]) -> list[int]:
    return [r["number"] for r in feed]


def made(ev: EventSetup, player: str, infraction: str) -> dict[str, Any]:
    (ruling,) = ev.record(player, infraction).rulings
    return ruling


def test_the_feed_shows_the_newest_ruling_first_and_pages_back_by_number(ev: EventSetup) -> None:
    notice = made(ev, "P001", "ingame.looking-at-extra-cards")
    warned = [made(ev, p, "players.wrong-opponent") for p in ("P002", "P003", "P004")]
    every = [notice["number"], *(r["number"] for r in warned)]
    assert numbers(queries.rulings_feed(ev.db, ev.id)) == sorted(every, reverse=True)
    assert numbers(queries.rulings_feed(ev.db, ev.id, limit=2)) == sorted(every, reverse=True)[:2]
    older = queries.rulings_feed(ev.db, ev.id, before=warned[1]["number"])
    assert numbers(older) == [warned[0]["number"], notice["number"]]
    assert older[0]["player_name"] == "選手 2"


def test_the_confirmation_queue_is_the_feed_of_what_waits_for_the_head_judge(ev: EventSetup) -> None:
    notice = made(ev, "P001", "ingame.looking-at-extra-cards")
    waiting = [made(ev, p, "severe.cheating") for p in ("P002", "P003")]
    assert not notice["needs_head_judge"] and all(r["needs_head_judge"] for r in waiting)
    queue = queries.rulings_feed(ev.db, ev.id, state="pending")
    assert numbers(queue) == [waiting[1]["number"], waiting[0]["number"]]
    assert queue[0]["awaiting_status"] == "disqualified"  # D17: not yet, until confirmed
    paged = queries.rulings_feed(ev.db, ev.id, state="pending", before=waiting[1]["number"])
    assert numbers(paged) == [waiting[0]["number"]]
    corrections.confirm(ev.db, ev.id, [waiting[0]["number"]], now=ev.clock.now)
    assert numbers(queries.rulings_feed(ev.db, ev.id, state="pending")) == [waiting[1]["number"]]


def test_appeals_list_the_open_ones_first_with_the_ruling_as_it_stands(ev: EventSetup) -> None:
    first = made(ev, "P001", "players.wrong-opponent")
    second = made(ev, "P003", "players.wrong-opponent")
    heard = appeals.file_appeal(ev.db, ev.id, first["number"], "P001", "相手を間違えていない")
    still_open = appeals.file_appeal(ev.db, ev.id, second["number"], "P003", "卓番号が違っていた")
    appeals.decide_appeal(ev.db, ev.id, heard, "overturned", "the table card was wrong")
    listed = queries.appeals_of(ev.db, ev.id)
    assert [(a["entry"], a["outcome"]) for a in listed] == [(still_open, None), (heard, "overturned")]
    assert listed[1] == {
        "entry": heard,
        "ruling": first["number"],
        "by": "P001",
        "reason": "相手を間違えていない",
        "outcome": "overturned",
        "decision_reason": "the table card was wrong",
        "player": "P001",
        "player_name": "選手 1",
        "rule": "players.wrong-opponent",
        "penalties": first["penalties"],
        "state": "voided",
    }
    with pytest.raises(Conflict, match="already decided"):
        appeals.decide_appeal(ev.db, ev.id, heard, "upheld", "again")
    with pytest.raises(NotFound):
        appeals.decide_appeal(ev.db, ev.id, still_open + 100, "upheld", "no such appeal")


def test_statements_are_listed_in_the_order_they_were_given(ev: EventSetup) -> None:
    cheated = made(ev, "P001", "severe.cheating")
    appeals.add_statement(ev.db, ev.id, "P002", "opponent", "山札の下から引いた", ruling=cheated["number"])
    appeals.add_statement(ev.db, ev.id, "FJ", "judge", "見ていた")
    assert queries.statements_of(ev.db, ev.id) == [
        {
            "ruling": cheated["number"],
            "author": "P002",
            "author_role": "opponent",
            "text": "山札の下から引いた",
        },
        {"ruling": None, "author": "FJ", "author_role": "judge", "text": "見ていた"},
    ]


def test_a_ruling_concerns_its_player_and_the_opponent_at_its_table(ev: EventSetup) -> None:
    at_table = made(ev, "P004", "players.wrong-opponent")
    involved = queries.involved(ev.db, ev.id, queries.get_ruling(ev.db, ev.id, at_table["number"]))
    assert [(p.number, p.name) for p in involved] == [("P004", "選手 4"), ("P003", "選手 3")]
    away = queries.get_ruling(ev.db, ev.id, at_table["number"]) | {"round": None, "table": None}
    assert [p.number for p in queries.involved(ev.db, ev.id, away)] == ["P004"]


def test_a_players_history_has_each_match_with_its_own_duels(new_event: Any) -> None:
    ev: EventSetup = new_event(players=4)
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, winner="P002", now=ev.clock.now)
    events.report_result(ev.db, ev.id, 1, 2, winner="P003", now=ev.clock.now)
    events.report_result(ev.db, ev.id, 1, 1, result="b", now=ev.clock.now)
    events.report_result(ev.db, ev.id, 1, 2, result="a", now=ev.clock.now)
    events.end_round(ev.db, ev.id, 1, now=ev.clock.now)
    ev.pair(2, [("P002", "P003"), ("P001", "P004")])
    rounds.start_round(ev.db, ev.id)
    events.report_result(ev.db, ev.id, 2, 1, winner="P003", now=ev.clock.now)
    history = queries.player_history(ev.db, ev.id, "P002")
    assert [(m["round"], m["table"], m["result"], m["duels"]) for m in history["matches"]] == [
        (1, 1, "b", [{"duel": 1, "winner": "P002"}]),
        (2, 1, None, [{"duel": 1, "winner": "P003"}]),
    ]
    assert queries.round_matches(ev.db, ev.id, 1)["matches"][1]["duels"] == [{"duel": 1, "winner": "P003"}]
    with pytest.raises(NotFound):
        queries.player_history(ev.db, ev.id, "P999")


def test_a_command_and_a_page_read_the_same_settings_of_the_event(ev: EventSetup) -> None:
    assert EventSettings._fields == EVENT_COLUMNS
    with ev.db.read() as conn:
        settings = event_settings(conn, ev.id)
        opening = open_command(conn, ev.id, None, None)
        assert event_settings(conn, ev.id + 1000) is None
    assert settings is not None and opening is not None
    assert settings._asdict() == opening.event
    assert (settings.head_judge, settings.rel, settings.current_round) == ("HJ", 3, 1)
