"""A conformance scenario played through the ledger's services, as the JSON API plays it.

One new event per scenario: the players imported, each record saved with ``given_at`` two
hours back (D21), a deviation sent as its own call right after the record, a ``missed`` as
the next pending deadline of the event's first ruling, a ``void`` as a void of that ruling.
The rulings come back in the contract's shape (``shinpan replay``'s), so that the two paths
can be compared field by field. This mirrors ``../shared/conformance/api_check.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from shinpan.engine import Deviation
from shinpan.errors import ShinpanError
from shinpan.files.csvio import PlayerRow
from shinpan.services import corrections, deadlines, events, queries, recording
from shinpan.store.db import Database

HEAD_JUDGE = "HJ"
FIELDS = (
    "event",
    "player",
    "rule",
    "offense",
    "penalties",
    "effects",
    "follow_up",
    "needs_head_judge",
    "voided",
)


class Refused(Exception):
    """The ledger refused a call of the scenario: ``index`` is the scenario event (None: setup)."""

    def __init__(self, index: int | None, error: ShinpanError) -> None:
        self.index, self.error = index, error
        super().__init__(f"event {index}: {error}")


@dataclass
class _Run:
    db: Database
    now: datetime
    event: int = 0
    produced: dict[int, list[int]] = field(default_factory=dict)
    artefacts: set[int] = field(default_factory=set)
    last_seen: int = 0

    def seen(self, numbers: list[int]) -> list[int]:
        self.last_seen = max([self.last_seen, *numbers])
        return numbers

    def feed(self) -> dict[int, dict[str, Any]]:
        return {r["number"]: r for r in queries.rulings_feed(self.db, self.event, limit=100_000)}

    def newer(self) -> list[int]:
        return self.seen(sorted(n for n in self.feed() if n > self.last_seen))


def through_ledger(db: Database, scenario: dict[str, Any], now: datetime) -> list[dict[str, Any]]:
    """The scenario's rulings as the ledger decides them; :class:`Refused` when it refuses a call."""
    run = _Run(db, now)
    given = (now - timedelta(hours=2)).isoformat(timespec="seconds")
    try:
        run.event = events.create_event(
            db, name="paths", head_judge=HEAD_JUDGE, head_judge_level=2, starts_on="2024-06-01", now=now
        )
        rows = [PlayerRow(p, p, "", None) for p in scenario["players"]]
        events.import_players(db, run.event, rows, now=now)
    except ShinpanError as e:
        raise Refused(None, e) from None
    for index, e in enumerate(scenario["events"]):
        try:
            _play(run, index, e, given)
        except ShinpanError as error:
            raise Refused(index, error) from None
    rows_by_number = run.feed()
    out = []
    for index, numbers in sorted(run.produced.items()):
        for n in numbers:
            if n not in run.artefacts:
                out.append(contract(index, rows_by_number[n]))
    return out


def _play(run: _Run, index: int, e: dict[str, Any], given: str) -> None:
    db, event, now = run.db, run.event, run.now
    if "missed" in e:
        primary = run.produced[e["missed"]][0]
        pending = sorted(
            d.position for d in deadlines.list_deadlines(db, event, now=now) if d.ruling == primary
        )
        made = deadlines.mark_missed(db, event, primary, pending[0] if pending else 0, now=now)
        run.produced[index] = run.seen([r["number"] for r in made])
    elif "void" in e:
        corrections.void(db, event, run.produced[e["void"]][0], f"scenario event {index}", now=now)
        run.produced[index] = run.newer()
    else:
        inp = recording.RecordInput(
            player=e["player"],
            infraction=e["infraction"],
            facts=dict(e.get("facts", {})),
            draft=e.get("draft"),
            penalties=tuple(e["penalties"]) if "penalties" in e else None,
            given_at=given,
        )
        saved = recording.record(db, event, inp, now=now)
        numbers = run.seen([r["number"] for r in saved.rulings])
        run.produced[index] = numbers
        dev = (
            Deviation(tuple(e["deviation"]["penalties"]), e["deviation"]["reason"])
            if "deviation" in e
            else None
        )
        # A deviation to the penalties the ruling has is refused, inline or as a correction
        # (it changes nothing): the correction refuses it here as replay refuses it inline.
        if dev is not None:
            corrections.deviate(db, event, numbers[0], dev.penalties, dev.reason, now=now)
            feed = run.feed()
            # the record call's additional rulings that its own deviation voided: the two-call
            # form of an inline deviation, which replay never makes (as api_check.py leaves out)
            run.artefacts |= {n for n in numbers[1:] if feed[n]["state"] == "voided"}
            run.produced[index] = numbers + run.newer()


def contract(index: int, row: dict[str, Any]) -> dict[str, Any]:
    """A ledger ruling in the replay contract's fields."""
    return {
        "event": index,
        "player": row["player"],
        "rule": row["rule"],
        "offense": row["offense"],
        "penalties": row["penalties"],
        "effects": row["effects"],
        "follow_up": row["follow_up"],
        "needs_head_judge": row["needs_head_judge"],
        "voided": row["state"] == "voided",
        **({"recorded_as": row["recorded_as"]} if row.get("recorded_as") else {}),
    }


def comparable(rulings: list[dict[str, Any]]) -> list[str]:
    """The rulings as a sorted list of their contract fields (penalties as multisets)."""
    keep = [*FIELDS, "recorded_as"]
    return sorted(
        json.dumps(
            {k: sorted(v) if k in ("penalties", "effects") else v for k, v in r.items() if k in keep},
            ensure_ascii=False,
            sort_keys=True,
        )
        for r in rulings
    )
