"""One ruling as every reader shows it: the CLI, the web app's JSON and pages, the feed.

A :class:`RulingView` is the store's typed row (:class:`shinpan.store.feed.RulingRow`, its
codes read once into tuples) with what the event's guideline makes of them resolved once:
the status the ruling gives its player once the head judge confirms it (D17), asked of what
its penalties do in that guideline, whatever the file calls them. Its JSON
(:meth:`RulingView.as_json`) is the shape the CLI's ``--json`` and the API give
(:class:`shinpan.services.shapes.RulingListed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from shinpan.engine.event_rules import RulingState, status_once_confirmed
from shinpan.store.feed import NamedRuling, RulingRow

if TYPE_CHECKING:
    from collections.abc import Iterable

    from shinpan.guideline import Rulebook
    from shinpan.services.shapes import RulingInFeed, RulingListed


def awaiting_status(book: Rulebook, codes: Iterable[str], state: RulingState) -> str | None:
    """D17: the status a ruling that waits for the head judge gives its player once confirmed
    (``ejected``, ``disqualified``), or None: asked of what its penalties and effects
    (``codes``) do in the event's guideline (``book``), whatever the file calls them."""
    status = status_once_confirmed(book.acts(list(codes)), state)
    return None if status is None else status.value


@dataclass(frozen=True)
class RulingView:
    """A ruling as it stands (its penalties after any deviation, its state), with its
    player's name when read with it, and its meaning in the event's guideline."""

    row: RulingRow
    awaiting_status: str | None  # D17, see :func:`awaiting_status`
    player_name: str | None = None  # None: not on the roster, or not read

    @classmethod
    def of(cls, row: RulingRow, book: Rulebook, player_name: str | None = None) -> RulingView:
        return cls(row, awaiting_status(book, (*row.penalties, *row.effects), row.state), player_name)

    @classmethod
    def named(cls, found: NamedRuling, book: Rulebook) -> RulingView:
        return cls.of(found.ruling, book, found.player_name)

    def as_json(self) -> RulingListed:
        """The ruling as the CLI's JSON and the API give it."""
        row = self.row
        return {
            "number": row.number,
            "entry": row.entry_seq,
            "player": row.player,
            "rule": row.rule,
            "offense": row.offense,
            "penalties": list(row.penalties),
            "guideline_penalties": list(row.guideline_penalties),
            "effects": list(row.effects),
            "follow_up": row.follow_up,
            "needs_head_judge": row.needs_head_judge,
            "state": row.state,
            "deviation_reason": row.deviation_reason,
            "draft": row.draft,
            "trigger": row.trigger,
            "recorded_as": row.recorded_as,
            "round": row.round,
            "table": row.table_no,
            "judge": row.judge,
            "recorded_at": row.recorded_at,
            "source": row.source,
            "explanation_ja": row.explanation_ja,
            "explanation_en": row.explanation_en,
            "awaiting_status": self.awaiting_status,
        }

    def in_feed(self) -> RulingInFeed:
        """The ruling as the feed gives it: with its player's name."""
        return {**self.as_json(), "player_name": self.player_name}
