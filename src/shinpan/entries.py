"""What the ledger's entries say: one frozen type per kind of entry.

Every change to an event is an entry (:mod:`shinpan.store.ledger`); its body is one of the
types below, the way beancount's ``core/data.py`` names every directive. Each type knows its
``kind``, writes the JSON body the ledger has always written (:meth:`body`: the hash chain
covers those bytes, so a type never changes what it writes for what it holds) and is read
back from a body with :func:`parse`, which refuses a malformed one with
:class:`MalformedBody` naming the kind and the field, never a KeyError.

Keys an entry leaves out when they have nothing to say (a duel's ``cause_ruling``, a
round's ``seed``, …) are left out here too; ``None`` stands for them in the fields.

Pure: no I/O, nothing of the store or the web. The engine's planner returns these types
(:mod:`shinpan.engine.effects`), the services build them, the projector applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")


class MalformedBody(ValueError):
    """A body that is not what shinpan writes for its kind; says which field is wrong."""


class _Fields:
    """One JSON object being read, with where it sits (for the error's words)."""

    def __init__(self, value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise MalformedBody(f"{where} is not an object")
        self.value: dict[str, Any] = value
        self.where = where

    def has(self, key: str) -> bool:
        return key in self.value

    def _get(self, key: str, optional: bool) -> Any:
        if key not in self.value:
            if optional:
                return None
            raise MalformedBody(f"{self.where}: {key} is missing")
        return self.value[key]

    def _typed(self, key: str, kind: type | tuple[type, ...], what: str, optional: bool) -> Any:
        v = self._get(key, optional)
        if v is None and optional:
            return None
        if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
            raise MalformedBody(f"{self.where}: {key} is not {what}")
        return v

    def whole(self, key: str) -> int:
        return int(self._typed(key, int, "a whole number", False))

    def opt_whole(self, key: str) -> int | None:
        return self._typed(key, int, "a whole number", True)  # type: ignore[no-any-return]

    def text(self, key: str) -> str:
        return str(self._typed(key, str, "text", False))

    def opt_text(self, key: str) -> str | None:
        return self._typed(key, str, "text", True)  # type: ignore[no-any-return]

    def flag(self, key: str, default: bool | None = None) -> bool:
        if default is not None and key not in self.value:
            return default
        return bool(self._typed(key, bool, "true or false", False))

    def texts(self, key: str) -> tuple[str, ...]:
        items = self._typed(key, list, "a list", False)
        if not all(isinstance(i, str) for i in items):
            raise MalformedBody(f"{self.where}: {key} is not a list of texts")
        return tuple(items)

    def wholes(self, key: str) -> tuple[int, ...]:
        items = self._typed(key, list, "a list", False)
        if not all(type(i) is int for i in items):
            raise MalformedBody(f"{self.where}: {key} is not a list of whole numbers")
        return tuple(items)

    def mapping(self, key: str) -> Mapping[str, Any]:
        return dict(self._typed(key, dict, "an object", False))

    def part(self, key: str, read: Callable[[_Fields], T], optional: bool = False) -> T | None:
        v = self._get(key, optional)
        return None if v is None and optional else read(_Fields(v, f"{self.where}: {key}"))

    def parts(self, key: str, read: Callable[[_Fields], T], optional: bool = False) -> tuple[T, ...]:
        if optional and key not in self.value:
            return ()
        items = self._typed(key, list, "a list", False)
        return tuple(read(_Fields(v, f"{self.where}: {key}[{n}]")) for n, v in enumerate(items))


def _unless_none(**values: Any) -> dict[str, Any]:
    """The keys an entry writes only when they say something."""
    return {k: v for k, v in values.items() if v is not None}


# -- nested parts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GuidelineRef:
    """The guideline an event runs under, or a record was decided by."""

    id: str
    version: str

    def body(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("id"), f.text("version"))


@dataclass(frozen=True)
class HeadJudge:
    name: str
    level: int | None
    account: str | None = None  # the uid of the account holding the seat; None: to be claimed

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "account": self.account}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("name"), f.opt_whole("level"), f.opt_text("account"))


