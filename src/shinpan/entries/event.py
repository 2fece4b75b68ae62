"""The entries of an event, its people, its rounds and their results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.parts import GuidelineRef, HeadJudge, Pairing, Registration
from shinpan.entries.reading import Fields, Kind, unless_none


@dataclass(frozen=True)
class EventCreated(Kind):
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
            "uid": self.uid,
            "name": self.name,
            "starts_on": self.starts_on,
            "ends_on": self.ends_on,
            "venue": self.venue,
            "rel": self.rel,
            "guideline": self.guideline.body(),
            "head_judge": self.head_judge.body(),
            "confirmation_threshold": self.confirmation_threshold,
            **unless_none(time_zone=self.time_zone, round_minutes=self.round_minutes),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.text("uid"),
            f.text("name"),
            f.opt_text("starts_on"),
            f.opt_text("ends_on"),
            f.opt_text("venue"),
            f.whole("rel"),
            GuidelineRef.read(Fields(f.mapping("guideline"), f"{cls.kind}: guideline")),
            HeadJudge.read(Fields(f.mapping("head_judge"), f"{cls.kind}: head_judge")),
            f.text("confirmation_threshold"),
            f.opt_text("time_zone"),
            f.opt_whole("round_minutes"),
        )


@dataclass(frozen=True)
class JudgeAdded(Kind):
    """A judge's seat (or a new role for one): floor judge, scorekeeper or viewer."""

    kind: ClassVar[str] = "judge.added"
    name: str
    level: int | None
    role: str
    account: str | None = None

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "role": self.role, "account": self.account}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("name"), f.opt_whole("level"), f.text("role"), f.opt_text("account"))


@dataclass(frozen=True)
class JudgeClaimed(Kind):
    """A seat made without an account, claimed with its one-time code."""

    kind: ClassVar[str] = "judge.claimed"
    name: str
    account: str

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.account}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("name"), f.text("account"))


@dataclass(frozen=True)
class JudgeSeated(Kind):
    """A seat of an imported event as the importing installation gives it: to the account
    the person importing named (``--map-account``), or to none (the seat waits for its claim
    code). An account named in the file itself is never kept."""

    kind: ClassVar[str] = "judge.seated"
    name: str
    account: str | None

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.account}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("name"), f.opt_text("account"))


@dataclass(frozen=True)
class PlayersImported(Kind):
    kind: ClassVar[str] = "players.imported"
    players: tuple[Registration, ...]

    def body(self) -> dict[str, Any]:
        return {"players": [p.body() for p in self.players]}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.parts("players", Registration.read))


@dataclass(frozen=True)
class PlayerDropped(Kind):
    """The player left the event between rounds: never paired again."""

    kind: ClassVar[str] = "player.dropped"
    player: str
    round: int

    def body(self) -> dict[str, Any]:
        return {"player": self.player, "round": self.round}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("player"), f.whole("round"))


@dataclass(frozen=True)
class PlayerCorrected(Kind):
    """A registered player's name, reading or club as it should have been written, and the
    handle they go by on the players' pages when one is given (a body without a handle
    changes none, and is written as before)."""

    kind: ClassVar[str] = "player.corrected"
    player: str
    name: str
    reading: str | None
    club: str | None
    handle: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "player": self.player, "name": self.name, "reading": self.reading, "club": self.club,
            **unless_none(handle=self.handle),
        }  # fmt: skip

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.text("player"), f.text("name"), f.opt_text("reading"), f.opt_text("club"), f.opt_text("handle")
        )


@dataclass(frozen=True)
class AttendanceMarked(Kind):
    """Before round 1: the player is at the venue (present) or not (absent: not paired;
    still absent when round 1 is paired, they drop before it)."""

    kind: ClassVar[str] = "player.attendance"
    player: str
    present: bool

    def body(self) -> dict[str, Any]:
        return {"player": self.player, "present": self.present}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("player"), f.flag("present"))


@dataclass(frozen=True)
class StatusChanged(Kind):
    """A player's status as their live rulings give it (D14, D17)."""

    kind: ClassVar[str] = "player.status"
    player: str
    status: str  # an engine.event_rules.Status value
    cause_ruling: int | None

    def body(self) -> dict[str, Any]:
        return {"player": self.player, "status": str(self.status), "cause_ruling": self.cause_ruling}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("player"), f.text("status"), f.opt_whole("cause_ruling"))


