"""Properties of the engine over random events (hypothesis).

Scenarios have 2–4 players and infraction events over every id with valid facts, missed
deadlines that point at records with deadlines left, and voids that point at earlier records
or missed deadlines not yet voided: every generated scenario is one `replay` accepts.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shinpan.engine import replay
from support import BOOK

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULES = [*BOOK.infractions, BOOK.uncategorized.id]
COMPONENTS = list(BOOK.components)
DRAFTS = [None, "D1", "D2"]
OUTSIDER = "someone outside"
# Deadlines with a consequence that each record opens; in the shipped guideline they are all
# remedies of every offence, and none of these infractions takes facts.
DEADLINES = {
    inf.id: n
    for inf in BOOK.guideline.infractions
    if (n := sum(1 for r in inf.remedies if r.deadline and r.deadline.on_miss))
}
assert not any(
    r.deadline and r.deadline.on_miss
    for i in BOOK.guideline.infractions
    for s in i.ladder
    for r in s.remedies
)
assert not any(BOOK.infractions[rule].questions for rule in DEADLINES)
INTENT = {i.id for i in BOOK.guideline.infractions if i.intent_becomes}


@dataclass
class Builder:
    """A scenario written one event at a time, knowing what missed and void may point at."""

    players: list[str]
    events: list[dict[str, Any]] = field(default_factory=list)
    dues: dict[int, int] = field(default_factory=dict)  # event index -> deadlines left
    voidable: list[int] = field(default_factory=list)  # records and missed, not voided

    def add(self, event: dict[str, Any]) -> int:
        index = len(self.events)
        self.events.append(event)
        if "void" in event:
            target = event["void"]
            self.voidable.remove(target)
            self.dues.pop(target, None)
        elif "missed" in event:
            self.dues[event["missed"]] -= 1
            if not self.dues[event["missed"]]:
                del self.dues[event["missed"]]
            self.voidable.append(index)
        else:
            self.voidable.append(index)
            if DEADLINES.get(event["infraction"]):
                self.dues[index] = DEADLINES[event["infraction"]]
        return index

    def scenario(self) -> dict[str, Any]:
        return {"players": list(self.players), "events": list(self.events)}


def infraction(data: st.DataObject, player: str, others: list[str]) -> dict[str, Any]:
    """An infraction event against ``player`` with valid facts; ``others`` may be named in them."""
    rule = data.draw(st.sampled_from(RULES))
    event: dict[str, Any] = {"player": player, "infraction": rule}
    facts: dict[str, Any] = {}
    draw = data.draw
    if rule == BOOK.uncategorized.id:
        event["penalties"] = draw(st.lists(st.sampled_from(COMPONENTS), max_size=2))
    elif rule.startswith("draft."):
        draft = draw(st.sampled_from(DRAFTS))
        if draft is not None:
            event["draft"] = draft
        if rule == "draft.standard":
            kind = draw(st.none() | st.sampled_from(BOOK.infractions[rule].kinds))
            if kind is not None:
                facts["kind"] = kind
            same = draw(st.sampled_from([None, None, True, False]))
            if same is not None:
                facts["same_as_previous"] = same
    elif rule in INTENT:
        intentional = draw(st.sampled_from([None, None, False, True]))
        if intentional is not None:
            facts["intentional"] = intentional
    elif rule == "ingame.disagreement-on-facts":
        if draw(st.booleans()):
            facts["facts_determined"] = draw(st.booleans())
    elif rule == "deck.lost-or-mixed-cards" and others and draw(st.booleans()):
        facts["mixed_into"] = draw(st.sampled_from(others))
    elif rule == "deck.decklist-recording" and draw(st.booleans()):
        facts["recorded_by"] = draw(st.sampled_from([*others, player, OUTSIDER]))
    elif rule == "players.advice" and draw(st.booleans()):
        facts["advisor"] = draw(st.sampled_from([*others, OUTSIDER]))
        if draw(st.booleans()):
            facts["advisor_only"] = draw(st.booleans())
    if facts:
        event["facts"] = facts
    if rule != BOOK.uncategorized.id and draw(st.integers(0, 9)) == 0:
        penalties = draw(st.lists(st.sampled_from(COMPONENTS), max_size=2))
        event["deviation"] = {"penalties": penalties, "reason": "the head judge's call"}
    return event


def next_event(
    data: st.DataObject, b: Builder, players: list[str], allow_void: bool = True
) -> dict[str, Any]:
    roll = data.draw(st.integers(0, 9))
    if roll == 0 and b.dues:
        return {"missed": data.draw(st.sampled_from(sorted(b.dues)))}
    if roll == 1 and allow_void and b.voidable:
        return {"void": data.draw(st.sampled_from(b.voidable))}
    player = data.draw(st.sampled_from(players))
    return infraction(data, player, [p for p in players if p != player])


@st.composite
def scenarios(draw: st.DrawFn, voids: bool = True, max_events: int = 30) -> dict[str, Any]:
    data = draw(st.data())
    players = [f"P{n}" for n in range(draw(st.integers(2, 4)))]
    b = Builder(players)
    for _ in range(draw(st.integers(1, max_events))):
        b.add(next_event(data, b, players, allow_void=voids))
    return b.scenario()


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


@SETTINGS
@given(scenarios())
def test_each_offence_is_one_more_than_the_live_earlier_ones(scenario: dict[str, Any]) -> None:
    events = scenario["events"]
    grouped = by_event(replay(BOOK, scenario, explanations=False))
    live: Counter[tuple[str, ...]] = Counter()
    made: dict[int, list[tuple[str, ...]]] = {}
    for index, event in enumerate(events):
        if "void" in event:
            for key in made.pop(event["void"], []):
                live[key] -= 1
            assert index not in grouped
            continue
        made[index] = []
        for r in grouped.get(index, []):
            if counted(r):
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
def test_voided_means_a_later_void_named_its_event(scenario: dict[str, Any]) -> None:
    voided = {e["void"] for e in scenario["events"] if "void" in e}
    for r in replay(BOOK, scenario, explanations=False):
        assert r["voided"] is (r["event"] in voided)


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