@dataclass(frozen=True)
class Registration:
    """One player as imported: id, name, its reading, club."""

    number: str
    name: str
    reading: str | None = None
    club: str | None = None

    def body(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "reading": self.reading, "club": self.club}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("number"), f.text("name"), f.opt_text("reading"), f.opt_text("club"))


@dataclass(frozen=True)
class Pairing:
    """One table of a round: players a and b (None: a bye, won by a at once)."""

    table: int
    a: str
    b: str | None = None

    def body(self) -> dict[str, Any]:
        return {"table": self.table, "a": self.a, "b": self.b}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("table"), f.text("a"), f.opt_text("b"))


@dataclass(frozen=True)
class Consequence:
    """What missing a deadline brings: the follow-up's penalties and effects (D7)."""

    penalties: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()

    def body(self) -> dict[str, Any]:
        return {"penalties": list(self.penalties), "effects": list(self.effects)}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.texts("penalties"), f.texts("effects"))


@dataclass(frozen=True)
class DueRemedy:
    """A ruling's deadline: the remedy to carry out, by when, and what missing it brings."""

    position: int
    due_kind: str
    minutes: int | None
    due_at: str | None
    round: int | None
    table: int | None
    remedy_ja: str
    remedy_en: str
    on_miss: Consequence

    def body(self) -> dict[str, Any]:
        return {
            "position": self.position, "due_kind": self.due_kind, "minutes": self.minutes,
            "due_at": self.due_at, "round": self.round, "table": self.table,
            "remedy_ja": self.remedy_ja, "remedy_en": self.remedy_en, "on_miss": self.on_miss.body(),
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.whole("position"), f.text("due_kind"), f.opt_whole("minutes"), f.opt_text("due_at"),
            f.opt_whole("round"), f.opt_whole("table"), f.text("remedy_ja"), f.text("remedy_en"),
            Consequence.read(_Fields(f.mapping("on_miss"), f"{f.where}: on_miss")),
        )  # fmt: skip


@dataclass(frozen=True)
class RecordedRuling:
    """One ruling as the ledger keeps it: the decision as it was made, with its words."""

    number: int
    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    guideline_penalties: tuple[str, ...]
    effects: tuple[str, ...]
    follow_up: bool
    needs_head_judge: bool
    deviation_reason: str | None
    draft: str | None
    scope: str
    kind: str | None
    trigger: str
    recorded_as: str | None
    discretion: bool
    source: str
    explanation_ja: str
    explanation_en: str
    cause: int | None = None  # an additional ruling (D3, D6): the ruling that triggered it
    dues: tuple[DueRemedy, ...] = ()

    def body(self) -> dict[str, Any]:
        return {
            "number": self.number, "player": self.player, "rule": self.rule, "offense": self.offense,
            "penalties": list(self.penalties), "guideline_penalties": list(self.guideline_penalties),
            "effects": list(self.effects), "follow_up": self.follow_up,
            "needs_head_judge": self.needs_head_judge, "deviation_reason": self.deviation_reason,
            "draft": self.draft, "scope": self.scope, "kind": self.kind, "trigger": self.trigger,
            "recorded_as": self.recorded_as, "discretion": self.discretion, "source": self.source,
            "explanation_ja": self.explanation_ja, "explanation_en": self.explanation_en,
            "cause": self.cause, "dues": [d.body() for d in self.dues],
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.whole("number"), f.text("player"), f.text("rule"), f.opt_whole("offense"), f.texts("penalties"),
            f.texts("guideline_penalties"), f.texts("effects"), f.flag("follow_up"),
            f.flag("needs_head_judge"), f.opt_text("deviation_reason"), f.opt_text("draft"),
            f.opt_text("scope") or "", f.opt_text("kind"), f.text("trigger"), f.opt_text("recorded_as"),
            f.flag("discretion", default=False), f.text("source"), f.text("explanation_ja"),
            f.text("explanation_en"), f.opt_whole("cause"), f.parts("dues", DueRemedy.read, optional=True),
        )  # fmt: skip


