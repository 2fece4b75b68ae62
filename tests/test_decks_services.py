"""Decklists and deck checks (T13) through the services, on both databases: registration and
its problems, the lock, the head judge's correction, a check that ends in a proposal the record
flow cites, the table's extension, remedies done; export → import and rebuild keep it all."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import FLOOR_JUDGE, HEAD_JUDGE, EventSetup, make_event, new_backend
from shinpan.errors import Conflict, Forbidden, InvalidInput, NotFound, Refused
from shinpan.files import transfer
from shinpan.services import deck_rules, deckchecks, decklists, integrity, rounds
from shinpan.services.codes import player_codes
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot
from shinpan.tournament.decks import Decklist

SIDE = [(3, "Duress"), *[(1, f"Side {i}") for i in range(12)]]


def legal(prefix: str, *extra: tuple[int, str]) -> Decklist:
    main = [(4, f"{prefix} Bolt"), *[(1, f"{prefix} {i}") for i in range(56)]]
    return Decklist.of({"main": main + list(extra), "side": SIDE})


def presented(prefix: str, drop: int = 0, *extra: tuple[int, str]) -> Decklist:
    main = [(4 - drop, f"{prefix} Bolt"), *[(1, f"{prefix} {i}") for i in range(56)], *extra]
    return Decklist.of({"main": [m for m in main if m[0]], "side": SIDE})


@pytest.fixture
def ev(db: Database) -> EventSetup:
    setup = make_event(db, players=4)
    deck_rules.set_rules(db, setup.id, now=setup.clock.now)
    for p in setup.players:
        decklists.submit(db, setup.id, p, legal(p), now=setup.clock.now)
    return setup


def test_a_list_is_checked_at_once_and_an_illegal_one_still_registers(db: Database) -> None:
    setup = make_event(db, players=2)
    done = decklists.submit(
        db, setup.id, "P001", Decklist.of({"main": [(5, "Bolt"), *[(1, f"x{i}") for i in range(50)]]})
    )
    assert done.sections == {"main": 55}
    assert [p.ja for p in done.problems] == [
        "メインは55枚です（60枚以上にしてください）。",
        "メインの「Bolt」は4枚までです（5枚）。",
    ]
    states = {p["player"]: p["state"] for p in decklists.status(db, setup.id)["players"]}
    assert states == {"P001": "illegal", "P002": "missing"}


def test_a_list_for_an_unknown_player_changes_nothing(ev: EventSetup) -> None:
    with pytest.raises(NotFound):
        decklists.submit(ev.db, ev.id, "P999", legal("x"))
    with pytest.raises(NotFound):
        decklists.import_lists(
            ev.db, ev.id, {"P001": (legal("a"), "text", "", ""), "P999": (legal("b"), "text", "", "")}
        )
    assert decklists.show(ev.db, ev.id, "P001")["versions"] == 1


def test_the_lock_at_round_1_then_only_the_head_judge_corrects_with_a_reason(ev: EventSetup) -> None:
    decklists.submit(ev.db, ev.id, "P001", legal("P001", (1, "Extra")))
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    assert decklists.status(ev.db, ev.id)["locked"]
    with pytest.raises(Conflict):
        decklists.submit(ev.db, ev.id, "P001", legal("P001"))
    with pytest.raises(Forbidden):
        decklists.correct(ev.db, ev.id, "P001", legal("P001"), "記入ミス", judge=FLOOR_JUDGE)
    with pytest.raises(InvalidInput):
        decklists.correct(ev.db, ev.id, "P001", legal("P001"), "  ")
    decklists.correct(ev.db, ev.id, "P001", legal("P001"), "記入ミス")
    shown = decklists.show(ev.db, ev.id, "P001")
    assert shown["versions"] == 3 and shown["reason"] == "記入ミス"
    assert [h["reason"] for h in shown["history"]] == [None, None, "記入ミス"]


def test_a_lock_by_hand_and_a_player_with_their_code(ev: EventSetup) -> None:
    with ev.db.read() as conn:
        code = player_codes(ev.db, conn, ev.id, ["P002"])["P002"]
    with pytest.raises(Refused):
        decklists.submit_by_player(ev.db, ev.id, "P002", "WRONG", legal("P002"))
    made = decklists.submit_by_player(ev.db, ev.id, "P002", code, legal("P002"))
    assert decklists.show(ev.db, ev.id, "P002")["submitted_by"] == decklists.PLAYERS_PAGE and made.entry > 0
    decklists.lock(ev.db, ev.id)
    with pytest.raises(Conflict):
        decklists.submit_by_player(ev.db, ev.id, "P002", code, legal("P002"))
    with pytest.raises(Conflict):
        decklists.lock(ev.db, ev.id)


def _checked(ev: EventSetup) -> dict[str, Any]:
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    deckchecks.start(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE, now=ev.clock.now)
    ev.clock.advance(minutes=6, seconds=10)
    counted = deckchecks.count(
        ev.db,
        ev.id,
        1,
        1,
        "P001",
        presented("P001", 1, (1, "P002 Bolt")),
        judge=FLOOR_JUDGE,
        now=ev.clock.now,
    )
    assert [(m["name"], m["count"]) for m in counted["missing"]] == [("P001 Bolt", 1)]
    return deckchecks.end(ev.db, ev.id, 1, 1, extend=True, judge=FLOOR_JUDGE, now=ev.clock.now)


def test_a_check_proposes_a_mismatch_and_lost_or_mixed_cards_and_extends_the_table(ev: EventSetup) -> None:
    ended = _checked(ev)
    assert ended["minutes"] == 7 and ended["extended"]
    p1, p2 = ended["players"]
    assert p1["proposed"] == "deck.deck-decklist-mismatch"
    assert p1["foreign"] == [{"section": "main", "name": "P002 Bolt", "count": 1, "from": "P002"}]
    assert p1["proposals"][1] == {
        "infraction": "deck.lost-or-mixed-cards",
        "player": "P002",
        "facts": {"mixed_into": "P001"},
    }
    assert p2["matches"] and p2["proposed"] is None
    clock = rounds.round_clock(ev.db, ev.id)
    assert [g.minutes for t in clock.tables if t.table == 1 for g in t.time_given] == [7]


def test_the_ruling_cites_the_check_and_the_deck_corrected_closes_the_remedy(ev: EventSetup) -> None:
    ended = _checked(ev)
    r = ev.record("P001", "deck.deck-decklist-mismatch", deck_check=ended["check"], round=1, table=1)
    assert r.rulings[0]["penalties"] == ["warning1", "duel_loss"]
    ev.record("P002", "deck.lost-or-mixed-cards", facts={"mixed_into": "P001"}, deck_check=ended["check"])
    with pytest.raises(InvalidInput):
        ev.record("P003", "deck.deck-decklist-mismatch", deck_check=ended["check"])
    with pytest.raises(NotFound):
        ev.record("P001", "deck.deck-decklist-mismatch", deck_check=9999)
    done = deckchecks.deck_corrected(ev.db, ev.id, 1, 1, "P001", judge=FLOOR_JUDGE)
    assert done["rulings"] == [r.rulings[0]["number"]]
    listed = deckchecks.checks(ev.db, ev.id, 1)
    assert [x["rule"] for x in listed[0]["rulings"]] == [
        "deck.deck-decklist-mismatch",
        "deck.lost-or-mixed-cards",
        "deck.lost-or-mixed-cards",
    ]
    assert listed[0]["corrected"] == ["P001"]


def test_a_check_refuses_a_table_not_in_the_round_and_a_second_check_under_way(ev: EventSetup) -> None:
    with pytest.raises(NotFound):
        deckchecks.start(ev.db, ev.id, 1, 9)
    with pytest.raises(NotFound):
        deckchecks.start(ev.db, ev.id, 2, 1)
    deckchecks.start(ev.db, ev.id, 1, 2)
    with pytest.raises(Conflict):
        deckchecks.start(ev.db, ev.id, 1, 2)


def test_picking_tables_leaves_out_players_checked_already(ev: EventSetup) -> None:
    first = deckchecks.pick(ev.db, ev.id, 1, tables=1, seed=3)
    assert deckchecks.pick(ev.db, ev.id, 1, tables=1, seed=3) == first
    deckchecks.start(ev.db, ev.id, 1, first["tables"][0])
    again = deckchecks.pick(ev.db, ev.id, 1, tables=1, seed=3)
    assert again["tables"] != first["tables"] and sum(again["checked"].values()) == 2


def test_rules_are_set_before_round_1_only(ev: EventSetup) -> None:
    with pytest.raises(InvalidInput):
        deck_rules.set_rules(ev.db, ev.id, sections="main:60")
    with pytest.raises(InvalidInput):
        deck_rules.set_rules(ev.db, ev.id, lock="tomorrow")
    rounds.start_round(ev.db, ev.id)
    with pytest.raises(Conflict):
        deck_rules.set_rules(ev.db, ev.id)


def test_export_import_and_rebuild_keep_decklists_and_checks(ev: EventSetup, tmp_path: Any) -> None:
    with ev.db.read() as conn:
        code = player_codes(ev.db, conn, ev.id, ["P003"])["P003"]
    decklists.submit_by_player(ev.db, ev.id, "P003", code, legal("P003"))
    decklists.import_lists(
        ev.db,
        ev.id,
        {"P001": (legal("P001"), "text", "a.txt", "x"), "P002": (legal("P002"), "csv", "b", "y")},
    )
    ended = _checked(ev)
    ev.record("P001", "deck.deck-decklist-mismatch", deck_check=ended["check"])
    deckchecks.deck_corrected(ev.db, ev.id, 1, 1, "P001", judge=FLOOR_JUDGE)
    decklists.correct(ev.db, ev.id, "P004", legal("P004"), "記入ミス", judge=HEAD_JUDGE)
    assert integrity.rebuild(ev.db, ev.id, check_only=True) == []
    data = transfer.export_event(ev.db, ev.id)
    maker = new_backend("sqlite", tmp_path / "other")
    target = next(maker)
    try:
        other = Database(target.url)
        try:
            assert transfer.import_event(other, data).event_id == ev.id
            with other.read() as a, ev.db.read() as b:
                assert snapshot(a, ev.id) == snapshot(b, ev.id)
        finally:
            other.close()
    finally:
        maker.close()


def test_the_judge_confirms_the_findings_and_the_proposal_follows(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    deckchecks.start(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE, now=ev.clock.now)
    short = presented("P001", 1)  # one card short: 59 in the main, an illegal deck as counted
    deckchecks.count(ev.db, ev.id, 1, 1, "P001", short, judge=FLOOR_JUDGE, now=ev.clock.now)
    # the card was on the table all along: the judge confirms the deck legal, the deck and list apart
    said = {"P001": deckchecks.Confirmed(deck_legal=True, matches=False)}
    ended = deckchecks.end(ev.db, ev.id, 1, 1, confirmed=said, judge=FLOOR_JUDGE, now=ev.clock.now)
    assert (
        ended["players"][0]["deck_legal"] and ended["players"][0]["proposed"] == "deck.deck-decklist-mismatch"
    )
    with pytest.raises(NotFound):
        deckchecks.end(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE)  # no check under way any more
    assert integrity.rebuild(ev.db, ev.id, check_only=True) == []


def test_the_same_players_second_mismatch_escalates(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    deckchecks.start(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE)
    deckchecks.count(ev.db, ev.id, 1, 1, "P001", presented("P001", 1, (1, "Shock")), judge=FLOOR_JUDGE)
    first = deckchecks.end(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE)
    one = ev.record("P001", "deck.deck-decklist-mismatch", deck_check=first["check"])
    deckchecks.start(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE)
    deckchecks.count(ev.db, ev.id, 1, 1, "P001", presented("P001", 1, (1, "Shock")), judge=FLOOR_JUDGE)
    second = deckchecks.end(ev.db, ev.id, 1, 1, judge=FLOOR_JUDGE)
    two = ev.record("P001", "deck.deck-decklist-mismatch", deck_check=second["check"])
    assert one.rulings[0]["penalties"] == ["warning1", "duel_loss"]
    assert (two.rulings[0]["offense"], two.rulings[0]["penalties"]) == (2, ["warning2", "ejection"])


def test_after_the_event_the_head_judge_publishes_the_top_lists(ev: EventSetup, tmp_path: Any) -> None:
    from shinpan.services import events

    with pytest.raises(Conflict):
        decklists.publish_top(ev.db, ev.id, 2)  # not over: round 1 not even played
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    events.report_result(ev.db, ev.id, 1, 1, result="a")
    events.report_result(ev.db, ev.id, 1, 2, result="b")
    events.end_round(ev.db, ev.id, 1)
    with pytest.raises(Forbidden):
        decklists.publish_top(ev.db, ev.id, 2, judge=FLOOR_JUDGE)
    top = decklists.publish_top(ev.db, ev.id, 2)
    assert sorted(top) == ["P001", "P004"]  # the two winners, first on points
    data = transfer.export_event(ev.db, ev.id)
    maker = new_backend("sqlite", tmp_path / "other")
    target = next(maker)
    try:
        other = Database(target.url)
        try:
            assert transfer.import_event(other, data).event_id == ev.id
        finally:
            other.close()
    finally:
        maker.close()


def test_the_desk_is_told_of_missing_lists_when_lists_are_required(db: Database) -> None:
    ev = make_event(db, players=4)
    assert decklists.status(db, ev.id)["problems"] == []  # no deck rules yet: nothing asked for
    deck_rules.set_rules(db, ev.id, required=False)
    decklists.submit(db, ev.id, "P001", legal("P001"))
    decklists.submit(db, ev.id, "P002", legal("P002", (5, "稲妻")))
    assert decklists.status(db, ev.id)["problems"] == ["P002"]  # optional: only the illegal one
    deck_rules.set_rules(db, ev.id, required=True)
    assert decklists.status(db, ev.id)["problems"] == ["P002", "P003", "P004"]
