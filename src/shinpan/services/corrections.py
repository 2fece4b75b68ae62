"""The head judge's confirmations, deviations and voids, and what they re-derive (D11, D16, D17).

A void takes effect as if the record had never been made: its rulings, and the follow-ups
of its deadlines, count for nothing from now, and what they did to matches and statuses is
undone. A deviation replaces one ruling's penalties. After either, the engine works out
the affected players' additional rulings again (:func:`shinpan.engine.corrections.rederive`)
and the correction appends what it says: voids of those no longer called for, and new ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Unpack

from shinpan.engine import Deviation, RecordError
from shinpan.engine.corrections import rederive
from shinpan.engine.event_rules import Action, RulingState
from shinpan.engine.explain import deviation_text
from shinpan.engine.facts import check_deviation, check_deviation_changes
from shinpan.engine.hanging import effects_after_deviation, remedies_after_deviation, restored_effects
from shinpan.engine.refusals import (
    AsItStands,
    ConfirmRefused,
    DeviationRefused,
    VoidRefused,
    why_no_confirm,
    why_no_deviate,
    why_no_void,
)
from shinpan.engine.ruling import Trigger
from shinpan.entries import RulingDeviated, RulingsConfirmed, RulingsRecorded, RulingsVoided
from shinpan.errors import Conflict, InvalidInput
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.context import load_event
from shinpan.services.effects import apply_ruling, confirm_status, revert_rulings
from shinpan.services.recording import append_rulings, live_history, next_number, rows_of
from shinpan.services.shapes import DeviationJson, deviation_json
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.feed import RulingRow
from shinpan.store.ledger import Appender
from shinpan.store.rulings import live_follow_ups, numbers_of_entry


def confirm(
    db: Database,
    event_id: int,
    numbers: Sequence[int],
    **asked: Unpack[Judged],
) -> list[int]:
    """The head judge confirms rulings that wait for it (D11); an ejection or a
    disqualification changes the player's status only now (D17)."""

    def act(conn: Connection, ap: Appender) -> list[int]:
        found = rows_of(conn, event_id, numbers)
        for r in found:
            if why_no_confirm(r.state) is ConfirmRefused.not_waiting:
                raise Conflict(
                    "ruling {n} is {state}, not waiting for confirmation", n=r.number, state=r.state
                )
        ap.append(RulingsConfirmed(tuple(sorted(numbers))))
        for r in sorted(found, key=lambda r: int(r.number)):
            confirm_status(ap, r.number, r.player, [*r.penalties, *r.effects])
        return sorted(numbers)

    return run_asked(
        db,
        event_id,
        Action.confirm,
        {"confirm": sorted(numbers)},
        act,
        lambda _c, e: list(e.of(RulingsConfirmed).rulings),
        **by_judge(asked),
    )


def _as_it_stands(row: RulingRow) -> AsItStands:
    """The ruling as the correction rules see it, its penalties read once."""
    return AsItStands(
        row.state,
        Trigger(row.trigger),
        row.offense,
        row.follow_up,
        row.penalties,
        row.guideline_penalties,
    )


def deviate_in(ap: Appender, number: int, penalties: Sequence[str], reason: str) -> DeviationJson:
    """Within a command: replace one ruling's penalties and what they did (D11, D12), then
    re-derive the player's additional rulings (D16)."""
    conn = ap.conn
    event = load_event(conn, ap.event_id)
    book = event.book
    why = reason.strip()
    try:
        check_deviation(book, Deviation(tuple(penalties), why))
    except RecordError as e:
        raise InvalidInput(e.template, field=e.field.removeprefix("deviation."), **e.params) from None
    (row,) = rows_of(conn, ap.event_id, [number])
    standing = _as_it_stands(row)
    new = tuple(penalties)
    given = standing.guideline_penalties
    refused = why_no_deviate(standing, new)
    if refused is DeviationRefused.voided:
        raise Conflict("ruling {n} is voided", n=number)
    if refused is DeviationRefused.penalises_nobody:
        raise Conflict(
            "ruling {n} penalises nobody, so there is nothing to deviate from; "
            "record a violation outside every category instead",
            n=number,
        )
    if refused is not None:  # it would change nothing: said as the engine says it
        try:
            check_deviation_changes(given, standing.penalties, new)
        except RecordError as e:
            raise InvalidInput(e.template, field=e.field.removeprefix("deviation.")) from None
    # D16: the step's own effects and remedies hang on its penalties (a follow-up has none).
    had = row.effects
    effects: tuple[str, ...] = had
    gone: tuple[tuple[str, str], ...] = ()
    if not row.follow_up:
        effects = effects_after_deviation(
            book, row.rule, row.offense, restored_effects(book, row.rule, row.offense, had), new
        )
        gone = remedies_after_deviation(book, row.rule, row.offense, new)
    deviated = RulingDeviated(
        number,
        new,
        why,
        book.needs_head_judge(new, event.confirmation_threshold),
        f"{row.explanation_ja}{deviation_text(book, new, given, why, 'ja', gone)}",
        f"{row.explanation_en} {deviation_text(book, new, given, why, 'en', gone)}",
        effects=effects if effects != had else None,
    )
    ap.append(deviated, refs=[row.entry_seq])
    revert_rulings(ap, {number})
    apply_ruling(ap, number, row.player, [*new, *effects], pending=False)
    _rederive(ap, [row.player], number, why)
    return deviation_json(deviated)