@dataclass(frozen=True)
class AskedDeviation:
    """A deviation the judge asked for in the record itself (D11, D12)."""

    penalties: tuple[str, ...]
    reason: str

    def body(self) -> dict[str, Any]:
        return {"penalties": list(self.penalties), "reason": self.reason}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.texts("penalties"), f.text("reason"))


@dataclass(frozen=True)
class RecordAsked:
    """The record as the judge entered it (ids normalised, D18). ``facts`` are the answers
    to the infraction's questions, as JSON."""

    player: str
    infraction: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    draft: str | None = None
    penalties: tuple[str, ...] | None = None
    deviation: AskedDeviation | None = None
    round: int | None = None
    table: int | None = None
    note: str = ""
    given_at: str | None = None  # D21: as the judge's device gave it; left out when it gave none

    def body(self) -> dict[str, Any]:
        return {
            "player": self.player, "infraction": self.infraction, "facts": dict(self.facts),
            "draft": self.draft, "penalties": list(self.penalties) if self.penalties is not None else None,
            "deviation": self.deviation.body() if self.deviation else None,
            "round": self.round, "table": self.table, "note": self.note,
            **_unless_none(given_at=self.given_at),
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        penalties = f.texts("penalties") if f.value.get("penalties") is not None else None
        return cls(
            f.text("player"), f.text("infraction"), f.mapping("facts"), f.opt_text("draft"), penalties,
            f.part("deviation", AskedDeviation.read, optional=True), f.opt_whole("round"), f.opt_whole("table"),
            f.opt_text("note") or "", f.opt_text("given_at"),
        )  # fmt: skip


@dataclass(frozen=True)
class DeadlineRef:
    """One deadline of a ruling: its number and the deadline's position among its dues."""

    ruling: int
    position: int

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"))


# -- the entry kinds ----------------------------------------------------------------------------


class _Kind:
    """What every entry type has: its kind, its body, and its reading from a body."""

    kind: ClassVar[str]

    def body(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def read(cls, f: _Fields) -> Self:
        raise NotImplementedError

    @classmethod
    def from_body(cls, body: object) -> Self:
        """The entry a body says; :class:`MalformedBody` naming the kind and field if it is not
        what shinpan writes."""
        return cls.read(_Fields(body, cls.kind))


# The event and its people.


@dataclass(frozen=True)
class EventCreated(_Kind):
    kind: ClassVar[str] = "event.created"
    uid: str
    name: str
    starts_on: str | None
    ends_on: str | None
    venue: str | None
    rel: int
    guideline: GuidelineRef
    head_judge: HeadJudge
    confirmation_threshold: str
    time_zone: str | None = None  # None: the default zone (events made before zones)
    round_minutes: int | None = None  # None: the default round length

    def body(self) -> dict[str, Any]:
        return {
            "uid": self.uid, "name": self.name, "starts_on": self.starts_on, "ends_on": self.ends_on,
            "venue": self.venue, "rel": self.rel, "guideline": self.guideline.body(),
            "head_judge": self.head_judge.body(), "confirmation_threshold": self.confirmation_threshold,
            **_unless_none(time_zone=self.time_zone, round_minutes=self.round_minutes),
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.text("uid"), f.text("name"), f.opt_text("starts_on"), f.opt_text("ends_on"), f.opt_text("venue"),
            f.whole("rel"), GuidelineRef.read(_Fields(f.mapping("guideline"), f"{cls.kind}: guideline")),
            HeadJudge.read(_Fields(f.mapping("head_judge"), f"{cls.kind}: head_judge")),
            f.text("confirmation_threshold"), f.opt_text("time_zone"), f.opt_whole("round_minutes"),
        )  # fmt: skip


@dataclass(frozen=True)
class JudgeAdded(_Kind):
    """A judge's seat (or a new role for one): floor judge, scorekeeper or viewer."""

    kind: ClassVar[str] = "judge.added"
    name: str
    level: int | None
    role: str
    account: str | None = None

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "role": self.role, "account": self.account}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("name"), f.opt_whole("level"), f.text("role"), f.opt_text("account"))


