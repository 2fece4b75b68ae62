"""Typed reads of decklists and deck checks (T13): the event's deck rules and lock, every
version of every list, the deck checks; and the rulings that cite a check. Run on the driver,
in the caller's transaction."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = [
    "CheckRow",
    "ListRow",
    "all_checks",
    "check_at",
    "check_by_seq",
    "checks_of_round",
    "citing_rulings",
    "current_lists",
    "current_lists_of",
    "event_players",
    "list_versions",
    "published_lists",
    "round1_started_at",
    "rules_row",
]


class ListRow(NamedTuple):
    """One version of a player's list."""

    seq: int
    player: str
    version: int
    sections: dict[str, list[list[Any]]]  # {section: [[count, name, line]]}
    problems: list[dict[str, Any]]  # [{line, ja, en}]
    format: str
    source: str
    digest: str
    by_player: bool
    reason: str | None
    submitted_by: str
    submitted_at: str


class CheckRow(NamedTuple):
    """A deck check: its start entry, round, table, players, judge, times, counts, findings."""

    seq: int
    round: int
    table: int
    players: list[str]
    judge: str
    started_at: str
    counts: dict[str, dict[str, list[list[Any]]]]
    ended_at: str | None
    minutes: int | None
    findings: list[dict[str, Any]] | None
    extended: bool | None
    corrected: list[str]


_RULES = Statement("SELECT rules, locked_at FROM deck_rules WHERE event_id = :e")
_ROUND1 = Statement("SELECT started_at FROM rounds WHERE event_id = :e AND number = 1")
_LIST_COLUMNS = (
    "entry_seq, player, version, sections, problems, format, source, digest, by_player, reason, "
    "submitted_by, submitted_at"
)
_LISTS = Statement(f"SELECT {_LIST_COLUMNS} FROM decklists WHERE event_id = :e ORDER BY player, version")
_LISTS_OF = Statement(
    f"SELECT {_LIST_COLUMNS} FROM decklists WHERE event_id = :e AND player IN (:ps) ORDER BY player, version"
)
_VERSIONS = Statement(
    f"SELECT {_LIST_COLUMNS} FROM decklists WHERE event_id = :e AND player = :p ORDER BY version"
)
_PLAYERS = Statement("SELECT number FROM players WHERE event_id = :e ORDER BY number")
_CHECK_COLUMNS = (
    "entry_seq, round, table_no, players, judge, started_at, counts, ended_at, minutes, findings, extended, "
    "corrected"
)
_CHECK = Statement(f"SELECT {_CHECK_COLUMNS} FROM deck_checks WHERE event_id = :e AND entry_seq = :c")
_CHECK_AT = Statement(
    f"SELECT {_CHECK_COLUMNS} FROM deck_checks WHERE event_id = :e AND round = :r AND table_no = :t "
    "ORDER BY entry_seq"
)
_ROUND_CHECKS = Statement(
    f"SELECT {_CHECK_COLUMNS} FROM deck_checks WHERE event_id = :e AND round = :r ORDER BY entry_seq"
)
_ALL_CHECKS = Statement(f"SELECT {_CHECK_COLUMNS} FROM deck_checks WHERE event_id = :e ORDER BY entry_seq")
_PUBLISHED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'decklists.published' ORDER BY seq DESC"
)
_RECORDS = Statement(
    "SELECT seq, body FROM entries WHERE event_id = :e AND kind = 'ruling.recorded' ORDER BY seq"
)
_RULINGS_OF = Statement(
    "SELECT number, player, rule, state FROM rulings WHERE event_id = :e AND entry_seq = :s ORDER BY number"
)


def rules_row(conn: Connection, event_id: int) -> tuple[dict[str, Any], str | None] | None:
    """The deck rules' entry body ({} when only locked) and when the lists were locked by hand."""
    row = _RULES.first(conn, {"e": event_id})
    return (json.loads(row[0]), row[1]) if row is not None else None