def void_in(ap: Appender, number: int, reason: str) -> list[int]:
    """Within a command: void the record a ruling came from, with the follow-ups of its
    deadlines, reversing what they did; then re-derive the additional rulings (D16)."""
    why = reason.strip()
    conn, event_id = ap.conn, ap.event_id
    (row,) = rows_of(conn, event_id, [number])
    refused = why_no_void(row.state, why)
    if refused is VoidRefused.no_reason:
        raise InvalidInput("a void needs a reason", field="reason")
    if refused is VoidRefused.voided:
        raise Conflict("ruling {n} is already voided", n=number)
    entries = [row.entry_seq]
    numbers = numbers_of_entry(conn, event_id, row.entry_seq)
    frontier = list(numbers)
    while frontier:  # follow-ups of its deadlines, and theirs
        found = live_follow_ups(conn, event_id, frontier)
        fresh = sorted({f.number for f in found} - set(numbers))
        entries += sorted({f.entry_seq for f in found} - set(entries))
        numbers += fresh
        frontier = fresh
    live = [r for r in rows_of(conn, event_id, numbers) if r.state != RulingState.voided]
    gone = sorted(int(r.number) for r in live)
    ap.append(RulingsVoided(tuple(gone), why), refs=entries)
    revert_rulings(ap, set(gone))
    _rederive(ap, [r.player for r in live], number, why)
    return gone


def _rederive(ap: Appender, players: Iterable[str], corrected: int, reason: str) -> None:
    """D16: the additional rulings each player's corrected history calls for."""
    event = load_event(ap.conn, ap.event_id)
    for player in dict.fromkeys(players):
        history = live_history(ap.conn, ap.event_id, player)
        again = rederive(event.book, history, first_number=next_number(ap.conn, ap.event_id))
        if again.void:
            ap.append(RulingsVoided(tuple(again.void), reason, rederived_after=corrected))
            revert_rulings(ap, set(again.void))
        if again.add:
            append_rulings(ap, event, again.add, RulingsRecorded((), rederived_after=corrected), None, None)


def deviate(
    db: Database,
    event_id: int,
    number: int,
    penalties: Sequence[str],
    reason: str,
    **asked: Unpack[Judged],
) -> DeviationJson:
    """The head judge departs from the guideline for one ruling, with a written reason."""
    payload = {"deviate": number, "penalties": list(penalties), "reason": reason}
    return run_asked(
        db,
        event_id,
        Action.deviate,
        payload,
        lambda _conn, ap: deviate_in(ap, number, penalties, reason),
        lambda _c, e: deviation_json(e.of(RulingDeviated)),
        **by_judge(asked),
    )


def void(
    db: Database,
    event_id: int,
    number: int,
    reason: str,
    **asked: Unpack[Judged],
) -> list[int]:
    """Void the record a ruling came from: all its rulings count for nothing from now (D1, D16)."""
    return run_asked(
        db,
        event_id,
        Action.void,
        {"void": number, "reason": reason},
        lambda _conn, ap: void_in(ap, number, reason),
        lambda _c, e: list(e.of(RulingsVoided).rulings),
        **by_judge(asked),
    )
