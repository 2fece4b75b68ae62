"""What the entries of decklists and deck checks (T13) mean for their tables; registered with
:func:`shinpan.store.projector.handles` (imported by the projector itself)."""

from __future__ import annotations

import json

from shinpan import entries
from shinpan.entries.decks import sections_body
from shinpan.store.connection import Connection, Statement
from shinpan.store.entry import Entry
from shinpan.store.projector import _j, handles

_SET_RULES = Statement(
    "INSERT INTO deck_rules (event_id, rules, locked_at) VALUES (:e, :rules, NULL) "
    "ON CONFLICT (event_id) DO UPDATE SET rules = excluded.rules"
)
_LOCK = Statement(
    "INSERT INTO deck_rules (event_id, rules, locked_at) VALUES (:e, :rules, :at) "
    "ON CONFLICT (event_id) DO UPDATE SET locked_at = COALESCE(deck_rules.locked_at, excluded.locked_at)"
)
_VERSIONS = Statement("SELECT COUNT(*) FROM decklists WHERE event_id = :e AND player = :p")
_INSERT_LIST = Statement(
    "INSERT INTO decklists (event_id, entry_seq, player, version, sections, problems, format, source, digest, "
    "by_player, reason, submitted_by, submitted_at) VALUES (:e, :seq, :p, :version, :sections, :problems, "
    ":format, :source, :digest, :by_player, :reason, :by, :at)"
)
_INSERT_CHECK = Statement(
    "INSERT INTO deck_checks (event_id, entry_seq, round, table_no, players, judge, started_at, counts, "
    "corrected) VALUES (:e, :seq, :r, :t, :players, :judge, :at, '{}', '[]')"
)
_CHECK = Statement("SELECT counts, corrected FROM deck_checks WHERE event_id = :e AND entry_seq = :c")
_SET_COUNTS = Statement("UPDATE deck_checks SET counts = :counts WHERE event_id = :e AND entry_seq = :c")
_END_CHECK = Statement(
    "UPDATE deck_checks SET ended_at = :at, minutes = :m, findings = :f, extended = :x "
    "WHERE event_id = :e AND entry_seq = :c"
)
_SET_CORRECTED = Statement("UPDATE deck_checks SET corrected = :v WHERE event_id = :e AND entry_seq = :c")


@handles(entries.DeckRulesSet)
def _rules_set(conn: Connection, e: Entry, b: entries.DeckRulesSet) -> None:
    _SET_RULES.run(conn, {"e": e.event_id, "rules": _j(b.body())})


@handles(entries.DecklistsLocked)
def _locked(conn: Connection, e: Entry, b: entries.DecklistsLocked) -> None:
    """The lock by hand; an event without deck rules keeps the default ones."""
    _LOCK.run(conn, {"e": e.event_id, "rules": "{}", "at": e.recorded_at})


def _insert_list(
    conn: Connection, e: Entry, b: entries.DecklistRegistered | entries.DecklistCorrected, reason: str | None
) -> None:
    versions = _VERSIONS.scalar(conn, {"e": e.event_id, "p": b.player})
    _INSERT_LIST.run(
        conn,
        {
            "e": e.event_id,
            "seq": e.seq,
            "p": b.player,
            "version": int(versions or 0) + 1,
            "sections": _j(sections_body(b.sections)),
            "problems": _j([p.body() for p in b.problems]),
            "format": b.format,
            "source": b.source,
            "digest": b.digest,
            "by_player": isinstance(b, entries.DecklistRegistered) and b.by_player,
            "reason": reason,
            "by": e.actor,
            "at": e.recorded_at,
        },
    )


@handles(entries.DecklistRegistered)
def _registered(conn: Connection, e: Entry, b: entries.DecklistRegistered) -> None:
    _insert_list(conn, e, b, None)


@handles(entries.DecklistCorrected)
def _list_corrected(conn: Connection, e: Entry, b: entries.DecklistCorrected) -> None:
    _insert_list(conn, e, b, b.reason)


@handles(entries.DeckCheckStarted)
def _check_started(conn: Connection, e: Entry, b: entries.DeckCheckStarted) -> None:
    _INSERT_CHECK.run(
        conn,
        {
            "e": e.event_id,
            "seq": e.seq,
            "r": b.round,
            "t": b.table,
            "players": _j(list(b.players)),
            "judge": e.actor,
            "at": e.recorded_at,
        },
    )


@handles(entries.DeckCheckCounted)
def _counted(conn: Connection, e: Entry, b: entries.DeckCheckCounted) -> None:
    rows = _CHECK.all(conn, {"e": e.event_id, "c": b.check})
    counts = json.loads(rows[0][0]) if rows else {}
    counts[b.player] = sections_body(b.sections)
    _SET_COUNTS.run(conn, {"e": e.event_id, "c": b.check, "counts": _j(counts)})


@handles(entries.DeckCheckEnded)
def _check_ended(conn: Connection, e: Entry, b: entries.DeckCheckEnded) -> None:
    _END_CHECK.run(
        conn,
        {
            "e": e.event_id,
            "c": b.check,
            "at": e.recorded_at,
            "m": b.minutes,
            "f": _j([x.body() for x in b.findings]),
            "x": b.extended,
        },
    )


@handles(entries.DeckCorrected)
def _deck_corrected(conn: Connection, e: Entry, b: entries.DeckCorrected) -> None:
    rows = _CHECK.all(conn, {"e": e.event_id, "c": b.check})
    corrected = json.loads(rows[0][1]) if rows else []
    if b.player not in corrected:
        corrected.append(b.player)
    _SET_CORRECTED.run(conn, {"e": e.event_id, "c": b.check, "v": _j(corrected)})


@handles(entries.DecklistsPublished)
def _published(conn: Connection, e: Entry, b: entries.DecklistsPublished) -> None:
    """Nothing to project: the players' pages read it from its entry (:func:`shinpan.store.decks.published_lists`)."""
