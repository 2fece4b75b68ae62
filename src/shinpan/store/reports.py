"""What the reports read: the event's header, its players, its rulings as they stand, what
the ledger says judges did to them, their deadlines. Run on the driver (see :class:`Statement`).

Each read is one statement (an ``IN`` list longer than :data:`~shinpan.store.db.IN_CHUNK`
is read in slices) in the caller's transaction: a report opens one ``db.read()`` and asks
everything in it, so what it shows is one moment of the ledger. Rows come back as
NamedTuples; a column holding JSON (a ruling's penalties, an entry's body) is parsed here,
so the reports never see a stored text.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from typing import Any, NamedTuple

from shinpan.engine.event_rules import DeadlineState, RulingState
from shinpan.entries import RulingDeviated, RulingsConfirmed, RulingsRecorded, RulingsVoided, parse
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import chunks

__all__ = [
    "Deadline",
    "EventRecord",
    "JudgeAct",
    "MissedDeadline",
    "PlayerRecord",
    "RecordedEntry",
    "RulingRecord",
    "RulingTally",
    "acts_on_rulings",
    "as_recorded",
    "deadlines_of",
    "event",
    "events",
    "missed_deadlines",
    "opponent_of",
    "player_names",
    "players",
    "players_named",
    "rulings",
    "rulings_naming",
    "tallies",
]

# -- the event ------------------------------------------------------------------------------

_EVENT_COLUMNS = (
    "event_id, name, starts_on, ends_on, venue, rel, head_judge, guideline_id, guideline_version, time_zone"
)
_EVENT = Statement(f"SELECT {_EVENT_COLUMNS} FROM events WHERE event_id = :e")
_EVENTS = Statement(f"SELECT {_EVENT_COLUMNS} FROM events ORDER BY starts_on, event_id")
_EVENTS_LISTED = Statement(
    f"SELECT {_EVENT_COLUMNS} FROM events WHERE event_id IN (:ids) ORDER BY starts_on, event_id"
)


class EventRecord(NamedTuple):
    """An event as a report's first lines say it."""

    event_id: int
    name: str
    starts_on: str | None
    ends_on: str | None
    venue: str | None
    rel: int
    head_judge: str
    guideline_id: str
    guideline_version: str
    time_zone: str


def event(conn: Connection, event_id: int) -> EventRecord | None:
    row = _EVENT.first(conn, {"e": event_id})
    return EventRecord(*row) if row is not None else None


def events(conn: Connection, event_ids: Collection[int] | None = None) -> list[EventRecord]:
    """Every event (or those listed), oldest first."""
    if event_ids is None:
        return [EventRecord(*r) for r in _EVENTS.all(conn)]
    slices = list(chunks(sorted(set(event_ids))))
    found = [EventRecord(*r) for c in slices for r in _EVENTS_LISTED.all(conn, {"ids": list(c)})]
    if len(slices) > 1:  # each slice is in order, the whole is not
        found.sort(key=lambda e: (e.starts_on is not None, e.starts_on or "", e.event_id))
    return found


# -- players --------------------------------------------------------------------------------

_PLAYERS = Statement("SELECT number, name, reading, status FROM players WHERE event_id = :e")
_PLAYERS_LISTED = Statement(
    "SELECT number, name, reading, status FROM players WHERE event_id = :e AND number IN (:numbers)"
)
# ``search`` holds name, kana and romaji normalised; a fragment is matched as it is typed.
_NAMED = Statement(
    "SELECT event_id, number, name, reading, status FROM players "
    "WHERE search LIKE :pattern ESCAPE '/' ORDER BY event_id, number"
)


class PlayerRecord(NamedTuple):
    number: str
    name: str
    reading: str
    status: str


class PlayerAt(NamedTuple):
    """A player of some event, found by name."""

    event_id: int
    number: str
    name: str
    reading: str
    status: str


def players(conn: Connection, event_id: int, numbers: Iterable[str] | None = None) -> dict[str, PlayerRecord]:
    """The event's players by number (all of them, or those listed)."""
    if numbers is None:
        rows = _PLAYERS.all(conn, {"e": event_id})
    else:
        wanted = sorted(set(numbers))
        rows = [
            r for c in chunks(wanted) for r in _PLAYERS_LISTED.all(conn, {"e": event_id, "numbers": list(c)})
        ]
    return {r[0]: PlayerRecord(*r) for r in rows}


