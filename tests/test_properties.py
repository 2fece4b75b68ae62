"""Properties of the engine over random events (hypothesis).

Scenarios have 2–4 players and infraction events over every id with valid facts, missed
deadlines that point at records with deadlines left, and voids that point at earlier records
or missed deadlines not yet voided: every generated scenario is one `replay` accepts.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scenario_strategies import SETTINGS, Builder, infraction, next_event, scenarios
from shinpan.engine import replay
from support import BOOK


def counted(r: dict[str, Any]) -> bool:
    return r["offense"] is not None and not r["follow_up"]


def counter_key(r: dict[str, Any], event: dict[str, Any]) -> tuple[str, ...]:
    """D1: per player and rule; D5: draft.standard also per draft."""
    if r["rule"] == "draft.standard":
        return (r["player"], r["rule"], event.get("draft") or "draft")
    return (r["player"], r["rule"])


def by_event(rulings: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    grouped: dict[int, list[dict[str, Any]]] = {}
    for r in rulings:
        grouped.setdefault(r["event"], []).append(r)
    return grouped


# (a) offence numbers


@SETTINGS
@given(scenarios(voids=False))
def test_without_voids_offences_run_from_one_without_gaps(scenario: dict[str, Any]) -> None:
    rulings = replay(BOOK, scenario, explanations=False)
    numbers: dict[tuple[str, ...], list[int]] = {}
    for r in rulings:
        if counted(r):
            numbers.setdefault(counter_key(r, scenario["events"][r["event"]]), []).append(r["offense"])
    for key, seen in numbers.items():
        assert seen == list(range(1, len(seen) + 1)), key


ADDITIONAL_RULES = {BOOK.unrelated_warnings.id, "draft.exclusion"}  # D3, D6: a void may re-derive them


@SETTINGS
@given(scenarios())
def test_each_offence_is_one_more_than_the_live_earlier_ones(scenario: dict[str, Any]) -> None:
    """For every rule a correction never re-derives (D16): the additional rulings' own
    counting is in test_interpretations_corrections.py."""
    events = scenario["events"]
    grouped = by_event(replay(BOOK, scenario, explanations=False))
    live: Counter[tuple[str, ...]] = Counter()
    made: dict[int, list[tuple[str, ...]]] = {}
    for index, event in enumerate(events):
        if "void" in event:
            for key in made.pop(event["void"], []):
                live[key] -= 1
            # D16: a void makes nothing of its own; it may carry the additional rulings
            # (D3, D6) that the corrected history now supports.
            assert all(r["rule"] in ADDITIONAL_RULES for r in grouped.get(index, [])), grouped[index]
            continue
        made[index] = []
        for r in grouped.get(index, []):
            if counted(r) and r["rule"] not in ADDITIONAL_RULES:
                key = counter_key(r, event)
                assert r["offense"] == live[key] + 1, (index, r)
                live[key] += 1
                made[index].append(key)


@SETTINGS
@given(scenarios())
def test_a_follow_up_repeats_its_records_offence(scenario: dict[str, Any]) -> None:
    grouped = by_event(replay(BOOK, scenario, explanations=False))
    for index, event in enumerate(scenario["events"]):
        if "missed" in event:
            (follow,) = grouped[index]
            first = grouped[event["missed"]][0]
            assert follow["follow_up"] is True
            assert (follow["player"], follow["rule"], follow["offense"]) == (
                first["player"],
                first["rule"],
                first["offense"],
            )


@SETTINGS
@given(scenarios())
def test_voided_means_a_later_void_named_its_event_or_its_record(scenario: dict[str, Any]) -> None:
    """D16: a void voids its event's rulings and the follow-ups of their deadlines; the
    additional rulings it re-derives may be voided too, and nothing else."""
    events = scenario["events"]
    voided = {e["void"] for e in events if "void" in e}
    voided |= {i for i, e in enumerate(events) if "missed" in e and e["missed"] in voided}
    for r in replay(BOOK, scenario, explanations=False):
        if r["event"] in voided:
            assert r["voided"] is True, r
        elif r["voided"]:
            assert r["rule"] in ADDITIONAL_RULES, r


# (b) ladders never get lighter
#
# "Lighter" compares the most severe component that has a severity (caution … disqualification).
# draft_exclusion stands outside that order (CATALOG.md); a step that adds it counts as an
# escalation, because it always brings the draft.exclusion ruling (D6): so draft.excessive's
# 2) draft_exclusion is not lighter than its 1) warning1 + duel_loss. A step that had it keeps it.


def severity(penalties: list[str]) -> int:
    return max((BOOK.severity(p) or 0 for p in penalties), default=0)


def not_lighter(before: list[str], after: list[str]) -> bool:
    if "draft_exclusion" in before and "draft_exclusion" not in after:
        return False
    added_exclusion = "draft_exclusion" in after and "draft_exclusion" not in before
    return added_exclusion or severity(after) >= severity(before)


@SETTINGS
@given(st.sampled_from(list(BOOK.infractions)), st.integers(1, 6), st.data())
def test_a_ladder_never_gets_lighter(rule: str, times: int, data: st.DataObject) -> None:
    kinds = BOOK.infractions[rule].kinds
    events: list[dict[str, Any]] = []
    for _ in range(times):
        event: dict[str, Any] = {"player": "A", "infraction": rule}
        if kinds:
            event["facts"] = {"kind": data.draw(st.sampled_from(kinds))}
        events.append(event)
    rulings = [r for r in replay(BOOK, {"players": ["A"], "events": events}) if r["rule"] == rule]
    assert [r["offense"] for r in rulings] == list(range(1, times + 1))
    for before, after in itertools.pairwise(rulings):
        assert not_lighter(before["penalties"], after["penalties"]), (before, after)


def test_every_step_of_every_ladder_is_not_lighter_than_the_one_before() -> None:
    for inf in BOOK.guideline.infractions:
        steps = [s.penalties for s in inf.ladder]
        for before, after in itertools.pairwise(steps):
            assert not_lighter(before, after), inf.id
        for s in inf.ladder:  # D5: adding the exclusion when it is the same kind is heavier still
            assert not_lighter(s.penalties, [*s.penalties, *s.if_same_as_previous])


# (c) the same scenario, the same rulings


@SETTINGS
@given(scenarios())
def test_replay_is_deterministic(scenario: dict[str, Any]) -> None:
    assert replay(BOOK, scenario) == replay(BOOK, scenario)


# (d) voiding a record is as if it had never been recorded, for everything after the void


def involved(event: dict[str, Any], players: list[str]) -> set[str]:
    facts = event.get("facts", {})
    names = {event["player"], facts.get("mixed_into"), facts.get("recorded_by"), facts.get("advisor")}
    return {n for n in names if n in players}


def comparable(r: dict[str, Any], shift: int) -> dict[str, Any]:
    """A ruling without what cites event indexes (explanation, source), its event shifted."""
    out = {k: v for k, v in r.items() if k not in ("explanation", "source")}
    out["event"] -= shift
    return out


@st.composite
def voided_record(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], int]:
    """(with: … X … void X …, without: the same without X and its void, index of the void)."""
    data = draw(st.data())
    players = [f"P{n}" for n in range(draw(st.integers(2, 4)))]
    b = Builder(players)
    for _ in range(draw(st.integers(0, 12))):
        b.add(next_event(data, b, players))
    x_player = draw(st.sampled_from(players))
    x = b.add(infraction(data, x_player, [p for p in players if p != x_player]))
    # Between X and its void, only players X does not touch; nothing points at X.
    others = [p for p in players if p not in involved(b.events[x], players)]
    for _ in range(draw(st.integers(0, 8)) if others else 0):
        targets = [i for i in b.voidable if i != x]
        if draw(st.integers(0, 9)) == 0 and targets:
            b.add({"void": draw(st.sampled_from(targets))})
        else:
            player = draw(st.sampled_from(others))
            b.add(infraction(data, player, [p for p in others if p != player]))
    v = b.add({"void": x})
    for _ in range(draw(st.integers(1, 12))):
        b.add(next_event(data, b, players))
    with_x = b.scenario()

    def moved(i: int) -> int:
        return i - (i > x) - (i > v)

    without = []
    for i, event in enumerate(with_x["events"]):
        if i in (x, v):
            continue
        key = "missed" if "missed" in event else "void" if "void" in event else None
        without.append({key: moved(event[key])} if key else event)
    return with_x, {"players": players, "events": without}, v


@SETTINGS
@given(voided_record())
def test_voiding_a_record_is_as_if_it_was_never_recorded(
    case: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    with_x, without_x, v = case
    after = [comparable(r, 2) for r in replay(BOOK, with_x) if r["event"] > v]
    same = [comparable(r, 0) for r in replay(BOOK, without_x) if r["event"] >= v - 1]
    assert after == same
