"""Typed reads and writes of accounts: users, sessions, failed sign-ins, join and claim codes,
the key that signs cookies. Run on the driver (see :class:`Statement`).

Signing out tells every app process on PostgreSQL (``NOTIFY`` with ``session:HASH``,
delivered at commit), so that a process that keeps sessions in memory forgets it at once.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from shinpan.store.connection import Connection, Statement
from shinpan.store.db import NOTICE

__all__ = [
    "SESSION_NOTICE",
    "Account",
    "Invitation",
    "Member",
    "account_by_name",
    "add_failure",
    "add_invitation",
    "add_session",
    "add_user",
    "end_session",
    "failed_at",
    "failures",
    "forget_failures",
    "invitation",
    "judge_accounts",
    "judge_seat",
    "member",
    "name_taken",
    "roles_of",
    "seat_name_taken",
    "set_setting",
    "setting",
    "use_invitation",
]

SESSION_NOTICE = "session:"  # NOTIFY payload prefix: the hash of a session that ended

_USER_COLUMNS = "users.id, users.name, users.level, users.uid, users.password_hash"
_BY_NAME = Statement(f"SELECT {_USER_COLUMNS} FROM users WHERE name = :name")
_NAME_TAKEN = Statement("SELECT 1 FROM users WHERE name = :name")
_INSERT_USER = Statement(
    "INSERT INTO users (name, password_hash, level, created_at, uid) "
    "VALUES (:name, :hash, :level, :at, :uid) RETURNING id"
)
_DROP_EXPIRED = Statement("DELETE FROM sessions WHERE expires_at < :now")
_INSERT_SESSION = Statement("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (:h, :u, :until)")
_END_SESSION = Statement("DELETE FROM sessions WHERE id_hash = :h")
# The signed-in user, when their session ends, and their seat at one event, in one read.
_MEMBER = Statement(
    f"SELECT {_USER_COLUMNS}, sessions.expires_at, judges.role, judges.name FROM users "
    "JOIN sessions ON sessions.id_hash = :h AND sessions.user_id = users.id AND sessions.expires_at > :now "
    "LEFT JOIN judges ON judges.account = users.uid AND judges.event_id = :e "
    "WHERE users.id = :u"
)
_ROLES = Statement("SELECT event_id, role FROM judges WHERE account = :uid")
_JUDGE_ACCOUNTS = Statement(
    "SELECT judges.name, users.name FROM judges JOIN users ON users.uid = judges.account "
    "WHERE judges.event_id = :e ORDER BY judges.name"
)
_DROP_OLD_FAILURES = Statement("DELETE FROM login_failures WHERE at < :since")
_FAILURES_OF_KEY = Statement("SELECT COUNT(*) FROM login_failures WHERE key = :key AND at >= :since")
_FAILURES_FROM = Statement(
    "SELECT COUNT(*) FROM login_failures WHERE key LIKE :prefix ESCAPE '/' AND at >= :since"
)
_FAILED_AT = Statement("SELECT at FROM login_failures WHERE key = :key AND at >= :since ORDER BY at")
_ADD_FAILURE = Statement("INSERT INTO login_failures (key, at) VALUES (:key, :at)")
_FORGET_FAILURES = Statement("DELETE FROM login_failures WHERE key = :key")
_ADD_INVITATION = Statement(
    "INSERT INTO invitations (code_hash, event_id, role, created_by, expires_at, seat) "
    "VALUES (:h, :e, :role, :by, :until, :seat)"
)
_INVITATION = Statement(
    "SELECT event_id, role, created_by, seat, used_at, expires_at FROM invitations WHERE code_hash = :h"
)
_USE_INVITATION = Statement(
    "UPDATE invitations SET used_at = :at, used_by = :by WHERE code_hash = :h AND used_at IS NULL"
)
_SEAT = Statement("SELECT role, account FROM judges WHERE event_id = :e AND name = :name")
_SETTING = Statement("SELECT value FROM app_settings WHERE key = :key")
_SET_SETTING = Statement("INSERT INTO app_settings (key, value) VALUES (:key, :value)")


class Account(NamedTuple):
    id: int
    name: str
    level: int | None
    uid: str
    password_hash: str


class Member(NamedTuple):
    """A signed-in account, when its session ends, and its seat at an event (None: none)."""

    account: Account
    expires_at: str
    role: str | None
    seat: str | None


class Invitation(NamedTuple):
    event_id: int
    role: str
    created_by: str
    seat: str | None
    used_at: str | None
    expires_at: str


def _account(row: Any) -> Account:
    level = row[2]
    return Account(
        int(row[0]), str(row[1]), None if level is None else int(level), str(row[3] or ""), str(row[4])
    )


def account_by_name(conn: Connection, name: str) -> Account | None:
    row = _BY_NAME.first(conn, {"name": name})
    return _account(row) if row is not None else None


def name_taken(conn: Connection, name: str) -> bool:
    return _NAME_TAKEN.first(conn, {"name": name}) is not None


def add_user(conn: Connection, name: str, password_hash: str, level: int | None, at: str, uid: str) -> int:
    """The new user's id."""
    return int(
        _INSERT_USER.scalar(conn, {"name": name, "hash": password_hash, "level": level, "at": at, "uid": uid})
    )