_NAMES = Statement("SELECT number, name FROM players WHERE event_id = :e")
_NAMES_LISTED = Statement("SELECT number, name FROM players WHERE event_id = :e AND number IN (:numbers)")


def player_names(conn: Connection, event_id: int, numbers: Iterable[str] | None = None) -> dict[str, str]:
    """The names of the event's players by number (all of them, or those listed)."""
    if numbers is None:
        return dict(_NAMES.all(conn, {"e": event_id}))
    wanted = sorted(set(numbers))
    return {
        r[0]: r[1]
        for c in chunks(wanted)
        for r in _NAMES_LISTED.all(conn, {"e": event_id, "numbers": list(c)})
    }


def players_named(conn: Connection, fragment: str) -> list[PlayerAt]:
    """Players of every event whose normalised names contain ``fragment`` (already
    normalised), by event."""
    escaped = fragment.replace("/", "//").replace("%", "/%").replace("_", "/_")
    return [PlayerAt(*r) for r in _NAMED.all(conn, {"pattern": f"%{escaped}%"})]


# -- rulings --------------------------------------------------------------------------------

_RULING_COLUMNS = (
    "number, entry_seq, player, rule, offense, penalties, guideline_penalties, effects, follow_up, "
    'state, deviation_reason, "trigger", round, table_no, judge, recorded_at'
)
_RULINGS = Statement(f"SELECT {_RULING_COLUMNS} FROM rulings WHERE event_id = :e ORDER BY number")
_RULINGS_OF = Statement(
    f"SELECT {_RULING_COLUMNS} FROM rulings WHERE event_id = :e AND player = :p ORDER BY number"
)
_RULINGS_NUMBERED = Statement(
    f"SELECT {_RULING_COLUMNS} FROM rulings WHERE event_id = :e AND number IN (:numbers) ORDER BY number"
)
# A first sieve only (``_`` in a code matches any one character): the caller decides.
_RULINGS_NAMING = Statement(
    f"SELECT {_RULING_COLUMNS} FROM rulings WHERE event_id = :e AND state <> 'voided' "
    "AND (penalties LIKE :pattern OR guideline_penalties LIKE :pattern) ORDER BY number DESC"
)


class RulingRecord(NamedTuple):
    """A ruling as it stands (the rulings projection): penalties as it was last decided."""

    number: int
    entry_seq: int
    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    guideline_penalties: tuple[str, ...]
    effects: tuple[str, ...]
    follow_up: bool
    state: RulingState
    deviation_reason: str | None
    trigger: str
    round: int | None
    table_no: int | None
    judge: str
    recorded_at: str


class _Codes(dict[str, tuple[str, ...]]):
    """Stored code lists parsed once per distinct text (an event repeats a few dozen); looked
    up by subscript, a C-level dict lookup for every text already seen."""

    def __missing__(self, stored: str) -> tuple[str, ...]:
        found = self[stored] = tuple(json.loads(stored))
        return found


_STATES = {s.value: s for s in RulingState}
_new_record = tuple.__new__  # a NamedTuple made without its generated ``__new__`` (a Python call)


def _rulings(rows: Iterable[Sequence[Any]]) -> list[RulingRecord]:
    """The rows as records; an event's 20,000 rulings make 20,000 of these, so each is built
    with C-level steps only (a dict lookup for each code list and for the state)."""
    codes, states = _Codes(), _STATES
    return [
        _new_record(
            RulingRecord,
            (
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                codes[r[5]],
                codes[r[6]],
                codes[r[7]],
                bool(r[8]),
                states[r[9]],
                *r[10:],
            ),
        )
        for r in rows
    ]


def rulings(
    conn: Connection, event_id: int, *, player: str | None = None, numbers: Collection[int] | None = None
) -> list[RulingRecord]:
    """The event's rulings (one player's, or those numbered), in number order, voided ones too."""
    if numbers is not None:
        wanted = sorted(set(numbers))
        found = [
            r
            for c in chunks(wanted)
            for r in _RULINGS_NUMBERED.all(conn, {"e": event_id, "numbers": list(c)})
        ]
        return [r for r in _rulings(found) if player is None or r.player == player]
    if player is not None:
        return _rulings(_RULINGS_OF.all(conn, {"e": event_id, "p": player}))
    return _rulings(_RULINGS.all(conn, {"e": event_id}))


