"""The entries of a judge call (T14): raised, claimed, escalated, resolved.

A call is numbered by the ledger position of its ``call.raised`` entry; each later moment
names it. When and who acted are the entry's own (its time and actor): a player raising a
call from the players' page is written by :data:`shinpan.services.calls.PLAYER`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind, unless_none


@dataclass(frozen=True)
class CallRaised(Kind):
    """A call for the match at ``table`` of round ``round``, with the table's reason
    (``rules``, ``dispute``, ``time``, ``other``) when one was given."""

    kind: ClassVar[str] = "call.raised"
    round: int
    table: int
    reason: str | None = None

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, **unless_none(reason=self.reason)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.opt_text("reason"))


@dataclass(frozen=True)
class _CallMoment(Kind):
    """A moment of a call that names only the call: its body is ``{"call": n}``."""

    call: int

    def body(self) -> dict[str, Any]:
        return {"call": self.call}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("call"))


@dataclass(frozen=True)
class CallClaimed(_CallMoment):
    """A judge (the entry's actor) takes the call."""

    kind: ClassVar[str] = "call.claimed"


@dataclass(frozen=True)
class CallEscalated(_CallMoment):
    """The call is handed to the head judge."""

    kind: ClassVar[str] = "call.escalated"


@dataclass(frozen=True)
class CallResolved(Kind):
    """The call is over: its outcome (``none``, ``ruling``, ``appeal``), the rulings it
    cites, the extension T14 proposed (``proposed`` minutes) and the one the judge gave
    (``minutes``, with ``reason`` when it differs from the proposal). A given extension is
    the ``time.extended`` entry that follows in the same command (T5)."""

    kind: ClassVar[str] = "call.resolved"
    call: int
    outcome: str
    rulings: tuple[int, ...]
    proposed: int
    minutes: int
    reason: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "call": self.call,
            "outcome": self.outcome,
            "rulings": list(self.rulings),
            "proposed": self.proposed,
            "minutes": self.minutes,
            **unless_none(reason=self.reason),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("call"),
            f.text("outcome"),
            f.wholes("rulings"),
            f.whole("proposed"),
            f.whole("minutes"),
            f.opt_text("reason"),
        )


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (CallRaised, CallClaimed, CallEscalated, CallResolved)
