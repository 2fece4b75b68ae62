"""What rulings do to the event, appended: read a snapshot, let the engine plan, append.

The decisions (D10, D14, D17, D22, and what a correction undoes, D16) are made in
:mod:`shinpan.engine.effects`; the snapshots are read by :mod:`shinpan.store.snapshots`.
The planner reads what each component does (``acts_as`` in the guideline file), never its
code: the codes of rulings are turned into their meanings here, with the event's guideline.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from shinpan.engine.effects import (
    LOSSES,
    MATCH_DRAW,
    TIME_EXTENSION,
    Effect,
    PlayerView,
    plan_carried,
    plan_confirmation,
    plan_ruling,
    plan_undo,
)
from shinpan.engine.event_rules import STATUS_CODES, status_codes_now
from shinpan.guideline import Rulebook
from shinpan.services.context import load_event
from shinpan.store.ledger import Appender
from shinpan.store.snapshots import player_standing, player_view, undoing, waiting_losses

_ON_MATCHES = frozenset({*LOSSES, MATCH_DRAW, TIME_EXTENSION})


def append_effects(ap: Appender, planned: Iterable[Effect]) -> None:
    for effect in planned:
        ap.append(effect)


def _book(ap: Appender) -> Rulebook:
    return load_event(ap.conn, ap.event_id).book  # read once per command (context.holding)


def _meant(book: Rulebook, view: PlayerView) -> PlayerView:
    """The view with its live rulings' codes turned into what they do."""
    return replace(view, live=tuple(replace(r, codes=book.acts(r.codes)) for r in view.live))


def apply_ruling(ap: Appender, ruling: int, player: str, codes: Sequence[str], *, pending: bool) -> None:
    """Everything one ruling's penalties and effects do to matches and the player (D10,
    D14); a ``pending`` ruling ejects or disqualifies nobody until confirmed (D17)."""
    book = _book(ap)
    acts = book.acts(codes)
    on_matches = not _ON_MATCHES.isdisjoint(acts)
    on_status = not STATUS_CODES.isdisjoint(status_codes_now(acts, pending=pending))
    if not (on_matches or on_status):
        return  # most rulings change nothing: nothing to read
    view = player_view(ap.conn, ap.event_id, player, match=True, standing=on_status)
    if not on_status:  # D14, D22: whether the player still plays (a next match, any match)
        status, dropped = player_standing(ap.conn, ap.event_id, player)
        view = replace(view, status=status, dropped=dropped)
    append_effects(ap, plan_ruling(_meant(book, view), ruling, acts, pending=pending))


def confirm_status(ap: Appender, ruling: int, player: str, codes: Sequence[str]) -> None:
    """D17: once the head judge confirms it, an ejection or a disqualification takes effect."""
    book = _book(ap)
    acts = book.acts(codes)
    if STATUS_CODES.isdisjoint(acts):
        return
    view = _meant(book, player_view(ap.conn, ap.event_id, player))
    append_effects(ap, plan_confirmation(view, ruling, acts))


def revert_rulings(ap: Appender, numbers: set[int]) -> None:
    """Undo what these rulings did to matches, waiting losses and statuses (D16)."""
    book = _book(ap)
    found = undoing(ap.conn, ap.event_id, numbers)
    found = replace(found, players=tuple(_meant(book, v) for v in found.players))
    append_effects(ap, plan_undo(found))


def settle_carried(ap: Appender, round_no: int) -> None:
    """At pairing: losses waiting for a player's next match land on it (D10)."""
    for carried in waiting_losses(ap.conn, ap.event_id):
        view = player_view(ap.conn, ap.event_id, carried.player, standing=False)
        append_effects(ap, plan_carried(view, carried, round_no))
