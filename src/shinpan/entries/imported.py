"""The entry an import writes after the file's own: where the event came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind


@dataclass(frozen=True)
class EventImported(Kind):
    """The event was imported from an export of ``entries`` entries, of which its seals
    covered the first ``sealed`` (0: the file had no seal), the last seal made with the key
    ``key`` (the raw Ed25519 public key in hex; None: no seal). Entries the seals did not
    cover are only as good as whoever wrote the file: the desk and every report say so."""

    kind: ClassVar[str] = "event.imported"
    entries: int
    sealed: int
    key: str | None = None

    @property
    def unsealed(self) -> int:
        """How many of the file's entries no seal covered."""
        return self.entries - self.sealed

    def body(self) -> dict[str, Any]:
        return {"entries": self.entries, "sealed": self.sealed, "key": self.key}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("entries"), f.whole("sealed"), f.opt_text("key"))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (EventImported,)