def rulings_naming(conn: Connection, event_id: int, code: str) -> list[RulingRecord]:
    """The rulings that stand (not voided) whose penalties, or the guideline's penalties for
    them, may hold ``code``, newest first; a sieve the caller's own test follows."""
    return _rulings(_RULINGS_NAMING.all(conn, {"e": event_id, "pattern": f'%"{code}"%'}))


_ROUND_STANDING = Statement(
    "SELECT number FROM rulings WHERE event_id = :e AND round = :r AND state <> 'voided' ORDER BY number"
)


def standing_in_round(conn: Connection, event_id: int, round_no: int) -> list[int]:
    """The numbers of the round's rulings that stand (not voided), in order."""
    return [int(n) for n in _ROUND_STANDING.scalars(conn, {"e": event_id, "r": round_no})]


_TALLY = Statement("SELECT number, rule, state, judge, round, recorded_at FROM rulings WHERE event_id = :e")


class RulingTally(NamedTuple):
    """What statistics count of a ruling."""

    number: int
    rule: str
    state: RulingState
    judge: str
    round: int | None
    recorded_at: str


def tallies(conn: Connection, event_id: int) -> list[RulingTally]:
    return [
        RulingTally(n, rule, RulingState(state), judge, round_no, at)
        for n, rule, state, judge, round_no, at in _TALLY.all(conn, {"e": event_id})
    ]


# -- what the ledger says happened to the rulings -------------------------------------------

_ENTRIES_OF_KINDS = Statement(
    "SELECT seq, kind, actor, recorded_at, body FROM entries WHERE event_id = :e AND kind IN (:kinds) ORDER BY seq"
)
_ENTRIES_AT = Statement(
    "SELECT seq, kind, actor, recorded_at, body FROM entries WHERE event_id = :e AND seq IN (:seqs)"
)


class JudgeAct(NamedTuple):
    """A judge's act on rulings after they were recorded, from its ledger entry: a
    confirmation (of ``rulings``), a deviation (of one ruling, to ``penalties``), a void."""

    seq: int
    kind: str  # ruling.confirmed | ruling.deviated | ruling.voided
    judge: str
    at: str
    rulings: tuple[int, ...]
    reason: str = ""
    penalties: tuple[str, ...] = ()
    after: int | None = None  # a void of additional rulings: the ruling whose correction made it (D16)


ACTS = ("ruling.confirmed", "ruling.deviated", "ruling.voided")


def acts_on_rulings(conn: Connection, event_id: int, kinds: Sequence[str] = ACTS) -> list[JudgeAct]:
    """The confirmations, deviations and voids of the event's rulings (or the kinds
    listed), in the ledger's order."""
    out = []
    for seq, kind, actor, at, text in _ENTRIES_OF_KINDS.all(conn, {"e": event_id, "kinds": list(kinds)}):
        match parse(kind, json.loads(text)):
            case RulingDeviated(ruling=ruling, penalties=penalties, reason=reason):
                out.append(JudgeAct(seq, kind, actor, at, (ruling,), reason, penalties))
            case RulingsVoided(rulings=numbers, reason=reason, rederived_after=after):
                out.append(JudgeAct(seq, kind, actor, at, numbers, reason, after=after))
            case RulingsConfirmed(rulings=numbers):
                out.append(JudgeAct(seq, kind, actor, at, numbers))
            case other:
                raise ValueError(f"entry {seq} ({other.kind}) is not an act on rulings")
    return out


def added_after(conn: Connection, event_id: int, entry_seq: int) -> int | None:
    """D16: the ruling whose correction added the rulings of this ``ruling.recorded`` entry
    (None: a judge's record, or a missed deadline's follow-up)."""
    for _seq, kind, _actor, _at, text in _ENTRIES_AT.all(conn, {"e": event_id, "seqs": [entry_seq]}):
        entry = parse(kind, json.loads(text))
        if isinstance(entry, RulingsRecorded):
            return entry.rederived_after
    return None


_ADDITIONAL = Statement(
    "SELECT number, entry_seq FROM rulings WHERE event_id = :e AND \"trigger\" IN ('unrelated_warnings', 'draft_exclusion')"
)


def rederived_by(conn: Connection, event_id: int, number: int) -> tuple[list[int], list[int]]:
    """D16: the additional rulings the correction of ruling ``number`` voided, and those it
    added (both few: additional rulings are)."""
    voided = sorted(
        n for a in acts_on_rulings(conn, event_id, ("ruling.voided",)) if a.after == number for n in a.rulings
    )
    rows = _ADDITIONAL.all(conn, {"e": event_id})
    added = sorted(int(n) for n, seq in rows if added_after(conn, event_id, int(seq)) == number)
    return voided, added