def add_session(conn: Connection, id_hash: str, user_id: int, until: str, now: str) -> None:
    """A new session; the expired ones go."""
    _DROP_EXPIRED.run(conn, {"now": now})
    _INSERT_SESSION.run(conn, {"h": id_hash, "u": user_id, "until": until})


def end_session(conn: Connection, id_hash: str) -> None:
    """Sign out; on PostgreSQL every app process hears of it when the transaction commits."""
    _END_SESSION.run(conn, {"h": id_hash})
    if conn.is_postgres:
        NOTICE.run(conn, {"p": SESSION_NOTICE + id_hash})


def member(conn: Connection, user_id: int, id_hash: str, now: str, event_id: int | None) -> Member | None:
    """The user while the session lasts, with their seat at ``event_id`` (None: no event)."""
    row = _MEMBER.first(conn, {"h": id_hash, "u": user_id, "now": now, "e": event_id})
    if row is None:
        return None
    return Member(_account(row), str(row[5]), row[6], row[7])


def judge_accounts(conn: Connection, event_id: int) -> list[tuple[str, str]]:
    """The event's seats held by an account: (seat, the account's sign-in name)."""
    return [(str(seat), str(name)) for seat, name in _JUDGE_ACCOUNTS.all(conn, {"e": event_id})]


def roles_of(conn: Connection, uid: str) -> list[tuple[int, str]]:
    return [(int(e), str(r)) for e, r in _ROLES.all(conn, {"uid": uid})]


def failures(conn: Connection, key: str, prefix: str, since: str, kept: str | None = None) -> tuple[int, int]:
    """Failed sign-ins since ``since``: of the key, and of every key starting with ``prefix``
    (those older than ``kept``, default ``since``, are forgotten first)."""
    _DROP_OLD_FAILURES.run(conn, {"since": kept or since})
    escaped = prefix.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"
    mine = int(_FAILURES_OF_KEY.scalar(conn, {"key": key, "since": since}) or 0)
    theirs = int(_FAILURES_FROM.scalar(conn, {"prefix": escaped, "since": since}) or 0)
    return mine, theirs


def failed_at(conn: Connection, key: str, since: str) -> list[str]:
    """When the key's sign-ins failed since ``since``, oldest first."""
    return [str(at) for (at,) in _FAILED_AT.all(conn, {"key": key, "since": since})]


def add_failure(conn: Connection, key: str, at: str) -> None:
    _ADD_FAILURE.run(conn, {"key": key, "at": at})


def forget_failures(conn: Connection, key: str) -> None:
    _FORGET_FAILURES.run(conn, {"key": key})


def add_invitation(
    conn: Connection, code_hash: str, event_id: int, role: str, by: str, until: str, seat: str | None = None
) -> None:
    _ADD_INVITATION.run(
        conn, {"h": code_hash, "e": event_id, "role": role, "by": by, "until": until, "seat": seat}
    )


def invitation(conn: Connection, code_hash: str) -> Invitation | None:
    row = _INVITATION.first(conn, {"h": code_hash})
    return Invitation(int(row[0]), *row[1:]) if row is not None else None


def use_invitation(conn: Connection, code_hash: str, at: str, by: str) -> bool:
    """Mark a code used; False if it was used already (or is unknown)."""
    return int(_USE_INVITATION.run(conn, {"h": code_hash, "at": at, "by": by}).rowcount) == 1


def judge_seat(conn: Connection, event_id: int, name: str) -> tuple[str, str | None] | None:
    """The role and the account of the seat ``name`` at the event (None: no such seat)."""
    row = _SEAT.first(conn, {"e": event_id, "name": name})
    return (str(row[0]), row[1]) if row is not None else None


def seat_name_taken(conn: Connection, event_id: int, name: str) -> bool:
    return judge_seat(conn, event_id, name) is not None


def setting(conn: Connection, key: str) -> str | None:
    value = _SETTING.scalar(conn, {"key": key})
    return None if value is None else str(value)


def set_setting(conn: Connection, key: str, value: str) -> None:
    _SET_SETTING.run(conn, {"key": key, "value": value})