def round1_started_at(conn: Connection, event_id: int) -> str | None:
    value = _ROUND1.scalar(conn, {"e": event_id})
    return str(value) if value else None


def _list(row: Any) -> ListRow:
    seq, player, version, sections, problems, fmt, source, digest, by_player, reason, by, at = row
    return ListRow(
        int(seq),
        player,
        int(version),
        json.loads(sections),
        json.loads(problems),
        fmt,
        source,
        digest,
        bool(by_player),
        reason,
        by,
        at,
    )


def current_lists(conn: Connection, event_id: int) -> dict[str, tuple[ListRow, int]]:
    """Each player's latest list and how many versions they have, by player."""
    found: dict[str, tuple[ListRow, int]] = {}
    for row in _LISTS.all(conn, {"e": event_id}):
        one = _list(row)
        found[one.player] = (one, one.version)
    return found


def current_lists_of(conn: Connection, event_id: int, players: list[str]) -> dict[str, tuple[ListRow, int]]:
    """:func:`current_lists` of a few players (a table's)."""
    found: dict[str, tuple[ListRow, int]] = {}
    for row in _LISTS_OF.all(conn, {"e": event_id, "ps": players}):
        one = _list(row)
        found[one.player] = (one, one.version)
    return found


def list_versions(conn: Connection, event_id: int, player: str) -> list[ListRow]:
    return [_list(r) for r in _VERSIONS.all(conn, {"e": event_id, "p": player})]


def event_players(conn: Connection, event_id: int) -> list[str]:
    return [str(n) for n in _PLAYERS.scalars(conn, {"e": event_id})]


def _check(row: Any) -> CheckRow:
    seq, r, t, players, judge, started, counts, ended, minutes, findings, extended, corrected = row
    return CheckRow(
        int(seq),
        int(r),
        int(t),
        json.loads(players),
        judge,
        started,
        json.loads(counts),
        ended,
        None if minutes is None else int(minutes),
        None if findings is None else json.loads(findings),
        None if extended is None else bool(extended),
        json.loads(corrected),
    )


def check_by_seq(conn: Connection, event_id: int, seq: int) -> CheckRow | None:
    row = _CHECK.first(conn, {"e": event_id, "c": seq})
    return _check(row) if row is not None else None


def check_at(conn: Connection, event_id: int, round_no: int, table: int) -> CheckRow | None:
    """The latest check of the table in the round."""
    rows = _CHECK_AT.all(conn, {"e": event_id, "r": round_no, "t": table})
    return _check(rows[-1]) if rows else None


def checks_of_round(conn: Connection, event_id: int, round_no: int) -> list[CheckRow]:
    return [_check(r) for r in _ROUND_CHECKS.all(conn, {"e": event_id, "r": round_no})]


def all_checks(conn: Connection, event_id: int) -> list[CheckRow]:
    return [_check(r) for r in _ALL_CHECKS.all(conn, {"e": event_id})]


def citing_rulings(conn: Connection, event_id: int) -> dict[int, list[tuple[int, str, str, str]]]:
    """The rulings recorded citing each deck check (by the check's entry): number, player,
    rule, state."""
    found: dict[int, list[tuple[int, str, str, str]]] = {}
    for seq, body in _RECORDS.all(conn, {"e": event_id}):
        record = json.loads(body).get("record") or {}
        check = record.get("deck_check")
        if check is None:
            continue
        rows = _RULINGS_OF.all(conn, {"e": event_id, "s": int(seq)})
        found.setdefault(int(check), []).extend((int(n), p, r, s) for n, p, r, s in rows)
    return found


def published_lists(conn: Connection, event_id: int) -> tuple[int, list[str]] | None:
    """The top N whose lists the head judge published last (N, the players in place order)."""
    row = _PUBLISHED.first(conn, {"e": event_id})
    if row is None:
        return None
    body = json.loads(row[0])
    return int(body["top"]), [str(p) for p in body["players"]]