class AsRecorded(NamedTuple):
    """One ruling as its ``ruling.recorded`` entry wrote it (later deviations rewrite the
    rulings projection, never the entry)."""

    penalties: tuple[str, ...]
    deviation_reason: str | None


class RecordedEntry(NamedTuple):
    """A ``ruling.recorded`` entry: the rulings it made, and the deadline it follows up (D7)."""

    seq: int
    rulings: dict[int, AsRecorded]
    follow_up_of: tuple[int, int] | None  # (ruling, position) of the missed deadline


def as_recorded(conn: Connection, event_id: int, seqs: Iterable[int]) -> dict[int, RecordedEntry]:
    """The entries that recorded rulings, by their number in the ledger."""
    found: dict[int, RecordedEntry] = {}
    for chunk in chunks(sorted(set(seqs))):
        for seq, kind, _actor, _at, text in _ENTRIES_AT.all(conn, {"e": event_id, "seqs": list(chunk)}):
            recorded = parse(kind, json.loads(text))
            if not isinstance(recorded, RulingsRecorded):
                continue
            made = {m.number: AsRecorded(m.penalties, m.deviation_reason) for m in recorded.rulings}
            of = recorded.follow_up_of
            found[seq] = RecordedEntry(seq, made, (of.ruling, of.position) if of else None)
    return found


# -- deadlines and matches ------------------------------------------------------------------

_DEADLINE_COLUMNS = (
    "ruling, position, player, due_kind, due_at, round, table_no, remedy_ja, remedy_en, state, closed_at"
)
_DEADLINES_OF = Statement(
    f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE event_id = :e AND ruling IN (:rulings) ORDER BY ruling, position"
)
_MISSED = Statement(
    "SELECT d.ruling, d.position, d.player, d.due_kind, d.due_at, d.round, d.table_no, d.remedy_ja, "
    "d.remedy_en, d.state, d.closed_at, r.rule FROM deadlines d "
    "JOIN rulings r ON r.event_id = d.event_id AND r.number = d.ruling "
    f"WHERE d.event_id = :e AND d.state = '{DeadlineState.missed}' ORDER BY d.closed_at, d.ruling"
)


class Deadline(NamedTuple):
    """A remedy's deadline a ruling opened (D7), as it stands."""

    ruling: int
    position: int
    player: str
    due_kind: str
    due_at: str | None
    round: int | None
    table_no: int | None
    remedy_ja: str
    remedy_en: str
    state: DeadlineState
    closed_at: str | None


class MissedDeadline(NamedTuple):
    deadline: Deadline
    rule: str  # the infraction of the ruling that opened it


def deadlines_of(conn: Connection, event_id: int, rulings: Iterable[int]) -> list[Deadline]:
    """The deadlines these rulings opened, by ruling and position."""
    wanted = sorted(set(rulings))
    return [
        _deadline(r)
        for c in chunks(wanted)
        for r in _DEADLINES_OF.all(conn, {"e": event_id, "rulings": list(c)})
    ]


def missed_deadlines(conn: Connection, event_id: int) -> list[MissedDeadline]:
    """The event's missed deadlines, in the order they were missed."""
    return [MissedDeadline(_deadline(r[:-1]), r[-1]) for r in _MISSED.all(conn, {"e": event_id})]


def _deadline(row: Sequence[Any]) -> Deadline:
    ruling, position, player, due_kind, due_at, round_no, table, ja, en, state, closed_at = row
    return Deadline(
        ruling, position, player, due_kind, due_at, round_no, table, ja, en, DeadlineState(state), closed_at
    )


_OPPONENT = Statement(
    "SELECT player_b FROM matches WHERE event_id = :e AND round = :r AND table_no = :t AND player_a = :p "
    "UNION ALL SELECT player_a FROM matches WHERE event_id = :e AND round = :r AND table_no = :t AND player_b = :p"
)


def opponent_of(conn: Connection, event_id: int, player: str, round_no: int, table: int) -> str | None:
    """The player's opponent at that round's table (None: a bye, or not paired there)."""
    found = _OPPONENT.scalar(conn, {"e": event_id, "r": round_no, "t": table, "p": player})
    return str(found) if found is not None else None
