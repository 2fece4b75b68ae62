"""D1, D2, D5, D8 and D16 of guideline/CATALOG.md: which offence a ruling is, counted by the
pure engine; a record that penalises two players, and corrections that count again.

Read `play(rec("A", MIXED, mixed_into="B"))` as "a judge records that A's cards were mixed
into B's deck", as in tests/test_interpretations.py.
"""

from __future__ import annotations

from support import brief, play, rec

MIXED = "deck.lost-or-mixed-cards"
RECORDING = "deck.decklist-recording"


# --- D8 One record, two players: each is counted in their own history


def test_d8_a_record_that_penalises_two_players_gives_each_their_first_offence() -> None:
    rulings = play(rec("A", MIXED, mixed_into="B"))
    assert [(r["player"], r["offense"]) for r in rulings] == [("A", 1), ("B", 1)]


def test_d8_the_second_player_s_count_is_their_own_not_the_recorded_player_s() -> None:
    rulings = play("A: " + MIXED, "A: " + MIXED, rec("A", MIXED, mixed_into="B"))
    assert [(r["player"], r["offense"]) for r in rulings[2:]] == [("A", 3), ("B", 1)]
    rulings = play("B: " + RECORDING, rec("A", RECORDING, recorded_by="B"))
    assert [brief(r)[1:4] for r in rulings[1:]] == [("A", RECORDING, 1), ("B", RECORDING, 2)]
