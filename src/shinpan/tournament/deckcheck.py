"""A deck check (T13): the deck a player presents against their registered list, what the judge
finds, and the infractions that follow; which tables to check; the time it took.

- The deck and the list are compared section by section as multisets of normalised names
  (:func:`compare`): what the list has and the deck lacks is *missing*, what the deck has
  beyond the list is *extra*. An extra card whose name is in another player's list at the
  table (beyond what the player's own list has) is *foreign*, from that player.
- From the four findings, one of T13's first four infractions applies, the first in this
  order (:func:`propose`): the deck is illegal → ``deck.illegal-deck``; the list is illegal →
  ``deck.illegal-decklist``; the list was recorded wrongly, by someone the judge names →
  ``deck.decklist-recording`` (D8: the recorder too); the deck differs from the list →
  ``deck.deck-decklist-mismatch``. A card of another player's found in the deck is
  ``deck.lost-or-mixed-cards`` as well (D8: that player too).
- The table's extension is the check's length rounded up to whole minutes (:func:`minutes`).
- Tables are picked at random from a seed, optionally weighted to the top tables, leaving out
  tables whose players were checked already while others remain (:func:`pick_tables`).

Pure: no I/O, no clock, no database.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from shinpan.tournament.decks import Decklist

ILLEGAL_DECK = "deck.illegal-deck"
ILLEGAL_DECKLIST = "deck.illegal-decklist"
RECORDING = "deck.decklist-recording"
MISMATCH = "deck.deck-decklist-mismatch"
LOST_OR_MIXED = "deck.lost-or-mixed-cards"
ORDER = (ILLEGAL_DECK, ILLEGAL_DECKLIST, RECORDING, MISMATCH)  # T13's order


@dataclass(frozen=True)
class Line:
    """A difference of one name in one section: ``count`` copies, named as written."""

    section: str
    name: str
    count: int

    def as_json(self) -> dict[str, object]:
        return {"section": self.section, "name": self.name, "count": self.count}


@dataclass(frozen=True)
class Foreign:
    """Copies of a card found in a deck that belong to another player at the table."""

    section: str
    name: str
    count: int
    owner: str

    def as_json(self) -> dict[str, object]:
        return {"section": self.section, "name": self.name, "count": self.count, "from": self.owner}


@dataclass(frozen=True)
class Comparison:
    missing: tuple[Line, ...] = ()
    extra: tuple[Line, ...] = ()
    foreign: tuple[Foreign, ...] = ()

    @property
    def matches(self) -> bool:
        return not self.missing and not self.extra

    def as_json(self) -> dict[str, object]:
        return {
            "missing": [x.as_json() for x in self.missing],
            "extra": [x.as_json() for x in self.extra],
            "foreign": [x.as_json() for x in self.foreign],
            "matches": self.matches,
        }


def _written(deck: Decklist, section: str) -> dict[str, str]:
    names: dict[str, str] = {}
    for card in deck.sections.get(section, ()):
        names.setdefault(card.key, card.name)
    return names


def compare(
    listed: Decklist, presented: Decklist, others: Mapping[str, Decklist] | None = None
) -> Comparison:
    """The presented deck against the list, section by section (T13). ``others`` are the lists
    of the other players at the table, by player: an extra card in one of them is foreign."""
    missing: list[Line] = []
    extra: list[Line] = []
    foreign: list[Foreign] = []
    others = others or {}
    owned_by_others: dict[str, list[tuple[str, int]]] = {}
    for owner, deck in others.items():
        for section in deck.sections:
            for key, count in deck.counted(section).items():
                owned_by_others.setdefault(key, []).append((owner, count))
    own_total: Counter[str] = Counter()
    for section in listed.sections:
        own_total.update(listed.counted(section))
    presented_total: Counter[str] = Counter()
    for section in presented.sections:
        presented_total.update(presented.counted(section))
    counted_foreign: Counter[str] = Counter()
    taken_from: Counter[tuple[str, str]] = Counter()  # an owner's copies already found, by name
    for section in list(dict.fromkeys([*listed.sections, *presented.sections])):
        want, have = listed.counted(section), presented.counted(section)
        names = {**_written(presented, section), **_written(listed, section)}
        for key in want:
            if want[key] > have[key]:
                missing.append(Line(section, names[key], want[key] - have[key]))
        for key in have:
            if have[key] > want[key]:
                surplus = have[key] - want[key]
                extra.append(Line(section, names[key], surplus))
                # beyond the player's own copies (in any section), the rest may be another's
                beyond_own = presented_total[key] - own_total[key] - counted_foreign[key]
                for owner, count in owned_by_others.get(key, ()):
                    take = min(surplus, beyond_own, count - taken_from[key, owner])
                    if take > 0:
                        foreign.append(Foreign(section, names[key], take, owner))
                        counted_foreign[key] += take
                        taken_from[key, owner] += take
                        surplus -= take
                        beyond_own -= take
    return Comparison(tuple(missing), tuple(extra), tuple(foreign))


@dataclass(frozen=True)
class Findings:
    """What the judge confirms at the check (T13): the deck legal, the list legal, who recorded
    the list wrongly (None: nobody named), the deck and list matching, whose cards were found."""

    deck_legal: bool = True
    list_legal: bool = True
    recorded_by: str | None = None
    matches: bool = True
    foreign_from: tuple[str, ...] = ()


@dataclass(frozen=True)
class Proposal:
    """A ruling to record in the usual flow: the infraction, the player, and the facts naming a
    second subject (D8)."""

    infraction: str
    player: str
    facts: Mapping[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {"infraction": self.infraction, "player": self.player, "facts": dict(self.facts)}


def first_infraction(findings: Findings) -> str | None:
    """The first of T13's four that applies, in its order; None when none does."""
    if not findings.deck_legal:
        return ILLEGAL_DECK
    if not findings.list_legal:
        return ILLEGAL_DECKLIST
    if findings.recorded_by is not None:
        return RECORDING
    if not findings.matches:
        return MISMATCH
    return None