@dataclass(frozen=True)
class JudgeClaimed(_Kind):
    """A seat made without an account, claimed with its one-time code."""

    kind: ClassVar[str] = "judge.claimed"
    name: str
    account: str

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.account}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("name"), f.text("account"))


@dataclass(frozen=True)
class PlayersImported(_Kind):
    kind: ClassVar[str] = "players.imported"
    players: tuple[Registration, ...]

    def body(self) -> dict[str, Any]:
        return {"players": [p.body() for p in self.players]}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.parts("players", Registration.read))


@dataclass(frozen=True)
class PlayerDropped(_Kind):
    """The player left the event between rounds: never paired again."""

    kind: ClassVar[str] = "player.dropped"
    player: str
    round: int

    def body(self) -> dict[str, Any]:
        return {"player": self.player, "round": self.round}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("player"), f.whole("round"))


@dataclass(frozen=True)
class StatusChanged(_Kind):
    """A player's status as their live rulings give it (D14, D17)."""

    kind: ClassVar[str] = "player.status"
    player: str
    status: str  # an engine.event_rules.Status value
    cause_ruling: int | None

    def body(self) -> dict[str, Any]:
        return {"player": self.player, "status": str(self.status), "cause_ruling": self.cause_ruling}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.text("player"), f.text("status"), f.opt_whole("cause_ruling"))


# Rounds, matches, duels.


@dataclass(frozen=True)
class RoundPaired(_Kind):
    kind: ClassVar[str] = "round.paired"
    round: int
    pairings: tuple[Pairing, ...]
    seed: int | None = None  # Swiss pairing's seed; None: pairings imported

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "pairings": [p.body() for p in self.pairings],
            **_unless_none(seed=self.seed),
        }

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"), f.parts("pairings", Pairing.read), f.opt_whole("seed"))


@dataclass(frozen=True)
class PairingEdited(_Kind):
    """The head judge's new pairing of some tables of a round not started yet."""

    kind: ClassVar[str] = "pairing.edited"
    round: int
    pairings: tuple[Pairing, ...]
    reason: str

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "pairings": [p.body() for p in self.pairings], "reason": self.reason}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"), f.parts("pairings", Pairing.read), f.text("reason"))


@dataclass(frozen=True)
class RoundStarted(_Kind):
    kind: ClassVar[str] = "round.started"
    round: int
    minutes: int

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "minutes": self.minutes}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"), f.whole("minutes"))


@dataclass(frozen=True)
class TimeExtended(_Kind):
    """Minutes a judge gave one table, with the reason."""

    kind: ClassVar[str] = "time.extended"
    round: int
    table: int
    minutes: int
    reason: str

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "minutes": self.minutes, "reason": self.reason}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.whole("minutes"), f.text("reason"))


@dataclass(frozen=True)
class RoundEnded(_Kind):
    kind: ClassVar[str] = "round.ended"
    round: int

    def body(self) -> dict[str, Any]:
        return {"round": self.round}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"))


@dataclass(frozen=True)
class DuelResult(_Kind):
    """A duel's winner (None: the duel is undone); ``decides``: this duel decides (or undoes)
    the match's result, ``match_result``."""

    kind: ClassVar[str] = "duel.result"
    round: int
    table: int
    duel: int
    winner: str | None
    cause_ruling: int | None = None
    decides: bool = False
    match_result: str | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "round": self.round,
            "table": self.table,
            "duel": self.duel,
            "winner": self.winner,
        }
        if self.cause_ruling is not None:
            body["cause_ruling"] = self.cause_ruling
        if self.decides:
            body["match_result"] = self.match_result
        return body

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.whole("round"), f.whole("table"), f.whole("duel"), f.opt_text("winner"), f.opt_whole("cause_ruling"),
            f.has("match_result"), f.opt_text("match_result"),
        )  # fmt: skip


