"""The replays of the decklist and deck-check commands (T13) for an import: each first entry
handed to its live service, which decides again (registered with
:func:`shinpan.files.reimport.replays`; imported by that module)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile

from shinpan import entries
from shinpan.files.reimport import _as, _by, replays
from shinpan.services import deck_rules, deckchecks, decklists
from shinpan.services.codes import player_codes
from shinpan.store.db import Database
from shinpan.store.decks import CheckRow, check_by_seq
from shinpan.store.entry import Entry
from shinpan.tournament.deckcheck import LOST_OR_MIXED


@replays(entries.DeckRulesSet)
def _rules(db: Database, e: int, entry: Entry, b: entries.DeckRulesSet, _: Sequence[Entry]) -> None:
    deck_rules.set_rules(
        db, e, required=b.required, sections=b.sections, copies=b.copies, across=b.across,
        limits=b.limits, unlimited=b.unlimited, lock=b.lock, **_by(entry),
    )  # fmt: skip


@replays(entries.DecklistRegistered)
def _registered(
    db: Database, e: int, entry: Entry, b: entries.DecklistRegistered, following: Sequence[Entry]
) -> None:
    at = _as(entry)["now"]
    if b.by_player:
        with db.read() as conn:
            code = player_codes(db, conn, e, [b.player])[b.player]
        decklists.submit_by_player(
            db, e, b.player, code, decklists.deck_of(b.sections), fmt=b.format, source=b.source,
            digest=b.digest, command_id=entry.command_id, now=at,
        )  # fmt: skip
        return
    same_command = takewhile(lambda f: f.command_id is None and f.refs == (entry.seq,), following)
    batch = [entry, *same_command]
    if len(batch) == 1:
        decklists.submit(
            db, e, b.player, decklists.deck_of(b.sections), fmt=b.format, source=b.source, digest=b.digest,
            **_by(entry),
        )  # fmt: skip
        return
    lists = {}
    for one in batch:
        x = one.of(entries.DecklistRegistered)
        lists[x.player] = (decklists.deck_of(x.sections), x.format, x.source, x.digest)
    decklists.import_lists(db, e, lists, **_by(entry))


@replays(entries.DecklistCorrected)
def _corrected(db: Database, e: int, entry: Entry, b: entries.DecklistCorrected, _: Sequence[Entry]) -> None:
    decklists.correct(
        db, e, b.player, decklists.deck_of(b.sections), b.reason, fmt=b.format, source=b.source,
        digest=b.digest, **_by(entry),
    )  # fmt: skip


@replays(entries.DecklistsLocked)
def _locked(db: Database, e: int, entry: Entry, b: entries.DecklistsLocked, _: Sequence[Entry]) -> None:
    decklists.lock(db, e, **_by(entry))


@replays(entries.DeckCheckStarted)
def _started(db: Database, e: int, entry: Entry, b: entries.DeckCheckStarted, _: Sequence[Entry]) -> None:
    deckchecks.start(db, e, b.round, b.table, **_by(entry))


def _check(db: Database, e: int, seq: int) -> CheckRow:
    with db.read() as conn:
        found = check_by_seq(conn, e, seq)
    if found is None:
        raise ValueError(f"no deck check {seq}")
    return found


@replays(entries.DeckCheckCounted)
def _counted(db: Database, e: int, entry: Entry, b: entries.DeckCheckCounted, _: Sequence[Entry]) -> None:
    check = _check(db, e, b.check)
    deckchecks.count(db, e, check.round, check.table, b.player, decklists.deck_of(b.sections), **_by(entry))


@replays(entries.DeckCheckEnded)
def _ended(db: Database, e: int, entry: Entry, b: entries.DeckCheckEnded, _: Sequence[Entry]) -> None:
    check = _check(db, e, b.check)
    recorded_by = {f.player: f.recorded_by for f in b.findings if f.recorded_by is not None}
    confirmed = {  # the findings as the judge confirmed them (the same as shown, or not)
        f.player: deckchecks.Confirmed(
            f.deck_legal,
            f.list_legal,
            f.matches,
            tuple(who for rule, who, _ in f.proposed if rule == LOST_OR_MIXED),
        )
        for f in b.findings
    }
    deckchecks.end(
        db, e, check.round, check.table, recorded_by=recorded_by, extend=b.extended, confirmed=confirmed,
        **_by(entry),
    )  # fmt: skip


@replays(entries.DeckCorrected)
def _deck_corrected(db: Database, e: int, entry: Entry, b: entries.DeckCorrected, _: Sequence[Entry]) -> None:
    check = _check(db, e, b.check)
    deckchecks.deck_corrected(db, e, check.round, check.table, b.player, **_by(entry))


@replays(entries.DecklistsPublished)
def _published(db: Database, e: int, entry: Entry, b: entries.DecklistsPublished, _: Sequence[Entry]) -> None:
    decklists.publish_top(db, e, b.top, **_by(entry))