def propose(player: str, findings: Findings) -> tuple[Proposal, ...]:
    """The rulings T13 gives for what the judge found in ``player``'s deck."""
    proposals: list[Proposal] = []
    first = first_infraction(findings)
    if first == RECORDING and findings.recorded_by is not None:
        proposals.append(Proposal(first, player, {"recorded_by": findings.recorded_by}))
    elif first is not None:
        proposals.append(Proposal(first, player))
    for owner in dict.fromkeys(findings.foreign_from):
        if owner != player:  # the owner's cards got into the player's deck: both (D8)
            proposals.append(Proposal(LOST_OR_MIXED, owner, {"mixed_into": player}))
    return tuple(proposals)


def minutes(started: datetime, ended: datetime) -> int:
    """The check's length rounded up to whole minutes (T13 "Time"); never below zero."""
    seconds = (ended - started).total_seconds()
    return max(0, math.ceil(seconds / 60))


def pick_tables(
    tables: Sequence[tuple[int, Sequence[str]]],
    checked: Mapping[str, int],
    count: int,
    seed: int | str,
    *,
    top: bool = False,
) -> list[int]:
    """``count`` tables to check, drawn from ``seed`` (the same seed, the same tables).

    Tables whose players were all unchecked go first; when too few remain, the tables whose
    players were checked least fill the rest. With ``top``, a table is as much likelier to be
    drawn as it is nearer table 1 (weight: tables after it, plus one)."""
    rng = random.Random(f"deckcheck:{seed}")
    by_checks: dict[int, list[tuple[int, Sequence[str]]]] = {}
    for table in tables:
        times = sum(checked.get(p, 0) for p in table[1])
        by_checks.setdefault(times, []).append(table)
    picked: list[int] = []
    for times in sorted(by_checks):
        pool = sorted(by_checks[times])
        while pool and len(picked) < count:
            if top:
                last = max(t for t, _ in tables)
                weights = [last - t + 1 for t, _ in pool]
                choice = rng.choices(range(len(pool)), weights=weights)[0]
            else:
                choice = rng.randrange(len(pool))
            picked.append(pool.pop(choice)[0])
    return picked


def checks_per_player(checks: Iterable[Sequence[str]]) -> Counter[str]:
    """How many times each player was checked, from each check's players."""
    counted: Counter[str] = Counter()
    for players in checks:
        counted.update(players)
    return counted
