"""Replaying a scenario: the conformance contract of ``shinpan replay``.

A scenario lists the participants and, in order, what the judges recorded, which deadlines
were missed and which records were voided. :func:`replay` decides every ruling and returns
them as the contract's JSON objects; it stores nothing and reads no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from shinpan.engine.corrections import rederive
from shinpan.engine.decide import decide, follow_up
from shinpan.engine.event_rules import Status, left_as, status_after, status_of
from shinpan.engine.explain import explain
from shinpan.engine.facts import RecordError
from shinpan.engine.leaving import acting_now, noted_leaving
from shinpan.engine.participants import check_id, first_clash
from shinpan.engine.ruling import Deviation, Due, Record, Ruling
from shinpan.errors import InvalidInput
from shinpan.guideline.rulebook import Rulebook

INFRACTION_KEYS = frozenset({"player", "infraction", "draft", "penalties", "deviation", "facts"})
NO_FACTS: Mapping[str, object] = MappingProxyType({})  # one for every record without facts


class ScenarioError(InvalidInput, ValueError):
    """A scenario that cannot be replayed; ``index`` is the event at fault, if any."""

    def __init__(self, index: int | None, message: str) -> None:
        where = f"event {index}" if index is not None else "scenario"
        super().__init__(f"{where}: {message}".replace("{", "{{").replace("}", "}}"))
        self.index = index
        self.message = message


@dataclass(slots=True)
class _Produced:
    event: int
    ruling: Ruling
    voided: bool = False


@dataclass
class _State:
    book: Rulebook
    participants: frozenset[str]
    history: dict[str, list[Ruling]] = field(default_factory=dict)
    # D14: each player's status from their live rulings (:func:`left_by`), kept as they change
    standing: dict[str, Status] = field(default_factory=dict)
    produced: list[_Produced] = field(default_factory=list)
    by_event: dict[int, list[_Produced]] = field(default_factory=dict)
    dues: dict[int, list[Due]] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)  # event index -> infraction|missed|void
    voided: set[int] = field(default_factory=set)
    follow_ups: dict[int, list[int]] = field(default_factory=dict)  # record event -> its missed events

    @property
    def next_number(self) -> int:
        """Rulings are numbered in the order they are made, as the ledger numbers them."""
        return len(self.produced) + 1

    def add(self, index: int, rulings: Iterable[Ruling]) -> None:
        """Rulings made for the event ``index``, in the order they were numbered."""
        made = self.by_event.setdefault(index, [])
        for ruling in rulings:
            assert ruling.number == len(self.produced) + 1, (ruling.number, self.next_number)
            p = _Produced(index, ruling)
            self.produced.append(p)
            made.append(p)
            own = self.history.get(ruling.player)
            if own is None:
                self.history[ruling.player] = [ruling]
            else:
                own.append(ruling)
            acts = acting_now(self.book, ruling)
            if acts:  # (most rulings change no status)
                was = self.standing.get(ruling.player, Status.active)
                self.standing[ruling.player] = status_after(acts, was)

    def void(self, p: _Produced) -> None:
        p.voided = True
        own = self.history[p.ruling.player]
        own[:] = [r for r in own if r is not p.ruling]
        self.standing[p.ruling.player] = status_of(acting_now(self.book, r) for r in own)

    def left(self, player: str) -> Status | None:
        """D14: how ``player`` has left the event, or None: :func:`left_by` of their history."""
        return left_as(self.standing.get(player, Status.active))


def _players(scenario: Mapping[str, Any]) -> frozenset[str]:
    players = scenario.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScenarioError(None, "'players' must be a list of participant ids (strings)")
    clash = first_clash(players)
    if clash is not None:  # D18: two ids that normalize alike are the same participant
        first, second = clash
        what = "is listed twice" if first == second else f"and {second!r} are the same participant (D18)"
        raise ScenarioError(None, f"participant {first!r} {what}")
    try:
        return frozenset(check_id(p) for p in players)
    except ValueError as e:
        raise ScenarioError(None, str(e)) from None


def _str_list(index: int, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(index, f"'{key}' must be a list of penalty codes")
    return tuple(value)


def _record(index: int, event: Mapping[str, Any]) -> Record:
    if not event.keys() <= INFRACTION_KEYS:
        unknown = sorted(set(event) - INFRACTION_KEYS)
        raise ScenarioError(index, f"unknown key {unknown[0]!r}")
    player, infraction = event.get("player"), event.get("infraction")
    if not isinstance(player, str) or not isinstance(infraction, str):
        raise ScenarioError(index, "'player' and 'infraction' must be strings")
    facts = event.get("facts", NO_FACTS)
    if facts is not NO_FACTS and not isinstance(facts, dict):
        raise ScenarioError(index, "'facts' must be an object")
    draft = event.get("draft")
    if draft is not None and not isinstance(draft, str):
        raise ScenarioError(index, "'draft' must be a string")
    penalties = event.get("penalties")
    deviation = None
    if "deviation" in event:
        dev = event["deviation"]
        if not isinstance(dev, dict) or set(dev) - {"penalties", "reason"}:
            raise ScenarioError(index, '\'deviation\' must be {"penalties": [...], "reason": "..."}')
        reason = dev.get("reason")
        if not isinstance(reason, str):
            raise ScenarioError(index, "a deviation needs a written reason (D11)")
        deviation = Deviation(_str_list(index, "deviation.penalties", dev.get("penalties")), reason)
    return Record(
        player=player,
        infraction=infraction,
        facts=facts,
        draft=draft,
        penalties=None if penalties is None else _str_list(index, "penalties", penalties),
        deviation=deviation,
    )


def _target(index: int, key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(index, f"'{key}' must be the index of an earlier event")
    if not 0 <= value < index:
        raise ScenarioError(index, f"'{key}' points at event {value}, which is not an earlier event")
    return value


def _missed(book: Rulebook, state: _State, index: int, target: int) -> None:
    if state.kinds[target] != "infraction":
        raise ScenarioError(index, f"'missed' points at event {target}, which records no infraction")
    if target in state.voided:
        raise ScenarioError(index, f"'missed' points at event {target}, which was voided")
    dues = state.dues.get(target, [])
    if not dues:
        raise ScenarioError(index, f"event {target} has no remedy deadline left to miss")
    due = dues.pop(0)
    primary = state.by_event[target][0].ruling
    state.add(index, [follow_up(book, primary, due, ref=f"event {index}", number=state.next_number)])
    state.follow_ups.setdefault(target, []).append(index)


def _void(book: Rulebook, state: _State, index: int, target: int) -> None:
    """D16: as if the record had never been made, with the follow-ups of its deadlines;
    then each affected player's additional rulings are worked out again."""
    if state.kinds[target] == "void":
        raise ScenarioError(index, f"'void' points at event {target}, which is itself a void")
    if target in state.voided:
        raise ScenarioError(index, f"event {target} is already voided")
    gone = [target, *(m for m in state.follow_ups.get(target, []) if m not in state.voided)]
    affected: list[str] = []
    for event in gone:
        state.voided.add(event)
        state.dues.pop(event, None)
        for p in state.by_event.get(event, []):
            if not p.voided:
                state.void(p)
                affected.append(p.ruling.player)
    for player in dict.fromkeys(affected):
        again = rederive(book, state.history[player], first_number=state.next_number, ref=f"event {index}")
        for number in again.void:
            state.void(state.produced[number - 1])
        state.add(index, again.add)


