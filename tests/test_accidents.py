"""What a judge must not do by accident: the engine's part, on SQLite and PostgreSQL.

- D14, D22: recording for a player who has left the event (disqualified, ejected, withdrawn,
  dropped) says so in the preview and in the ruling, and lands no duel or match loss: the
  match they were playing ended when they left, and no later one comes;
- D11, D16: a deviation to the penalties the ruling has (the guideline's) is refused, in words.
"""

from __future__ import annotations

import pytest

from conftest import HEAD_JUDGE, EventSetup
from shinpan.engine.event_rules import Status, left_as
from shinpan.engine.explain import explain
from shinpan.engine.facts import check_deviation_changes
from shinpan.errors import InvalidInput
from shinpan.services import corrections, events, queries, recording, rounds, swiss
from shinpan.services.context import load_event
from shinpan.store.snapshots import waiting_losses
from test_japanese import problems

LEFT_JA = "記録の時点で、このプレイヤーはすでに{}"


def carried(ev: EventSetup) -> list[str]:
    with ev.db.read() as conn:
        return [c.player for c in waiting_losses(conn, ev.id)]


def table(ev: EventSetup, number: int) -> dict[str, object]:
    return dict(queries.round_matches(ev.db, ev.id, 1)["matches"][number - 1])


# -- D14, D22: a player who has left ---------------------------------------------------------


def test_left_as_names_how_a_player_left() -> None:
    assert left_as(Status.active) is None and left_as(None) is None
    assert left_as(Status.active, dropped=True) is Status.dropped
    assert left_as(Status.disqualified) is Status.disqualified
    assert left_as(Status.withdrawn, dropped=True) is Status.withdrawn


def test_a_disqualified_players_tardiness_is_recorded_with_the_note_and_lands_no_loss(ev: EventSetup) -> None:
    dq = ev.record("P004", "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [dq])
    assert table(ev, 2)["result"] == "a"  # D22: P003 won the match P004 left
    late = recording.RecordInput(player="P004", infraction="pregame.tardiness")

    # Before saving: the preview says he is disqualified.
    (shown,) = recording.preview(ev.db, ev.id, late)
    with ev.db.read() as conn:
        book = load_event(conn, ev.id).book
    assert LEFT_JA.format("失格になっています") in explain(book, shown, "ja")
    assert "already been disqualified" in explain(book, shown, "en")

    # Saved: the ruling counts and keeps the note; the duel loss lands on no match.
    saved = ev.record("P004", "pregame.tardiness").rulings[0]
    assert saved["penalties"] == ["warning1", "duel_loss"] and saved["offense"] == 1
    assert LEFT_JA.format("失格になっています") in saved["explanation_ja"]
    assert problems(saved["explanation_ja"]) == []  # said as a judge says it
    assert carried(ev) == []
    assert table(ev, 2)["duels"] == [] and table(ev, 2)["result"] == "a"


def test_a_dropped_players_match_loss_waits_for_no_match(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)  # T5: results once the round runs
    events.report_result(ev.db, ev.id, 1, 3, result="a")  # P005 beat P006: the match is over
    swiss.drop_player(ev.db, ev.id, "P006")
    saved = ev.record("P006", "deck.illegal-decklist").rulings[0]  # warning2 + match_loss
    assert "match_loss" in saved["penalties"]
    assert LEFT_JA.format("ドロップしています") in saved["explanation_ja"]
    assert carried(ev) == []


def test_a_player_still_in_the_event_carries_the_loss_to_the_next_match(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)  # T5: results once the round runs
    events.report_result(ev.db, ev.id, 1, 3, result="a")
    saved = ev.record("P006", "deck.illegal-decklist").rulings[0]
    assert "記録の時点で" not in saved["explanation_ja"]
    assert carried(ev) == ["P006"]  # D10: the next match


def test_an_ejected_player_is_named_as_ejected_and_a_pending_disqualification_is_not_yet_gone(
    ev: EventSetup,
) -> None:
    ev.record("P002", "severe.unsporting-conduct")
    ejection = ev.record("P002", "severe.unsporting-conduct").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [ejection])
    saved = ev.record("P002", "ingame.cards-off-table").rulings[0]
    assert LEFT_JA.format("退場になっています") in saved["explanation_ja"]
    pending = ev.record("P008", "severe.cheating").rulings[0]  # D17: still in the event until confirmed
    after = ev.record("P008", "ingame.cards-off-table").rulings[0]
    assert pending["needs_head_judge"] and "記録の時点で" not in after["explanation_ja"]


