"""The replays of the ruling commands for an import (recorded, confirmed, deviated, voided, a
deadline done, a statement, an appeal filed and heard): each first entry handed to its live
service, which decides again (registered with :func:`shinpan.files.reimport.replays`;
imported by that module)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from shinpan import entries
from shinpan.engine import Deviation
from shinpan.files.reimport import _by, _NotACommand, replays
from shinpan.services import (
    appeals,
    corrections,
    deadlines,
    recording,
)
from shinpan.store.db import Database
from shinpan.store.ledger import Entry


@replays(entries.RulingsRecorded)
def _recorded(db: Database, e: int, entry: Entry, b: entries.RulingsRecorded, _: Sequence[Entry]) -> None:
    if b.follow_up_of is not None:  # a missed deadline's follow-up
        deadlines.mark_missed(db, e, b.follow_up_of.ruling, b.follow_up_of.position, **_by(entry))
        return
    asked = b.record
    if asked is None:  # additional rulings a correction re-derived
        raise _NotACommand()
    deviation = (
        Deviation(tuple(asked.deviation.penalties), asked.deviation.reason) if asked.deviation else None
    )
    # the record as the judge entered it is the service's input, field for field
    same = {f.name: getattr(asked, f.name) for f in fields(recording.RecordInput)}
    inp = recording.RecordInput(**{**same, "facts": dict(asked.facts), "deviation": deviation})
    recording.record(db, e, inp, **_by(entry))


@replays(entries.RulingsConfirmed)
def _confirmed(db: Database, e: int, entry: Entry, b: entries.RulingsConfirmed, _: Sequence[Entry]) -> None:
    corrections.confirm(db, e, b.rulings, **_by(entry))


@replays(entries.RulingDeviated)
def _deviated(db: Database, e: int, entry: Entry, b: entries.RulingDeviated, _: Sequence[Entry]) -> None:
    corrections.deviate(db, e, b.ruling, b.penalties, b.reason, **_by(entry))


@replays(entries.RulingsVoided)
def _voided(db: Database, e: int, entry: Entry, b: entries.RulingsVoided, _: Sequence[Entry]) -> None:
    if b.rederived_after is not None or not b.rulings:
        raise _NotACommand()  # a correction's re-derivation
    # the first ruling voided is the record's own (the follow-ups of its deadlines come after it)
    corrections.void(db, e, b.rulings[0], b.reason, **_by(entry))


@replays(entries.DeadlineDone)
def _done(db: Database, e: int, entry: Entry, b: entries.DeadlineDone, _: Sequence[Entry]) -> None:
    deadlines.mark_done(db, e, b.ruling, b.position, **_by(entry))


@replays(entries.StatementTaken)
def _statement(db: Database, e: int, entry: Entry, b: entries.StatementTaken, _: Sequence[Entry]) -> None:
    appeals.add_statement(db, e, b.author, b.author_role, b.text, ruling=b.ruling, **_by(entry))


@replays(entries.AppealFiled)
def _appealed(db: Database, e: int, entry: Entry, b: entries.AppealFiled, _: Sequence[Entry]) -> None:
    appeals.file_appeal(db, e, b.ruling, b.by, b.reason, **_by(entry))


@replays(entries.AppealDecided)
def _heard(db: Database, e: int, entry: Entry, b: entries.AppealDecided, following: Sequence[Entry]) -> None:
    penalties = None
    if b.outcome == "changed" and following and isinstance(following[0].body, entries.RulingDeviated):
        penalties = list(following[0].body.penalties)  # the new penalties, in the deviation it makes
    appeals.decide_appeal(db, e, b.appeal, b.outcome, b.reason, penalties=penalties, **_by(entry))