def replay(book: Rulebook, scenario: object, *, explanations: bool = True) -> list[dict[str, Any]]:
    """Decide every ruling of a scenario, in the contract's JSON shape."""
    if not isinstance(scenario, dict):
        raise ScenarioError(None, "a scenario must be a JSON object with 'players' and 'events'")
    state = _State(book, _players(scenario))
    events = scenario.get("events")
    if not isinstance(events, list):
        raise ScenarioError(None, "'events' must be a list")
    for index, event in enumerate(events):
        if not isinstance(event, dict):
            raise ScenarioError(index, "an event must be a JSON object")
        if "missed" in event or "void" in event:
            key = "missed" if "missed" in event else "void"
            if len(event) != 1:
                raise ScenarioError(index, f"a '{key}' event takes no other key")
            state.kinds[index] = key
            target = _target(index, key, event[key])
            if key == "missed":
                _missed(book, state, index, target)
            else:
                _void(book, state, index, target)
            continue
        state.kinds[index] = "infraction"
        record = _record(index, event)
        try:
            rulings = decide(
                book,
                record,
                state.history,
                state.participants,
                ref=f"event {index}",
                first_number=state.next_number,
            )
        except RecordError as e:
            raise ScenarioError(index, str(e)) from None
        # D14, D22: a player who has already left gets the ruling, with no deadline
        left = {r.player: s for r in rulings if (s := state.left(r.player)) is not None}
        if left:  # (most records: nobody has left)
            rulings = noted_leaving(rulings, left)
        state.add(index, rulings)
        if rulings and rulings[0].dues:
            state.dues[index] = [d for d in rulings[0].dues if d.has_consequence]
    return [_as_json(book, p, explanations) for p in state.produced]


def _as_json(book: Rulebook, p: _Produced, explanations: bool) -> dict[str, Any]:
    r = p.ruling
    out: dict[str, Any] = {
        "event": p.event,
        "player": r.player,
        "rule": r.rule,
        "offense": r.offense,
        "penalties": list(r.penalties),
        "effects": list(r.effects),
        "follow_up": r.follow_up,
        "needs_head_judge": r.needs_head_judge,
        "voided": p.voided,
    }
    if r.recorded_as is not None:
        out["recorded_as"] = r.recorded_as
    if r.deviation is not None:
        out["guideline_penalties"] = list(r.guideline_penalties)
        out["deviation_reason"] = r.deviation.reason
    out["source"] = r.explanation.step_source
    if explanations:
        out["explanation"] = explain(book, r, "en")
    return out