# -- D11, D16: a deviation departs from something ---------------------------------------------


def test_a_deviation_to_the_rulings_own_penalties_is_refused() -> None:
    with pytest.raises(ValueError, match="guideline's own penalties"):
        check_deviation_changes(
            ["warning1", "duel_loss"], ["warning1", "duel_loss"], ["duel_loss", "warning1"]
        )
    with pytest.raises(ValueError, match="nothing would change"):
        check_deviation_changes(["warning1"], ["notice"], ["notice"])
    check_deviation_changes(["warning1"], ["notice"], ["warning1"])  # back to the guideline: a change
    check_deviation_changes(["warning1"], ["warning1"], ["caution"])


def test_the_desk_cannot_deviate_to_the_guidelines_penalties_twice_or_once(ev: EventSetup) -> None:
    n = ev.record("P001", "ingame.slow-play").rulings[0]["number"]
    with pytest.raises(InvalidInput, match="guideline's own penalties") as refused:
        corrections.deviate(ev.db, ev.id, n, ["warning1"], "同じ罰則で記録しておく")
    assert refused.value.field == "penalties"
    corrections.deviate(ev.db, ev.id, n, ["caution"], "初参加のため")
    with pytest.raises(InvalidInput, match="nothing would change"):
        corrections.deviate(ev.db, ev.id, n, ["caution"], "もう一度")
    assert queries.get_ruling(ev.db, ev.id, n)["penalties"] == ["caution"]


def test_a_deviation_given_when_recording_to_the_guidelines_penalties_is_refused(ev: EventSetup) -> None:
    """The same refusal when the head judge deviates in the record itself: nothing is written."""
    for given in (("warning1",), ("warning1",)):  # twice in a row: refused each time
        with pytest.raises(InvalidInput, match="guideline's own penalties") as refused:
            ev.record("P001", "ingame.slow-play", deviation=recording.Deviation(given, "同じ罰則で記録しておく"),
                      judge=HEAD_JUDGE)  # fmt: skip
        assert refused.value.field == "deviation.penalties"
    assert queries.player_history(ev.db, ev.id, "P001")["rulings"] == []
    other = ev.record("P001", "ingame.slow-play", deviation=recording.Deviation(("caution",), "初参加のため"),
                      judge=HEAD_JUDGE)  # fmt: skip
    assert other.rulings[0]["penalties"] == ["caution"]


# -- D16: what a correction changes is named ----------------------------------------------------

SLOW, EXTRA, FACTS = "ingame.slow-play", "ingame.extra-cards-drawn", "ingame.disagreement-on-facts"


def extensions(ev: EventSetup) -> int:
    return int(table(ev, 1)["extensions"])  # type: ignore[call-overload]


def test_slow_plays_extra_turns_go_with_the_warning_they_hang_on(ev: EventSetup) -> None:
    n = ev.record("P001", SLOW).rulings[0]["number"]
    assert queries.get_ruling(ev.db, ev.id, n)["effects"] == ["time_extension"]
    assert extensions(ev) == 1
    corrections.deviate(ev.db, ev.id, n, ["caution"], "初参加のため")
    deviated = queries.get_ruling(ev.db, ev.id, n)
    assert deviated["effects"] == [] and extensions(ev) == 0
    assert (
        "理由は「初参加のため」です。その罰則がなくなったため、「1回目の警告の後は"
        in deviated["explanation_ja"]
    )
    assert problems(deviated["explanation_ja"]) == []
    corrections.deviate(ev.db, ev.id, n, ["warning1"], "やはりガイドラインどおり")  # back: the turns too
    back = queries.get_ruling(ev.db, ev.id, n)
    assert back["effects"] == ["time_extension"] and extensions(ev) == 1
    assert "理由は「初参加のため」です。" in back["explanation_ja"]  # each reason its own sentence
    assert "理由は「やはりガイドラインどおり」です。" in back["explanation_ja"]


def test_a_deviation_that_keeps_the_warning_keeps_the_extra_turns(ev: EventSetup) -> None:
    n = ev.record("P001", SLOW).rulings[0]["number"]
    corrections.deviate(ev.db, ev.id, n, ["warning1", "duel_loss"], "わざと遅くしていた")
    assert queries.get_ruling(ev.db, ev.id, n)["effects"] == ["time_extension"]
