"""Random scenarios for hypothesis: 2–4 players, infraction events over every id with valid
facts, missed deadlines that point at records with deadlines left, and voids that point at
earlier records or missed deadlines not yet voided, deviations that depart from the
guideline's penalties: every generated scenario is one `replay` accepts. Used by the engine's properties and by the test that every path decides alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from shinpan.engine import replay
from support import BOOK, examples

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])

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
    follow_ups: dict[int, list[int]] = field(default_factory=dict)  # record -> its missed events

    def add(self, event: dict[str, Any]) -> int:
        index = len(self.events)
        if "deviation" in event and self._guideline_gives(event) == sorted(event["deviation"]["penalties"]):
            event = {
                k: v for k, v in event.items() if k != "deviation"
            }  # D16: refused, it departs from nothing
        self.events.append(event)
        if "void" in event:
            target = event["void"]
            for gone in [target, *self.follow_ups.get(target, [])]:  # D16: with its follow-ups
                if gone in self.voidable:
                    self.voidable.remove(gone)
            self.dues.pop(target, None)
        elif "missed" in event:
            self.follow_ups.setdefault(event["missed"], []).append(index)
            self.dues[event["missed"]] -= 1
            if not self.dues[event["missed"]]:
                del self.dues[event["missed"]]
            self.voidable.append(index)
        else:
            self.voidable.append(index)
            if DEADLINES.get(event["infraction"]) and not self._left(index):
                self.dues[index] = DEADLINES[event["infraction"]]
        return index

    def _left(self, index: int) -> bool:
        """Whether the record ``index``'s player had already left the event (D14, D22): its
        ruling then sets no deadline."""
        made = replay(BOOK, self.scenario())
        return any(r["event"] == index and "no deadline is set" in r["explanation"] for r in made)

    def _guideline_gives(self, event: dict[str, Any]) -> list[str]:
        """The penalties the guideline gives this record's player after the events so far."""
        plain = {k: v for k, v in event.items() if k != "deviation"}
        made = replay(BOOK, {"players": self.players, "events": [*self.events, plain]}, explanations=False)
        return sorted(next(r["penalties"] for r in made if r["event"] == len(self.events)))

    def scenario(self) -> dict[str, Any]:
        return {"players": list(self.players), "events": list(self.events)}


def infraction(data: st.DataObject, player: str, others: list[str]) -> dict[str, Any]:
    """An infraction event against ``player`` with valid facts; ``others`` may be named in them."""
    rule = data.draw(st.sampled_from(RULES))
    event: dict[str, Any] = {"player": player, "infraction": rule}
    facts: dict[str, Any] = {}
    draw = data.draw
    if rule == BOOK.uncategorized.id:
        event["penalties"] = draw(st.lists(st.sampled_from(COMPONENTS), min_size=1, max_size=2))  # D19
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
        facts["recorded_by"] = draw(st.sampled_from([*others, OUTSIDER]))  # D18: not the player
    elif rule == "players.advice" and draw(st.booleans()):
        facts["advisor"] = draw(st.sampled_from([*others, OUTSIDER]))
        if draw(st.booleans()):
            facts["advisor_only"] = draw(st.booleans())
    if facts:
        event["facts"] = facts
    nobody = facts.get("facts_determined") or (facts.get("advisor") == OUTSIDER and facts.get("advisor_only"))
    if rule != BOOK.uncategorized.id and not nobody and draw(st.integers(0, 9)) == 0:  # D16
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