@dataclass(frozen=True)
class MatchResult(_Kind):
    """A match's result (a, b, draw; None: undone). ``by_hand``: the scorekeeper reported it,
    with no ruling behind it (its body has no ``cause_ruling``)."""

    kind: ClassVar[str] = "match.result"
    round: int
    table: int
    result: str | None
    cause_ruling: int | None = None
    by_hand: bool = False

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"round": self.round, "table": self.table, "result": self.result}
        if not self.by_hand:
            body["cause_ruling"] = self.cause_ruling
        return body

    @classmethod
    def read(cls, f: _Fields) -> Self:
        by_hand = not f.has("cause_ruling")
        return cls(
            f.whole("round"), f.whole("table"), f.opt_text("result"), f.opt_whole("cause_ruling"), by_hand
        )


@dataclass(frozen=True)
class MatchExtended(_Kind):
    """A ruling's time extension of a match (``delta`` -1: one taken back)."""

    kind: ClassVar[str] = "match.extended"
    round: int
    table: int
    delta: int
    cause_ruling: int

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "delta": self.delta,
            "cause_ruling": self.cause_ruling,
        }

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.whole("delta"), f.whole("cause_ruling"))


@dataclass(frozen=True)
class LossCarried(_Kind):
    """A loss waiting for the player's next match (D10)."""

    kind: ClassVar[str] = "loss.carried"
    ruling: int
    position: int
    player: str
    loss: str  # duel_loss | match_loss

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position, "player": self.player, "loss": self.loss}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"), f.text("player"), f.text("loss"))


@dataclass(frozen=True)
class LossSettled(_Kind):
    kind: ClassVar[str] = "loss.settled"
    ruling: int
    position: int
    state: str  # applied | cancelled

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position, "state": self.state}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"), f.text("state"))


# Rulings and what is done about them.


@dataclass(frozen=True)
class RulingsRecorded(_Kind):
    """Rulings given together: a record's, a missed deadline's follow-up (``follow_up_of``),
    or additional rulings a correction re-derived (``rederived_after``, D16)."""

    kind: ClassVar[str] = "ruling.recorded"
    rulings: tuple[RecordedRuling, ...]
    round: int | None = None
    table: int | None = None
    given_at: str | None = None  # D21: when given at the table; None in entries made before D21
    record: RecordAsked | None = None
    guideline: GuidelineRef | None = None
    follow_up_of: DeadlineRef | None = None
    rederived_after: int | None = None

    def body(self) -> dict[str, Any]:
        return {
            **_unless_none(
                record=self.record.body() if self.record else None,
                guideline=self.guideline.body() if self.guideline else None,
                follow_up_of=self.follow_up_of.body() if self.follow_up_of else None,
                rederived_after=self.rederived_after, given_at=self.given_at,
            ),
            "round": self.round, "table": self.table, "rulings": [r.body() for r in self.rulings],
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.parts("rulings", RecordedRuling.read), f.opt_whole("round"), f.opt_whole("table"),
            f.opt_text("given_at"), f.part("record", RecordAsked.read, optional=True),
            f.part("guideline", GuidelineRef.read, optional=True),
            f.part("follow_up_of", DeadlineRef.read, optional=True), f.opt_whole("rederived_after"),
        )  # fmt: skip


@dataclass(frozen=True)
class RulingsConfirmed(_Kind):
    """The head judge confirms rulings that waited for it (D11, D17)."""

    kind: ClassVar[str] = "ruling.confirmed"
    rulings: tuple[int, ...]

    def body(self) -> dict[str, Any]:
        return {"rulings": list(self.rulings)}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.wholes("rulings"))


@dataclass(frozen=True)
class RulingDeviated(_Kind):
    """The head judge's other penalties for one ruling, with the written reason (D11, D12)."""

    kind: ClassVar[str] = "ruling.deviated"
    ruling: int
    penalties: tuple[str, ...]
    reason: str
    needs_head_judge: bool
    explanation_ja: str
    explanation_en: str

    def body(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling, "penalties": list(self.penalties), "reason": self.reason,
            "needs_head_judge": self.needs_head_judge, "explanation_ja": self.explanation_ja,
            "explanation_en": self.explanation_en,
        }  # fmt: skip

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(
            f.whole("ruling"), f.texts("penalties"), f.text("reason"), f.flag("needs_head_judge"),
            f.text("explanation_ja"), f.text("explanation_en"),
        )  # fmt: skip


