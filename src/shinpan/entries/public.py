"""The entry of what an event shows its players (T12): published at an address, or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind

NAME_MODES = ("names", "handles")


@dataclass(frozen=True)
class EventPublished(Kind):
    """The head judge published the event's players' pages at ``/p/<token>`` showing
    players by ``names`` (names with readings) or by ``handles`` (the handles they
    registered); ``token`` None: unpublished, the address answers nothing.
    ``winner_report``: the winner of a match may report its score there with the code on
    the table's slip, for the scorekeeper to confirm (T11; left out of the body when not)."""

    kind: ClassVar[str] = "event.published"
    token: str | None
    names: str
    winner_report: bool = False

    def body(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "names": self.names,
            **({"winner_report": True} if self.winner_report else {}),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.opt_text("token"), f.text("names"), f.flag("winner_report", False))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (EventPublished,)
