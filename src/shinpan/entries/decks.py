"""The entries of decklists and deck checks (T13): the event's deck rules, a list registered or
corrected (who, when, from what, its text's hash), the lock, a deck check started, counted
and ended, a deck marked corrected."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind, MalformedBody, unless_none

Sections = Mapping[str, tuple[tuple[int, str, int | None], ...]]


def sections_body(sections: Sections) -> dict[str, list[list[Any]]]:
    return {s: [[n, name, line] for n, name, line in cards] for s, cards in sections.items()}


def _read_sections(f: Fields, key: str) -> Sections:
    out: dict[str, tuple[tuple[int, str, int | None], ...]] = {}
    for section, cards in f.mapping(key).items():
        if not isinstance(cards, list):
            raise MalformedBody(f"{f.where}: {key}.{section} is not a list")
        read: list[tuple[int, str, int | None]] = []
        for card in cards:
            if (
                not isinstance(card, list)
                or len(card) != 3
                or type(card[0]) is not int
                or not isinstance(card[1], str)
                or not (card[2] is None or type(card[2]) is int)
            ):
                raise MalformedBody(
                    f"{f.where}: {key}.{section} holds a card that is not [count, name, line]"
                )
            read.append((card[0], card[1], card[2]))
        out[section] = tuple(read)
    return out


@dataclass(frozen=True)
class ListProblem:
    """A problem of a list as it was found when the list was registered."""

    line: int | None
    ja: str
    en: str

    def body(self) -> dict[str, Any]:
        return {"line": self.line, "ja": self.ja, "en": self.en}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.opt_whole("line"), f.text("ja"), f.text("en"))


@dataclass(frozen=True)
class DeckRulesSet(Kind):
    """The event's deck rules (T13): lists required or not, the sections and their bounds
    (``main:60-,side:0-15``), the copy limit and whether it counts across sections, the banned
    (0) and restricted (1) names as written, the names any number may be played, the lock
    (``round1`` or an ISO time)."""

    kind: ClassVar[str] = "deck.rules"
    required: bool
    sections: str
    copies: int
    across: bool
    limits: tuple[tuple[str, int], ...] = ()
    unlimited: tuple[str, ...] = ()
    lock: str = "round1"

    def body(self) -> dict[str, Any]:
        return {
            "required": self.required,
            "sections": self.sections,
            "copies": self.copies,
            "across": self.across,
            "limits": [[name, n] for name, n in self.limits],
            "unlimited": list(self.unlimited),
            "lock": self.lock,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        limits: list[tuple[str, int]] = []
        for item in f.value.get("limits", []):
            if not (
                isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[1] in (0, 1)
            ):
                raise MalformedBody(f"{f.where}: limits holds something that is not [name, 0 or 1]")
            limits.append((item[0], int(item[1])))
        return cls(
            f.flag("required"),
            f.text("sections"),
            f.whole("copies"),
            f.flag("across"),
            tuple(limits),
            f.texts("unlimited"),
            f.text("lock"),
        )


@dataclass(frozen=True)
class _ListWritten(Kind):
    """What a registered list and a corrected one both say: whose list, its cards by section
    as written (count, name, line), the file's format and where it came from, its text's hash."""

    player: str
    sections: Sections
    format: str
    source: str
    digest: str

    def _list_body(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "sections": sections_body(self.sections),
            "format": self.format,
            "source": self.source,
            "digest": self.digest,
        }

    @staticmethod
    def _read_list(f: Fields) -> tuple[str, Sections, str, str, str]:
        return (
            f.text("player"),
            _read_sections(f, "sections"),
            f.text("format"),
            f.text("source"),
            f.text("digest"),
        )


@dataclass(frozen=True)
class DecklistRegistered(_ListWritten):
    """A player's list registered before the lock, with the problems found when it was
    registered, and whether the player submitted it (else the staff)."""

    kind: ClassVar[str] = "decklist.registered"
    problems: tuple[ListProblem, ...] = ()
    by_player: bool = False

    def body(self) -> dict[str, Any]:
        return {
            **self._list_body(),
            "problems": [p.body() for p in self.problems],
            "by_player": self.by_player,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(*cls._read_list(f), f.parts("problems", ListProblem.read), f.flag("by_player", False))


@dataclass(frozen=True)
class DecklistCorrected(_ListWritten):
    """The head judge's correction of a list after the lock, with the reason; the earlier
    version stays in the ledger."""

    kind: ClassVar[str] = "decklist.corrected"
    reason: str
    problems: tuple[ListProblem, ...] = ()

    def body(self) -> dict[str, Any]:
        return {**self._list_body(), "reason": self.reason, "problems": [p.body() for p in self.problems]}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(*cls._read_list(f), f.text("reason"), f.parts("problems", ListProblem.read))


@dataclass(frozen=True)
class DecklistsLocked(Kind):
    """The lists locked by hand (the lock at round 1's start or at a time needs no entry)."""

    kind: ClassVar[str] = "decklists.locked"

    def body(self) -> dict[str, Any]:
        return {}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls()


@dataclass(frozen=True)
class DeckCheckStarted(Kind):
    """A deck check of one table of a round, of its players; the judge is the entry's actor."""

    kind: ClassVar[str] = "deckcheck.started"
    round: int
    table: int
    players: tuple[str, ...]

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "players": list(self.players)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.texts("players"))