# Rounds, matches, duels.


@dataclass(frozen=True)
class RoundPaired(Kind):
    kind: ClassVar[str] = "round.paired"
    round: int
    pairings: tuple[Pairing, ...]
    seed: int | None = None  # Swiss pairing's seed; None: pairings imported

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "pairings": [p.body() for p in self.pairings],
            **unless_none(seed=self.seed),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.parts("pairings", Pairing.read), f.opt_whole("seed"))


@dataclass(frozen=True)
class PairingEdited(Kind):
    """The head judge's new pairing of some tables of a round not started yet."""

    kind: ClassVar[str] = "pairing.edited"
    round: int
    pairings: tuple[Pairing, ...]
    reason: str

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "pairings": [p.body() for p in self.pairings], "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.parts("pairings", Pairing.read), f.text("reason"))


@dataclass(frozen=True)
class RoundStarted(Kind):
    kind: ClassVar[str] = "round.started"
    round: int
    minutes: int

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "minutes": self.minutes}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("minutes"))


@dataclass(frozen=True)
class TimeExtended(Kind):
    """Minutes a judge gave one table, with the reason."""

    kind: ClassVar[str] = "time.extended"
    round: int
    table: int
    minutes: int
    reason: str

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "minutes": self.minutes, "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.whole("minutes"), f.text("reason"))


@dataclass(frozen=True)
class RoundEnded(Kind):
    kind: ClassVar[str] = "round.ended"
    round: int

    def body(self) -> dict[str, Any]:
        return {"round": self.round}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"))


@dataclass(frozen=True)
class DuelResult(Kind):
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
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("round"),
            f.whole("table"),
            f.whole("duel"),
            f.opt_text("winner"),
            f.opt_whole("cause_ruling"),
            f.has("match_result"),
            f.opt_text("match_result"),
        )


@dataclass(frozen=True)
class MatchResult(Kind):
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
    def read(cls, f: Fields) -> Self:
        by_hand = not f.has("cause_ruling")
        return cls(
            f.whole("round"), f.whole("table"), f.opt_text("result"), f.opt_whole("cause_ruling"), by_hand
        )


@dataclass(frozen=True)
class MatchExtended(Kind):
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
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.whole("delta"), f.whole("cause_ruling"))


@dataclass(frozen=True)
class LossCarried(Kind):
    """A loss waiting for the player's next match (D10)."""

    kind: ClassVar[str] = "loss.carried"
    ruling: int
    position: int
    player: str
    loss: str  # duel_loss | match_loss

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position, "player": self.player, "loss": self.loss}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"), f.text("player"), f.text("loss"))


@dataclass(frozen=True)
class LossSettled(Kind):
    kind: ClassVar[str] = "loss.settled"
    ruling: int
    position: int
    state: str  # applied | cancelled

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position, "state": self.state}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"), f.text("state"))


@dataclass(frozen=True)
class EventSealed(Kind):
    """The head judge sealed the event: the installation's Ed25519 signature of the chain's
    head at ``position`` (the entry before this one), with the public key that made it."""

    kind: ClassVar[str] = "event.sealed"
    position: int
    head: str  # the hash of entry ``position`` (hex)
    key: str  # the raw Ed25519 public key (hex)
    signature: str  # over :func:`shinpan.services.seal.sealed_message` (hex)

    def body(self) -> dict[str, Any]:
        return {"position": self.position, "head": self.head, "key": self.key, "signature": self.signature}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("position"), f.text("head"), f.text("key"), f.text("signature"))


@dataclass(frozen=True)
class EventReopened(Kind):
    """The head judge reopened a sealed event, saying why: it takes commands again until it
    is sealed anew. The seal stays in the ledger (it still signs the entries before it)."""

    kind: ClassVar[str] = "event.reopened"
    seal: int  # the seal's entry that this reopening lifts
    reason: str

    def body(self) -> dict[str, Any]:
        return {"seal": self.seal, "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("seal"), f.text("reason"))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (
    EventCreated,
    JudgeAdded,
    JudgeClaimed,
    JudgeSeated,
    PlayersImported,
    PlayerDropped,
    PlayerCorrected,
    AttendanceMarked,
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
    EventSealed,
    EventReopened,
)