@dataclass(frozen=True)
class RulingsVoided(_Kind):
    """Rulings that count for nothing from now (D1, D16); ``rederived_after``: additional
    rulings no longer called for after that ruling's correction."""

    kind: ClassVar[str] = "ruling.voided"
    rulings: tuple[int, ...]
    reason: str
    rederived_after: int | None = None

    def body(self) -> dict[str, Any]:
        return {
            "rulings": list(self.rulings),
            "reason": self.reason,
            **_unless_none(rederived_after=self.rederived_after),
        }

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.wholes("rulings"), f.opt_text("reason") or "", f.opt_whole("rederived_after"))


@dataclass(frozen=True)
class DeadlineDone(_Kind):
    """A ruling's remedy carried out in time."""

    kind: ClassVar[str] = "deadline.done"
    ruling: int
    position: int

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"))


@dataclass(frozen=True)
class StatementTaken(_Kind):
    """A statement from someone involved (player, opponent, witness, judge)."""

    kind: ClassVar[str] = "statement"
    ruling: int | None
    author: str
    author_role: str
    text: str

    def body(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "author": self.author,
            "author_role": self.author_role,
            "text": self.text,
        }

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.opt_whole("ruling"), f.text("author"), f.text("author_role"), f.text("text"))


@dataclass(frozen=True)
class AppealFiled(_Kind):
    kind: ClassVar[str] = "appeal.filed"
    ruling: int
    by: str
    reason: str

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "by": self.by, "reason": self.reason}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("ruling"), f.text("by"), f.text("reason"))


@dataclass(frozen=True)
class AppealDecided(_Kind):
    """The head judge's final decision on an appeal (the appeal's entry number)."""

    kind: ClassVar[str] = "appeal.decided"
    appeal: int
    ruling: int
    outcome: str  # upheld | overturned | changed
    reason: str

    def body(self) -> dict[str, Any]:
        return {"appeal": self.appeal, "ruling": self.ruling, "outcome": self.outcome, "reason": self.reason}

    @classmethod
    def read(cls, f: _Fields) -> Self:
        return cls(f.whole("appeal"), f.whole("ruling"), f.text("outcome"), f.text("reason"))


EntryBody = (
    EventCreated | JudgeAdded | JudgeClaimed | PlayersImported | PlayerDropped | StatusChanged
    | RoundPaired | PairingEdited | RoundStarted | TimeExtended | RoundEnded
    | DuelResult | MatchResult | MatchExtended | LossCarried | LossSettled
    | RulingsRecorded | RulingsConfirmed | RulingDeviated | RulingsVoided | DeadlineDone
    | StatementTaken | AppealFiled | AppealDecided
)  # fmt: skip

KINDS: dict[str, type[EntryBody]] = {
    t.kind: t
    for t in (
        EventCreated,
        JudgeAdded,
        JudgeClaimed,
        PlayersImported,
        PlayerDropped,
        StatusChanged,
        RoundPaired,
        PairingEdited,
        RoundStarted,
        TimeExtended,
        RoundEnded,
        DuelResult,
        MatchResult,
        MatchExtended,
        LossCarried,
        LossSettled,
        RulingsRecorded,
        RulingsConfirmed,
        RulingDeviated,
        RulingsVoided,
        DeadlineDone,
        StatementTaken,
        AppealFiled,
        AppealDecided,
    )
}


def parse(kind: str, body: object) -> EntryBody:
    """The typed entry of ``kind`` a body says; :class:`MalformedBody` when it is not one."""
    made = KINDS.get(kind)
    if made is None:
        raise MalformedBody(f"{kind!r} is not a kind of entry shinpan writes")
    return made.from_body(body)