@dataclass(frozen=True)
class DeckCheckCounted(Kind):
    """The cards a judge counted in one player's deck at a check (the entry ``check`` started it)."""

    kind: ClassVar[str] = "deckcheck.counted"
    check: int
    player: str
    sections: Sections

    def body(self) -> dict[str, Any]:
        return {"check": self.check, "player": self.player, "sections": sections_body(self.sections)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("check"), f.text("player"), _read_sections(f, "sections"))


@dataclass(frozen=True)
class CheckFinding:
    """What the check found for one player: the differences, the four findings, and the
    infractions T13 proposes (the first of its four, and lost-or-mixed cards for a foreign one)."""

    player: str
    missing: tuple[tuple[str, str, int], ...]  # section, name, count
    extra: tuple[tuple[str, str, int], ...]
    foreign: tuple[tuple[str, str, int, str], ...]  # section, name, count, owner
    deck_legal: bool
    list_legal: bool
    matches: bool
    recorded_by: str | None = None
    proposed: tuple[tuple[str, str, Mapping[str, str]], ...] = ()  # infraction, player, facts

    def body(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "missing": [list(x) for x in self.missing],
            "extra": [list(x) for x in self.extra],
            "foreign": [list(x) for x in self.foreign],
            "deck_legal": self.deck_legal,
            "list_legal": self.list_legal,
            "matches": self.matches,
            **unless_none(recorded_by=self.recorded_by),
            "proposed": [[i, p, dict(facts)] for i, p, facts in self.proposed],
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        def triples(key: str) -> tuple[tuple[str, str, int], ...]:
            items = f.value.get(key)
            if not isinstance(items, list):
                raise MalformedBody(f"{f.where}: {key} is not a list")
            return tuple((str(x[0]), str(x[1]), int(x[2])) for x in items)

        foreign = tuple((str(x[0]), str(x[1]), int(x[2]), str(x[3])) for x in f.value.get("foreign", []))
        proposed = tuple((str(x[0]), str(x[1]), dict(x[2])) for x in f.value.get("proposed", []))
        return cls(
            f.text("player"),
            triples("missing"),
            triples("extra"),
            foreign,
            f.flag("deck_legal"),
            f.flag("list_legal"),
            f.flag("matches"),
            f.opt_text("recorded_by"),
            proposed,
        )


@dataclass(frozen=True)
class DeckCheckEnded(Kind):
    """A deck check ended: its length in whole minutes (rounded up), what it found per player,
    and whether the table was given those minutes (T13 "Time")."""

    kind: ClassVar[str] = "deckcheck.ended"
    check: int
    minutes: int
    findings: tuple[CheckFinding, ...] = field(default_factory=tuple)
    extended: bool = False

    def body(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "minutes": self.minutes,
            "findings": [x.body() for x in self.findings],
            "extended": self.extended,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("check"), f.whole("minutes"), f.parts("findings", CheckFinding.read), f.flag("extended")
        )


@dataclass(frozen=True)
class DeckCorrected(Kind):
    """A judge marked a player's deck corrected to match the list after a check (the remedy of
    ``deck.deck-decklist-mismatch``)."""

    kind: ClassVar[str] = "deck.corrected"
    check: int
    player: str

    def body(self) -> dict[str, Any]:
        return {"check": self.check, "player": self.player}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("check"), f.text("player"))


@dataclass(frozen=True)
class DecklistsPublished(Kind):
    """After the event, the head judge published the lists of the final top ``top`` on the
    players' pages (T13): those players, in place order, as placed then."""

    kind: ClassVar[str] = "decklists.published"
    top: int
    players: tuple[str, ...]

    def body(self) -> dict[str, Any]:
        return {"top": self.top, "players": list(self.players)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("top"), f.texts("players"))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (
    DeckRulesSet,
    DecklistRegistered,
    DecklistCorrected,
    DecklistsLocked,
    DeckCheckStarted,
    DeckCheckCounted,
    DeckCheckEnded,
    DeckCorrected,
    DecklistsPublished,
)
