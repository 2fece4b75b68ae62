"""Typed reads and writes of who may read what beyond one event, and of signed-in sessions:
the installation's organisers, the events an account holds a seat at, and each account's
sessions as its list shows them (browser, address, started, last seen). Run on the driver
(see :class:`Statement`).

Ending a session tells every app process on PostgreSQL (``NOTIFY`` with ``session:HASH``,
delivered at commit), as signing out does (:func:`shinpan.store.accounts.end_session`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from shinpan.store.accounts import SESSION_NOTICE
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import NOTICE

__all__ = [
    "Session",
    "any_account",
    "end_sessions",
    "is_organiser",
    "organisers",
    "seated_accounts",
    "seats_of",
    "session_owner",
    "sessions_of",
    "set_organiser",
    "start_session",
    "touch_sessions",
]

_ANY_ACCOUNT = Statement("SELECT 1 FROM users LIMIT 1")
_IS_ORGANISER = Statement("SELECT organiser FROM users WHERE id = :u")
_ORGANISERS = Statement("SELECT name FROM users WHERE organiser = :yes ORDER BY id")
_SET_ORGANISER = Statement("UPDATE users SET organiser = :on WHERE id = :u")
_SEATS = Statement("SELECT event_id, role FROM judges WHERE account = :uid")
_SEATED = Statement(
    "SELECT users.id, users.name, judges.name, judges.role FROM judges "
    "JOIN users ON users.uid = judges.account WHERE judges.event_id = :e ORDER BY judges.name"
)
_INSERT = Statement(
    "INSERT INTO sessions (id_hash, user_id, expires_at, started_at, last_seen, device, address) "
    "VALUES (:h, :u, :until, :now, :now, :device, :address)"
)
_DROP_EXPIRED = Statement("DELETE FROM sessions WHERE expires_at < :now")
_SESSIONS = Statement(
    "SELECT id_hash, user_id, started_at, last_seen, device, address, expires_at FROM sessions "
    "WHERE user_id IN (:users) AND expires_at > :now"
)
_OWNER = Statement("SELECT user_id FROM sessions WHERE id_hash = :h AND expires_at > :now")
_END = Statement("DELETE FROM sessions WHERE id_hash = :h")
_TOUCH = Statement(
    "UPDATE sessions SET last_seen = :at WHERE id_hash = :h AND (last_seen IS NULL OR last_seen < :at)"
)


class Session(NamedTuple):
    """A signed-in session as its list shows it (times are stamps; None: not known, a
    session older than the list)."""

    id_hash: str
    user_id: int
    started_at: str | None
    last_seen: str | None
    device: str | None
    address: str | None
    expires_at: str


def any_account(conn: Connection) -> bool:
    return _ANY_ACCOUNT.first(conn) is not None


def is_organiser(conn: Connection, user_id: int) -> bool:
    return bool(_IS_ORGANISER.scalar(conn, {"u": user_id}) or False)


def organisers(conn: Connection) -> list[str]:
    """The organisers' names, the first account first."""
    return [str(n) for n in _ORGANISERS.scalars(conn, {"yes": True})]


def set_organiser(conn: Connection, user_id: int, on: bool) -> None:
    _SET_ORGANISER.run(conn, {"u": user_id, "on": on})


def seats_of(conn: Connection, uid: str) -> list[tuple[int, str]]:
    """The events where the account holds a seat, with its role there."""
    return [(int(e), str(r)) for e, r in _SEATS.all(conn, {"uid": uid})]


def seated_accounts(conn: Connection, event_id: int) -> list[tuple[int, str, str, str]]:
    """The accounts holding a seat at the event: (user id, account name, seat, role)."""
    return [(int(u), str(n), str(s), str(r)) for u, n, s, r in _SEATED.all(conn, {"e": event_id})]


def start_session(
    conn: Connection, id_hash: str, user_id: int, until: str, now: str, device: str, address: str
) -> None:
    """A new session with what its list shows; the expired ones go."""
    _DROP_EXPIRED.run(conn, {"now": now})
    _INSERT.run(
        conn,
        {
            "h": id_hash,
            "u": user_id,
            "until": until,
            "now": now,
            "device": device[:200],
            "address": address[:64],
        },
    )


def sessions_of(conn: Connection, user_ids: Sequence[int], now: str) -> list[Session]:
    """The sessions of these accounts that have not ended."""
    if not user_ids:
        return []
    rows = _SESSIONS.all(conn, {"users": list(user_ids), "now": now})
    return [Session(str(r[0]), int(r[1]), r[2], r[3], r[4], r[5], str(r[6])) for r in rows]


def session_owner(conn: Connection, id_hash: str, now: str) -> int | None:
    """The account whose session this is, while it lasts."""
    found = _OWNER.scalar(conn, {"h": id_hash, "now": now})
    return None if found is None else int(found)


def end_sessions(conn: Connection, id_hashes: Iterable[str]) -> None:
    """End sessions; on PostgreSQL every app process hears of each when the transaction commits."""
    for id_hash in id_hashes:
        _END.run(conn, {"h": id_hash})
        if conn.is_postgres:
            NOTICE.run(conn, {"p": SESSION_NOTICE + id_hash})


def touch_sessions(conn: Connection, seen: Iterable[tuple[str, str]]) -> None:
    """When sessions (hash, stamp) were last seen; a later stamp never goes back."""
    _TOUCH.run_many(conn, [{"h": h, "at": at} for h, at in seen])
