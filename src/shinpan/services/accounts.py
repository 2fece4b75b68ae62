"""People who sign in: users with argon2-hashed passwords or PINs, and one-time join codes.

A head judge is created with ``shinpan user add``; they invite judges to an event with a
join code (shown as a QR code): the phone opens the link, the judge picks a name and a
PIN, and is added to the event with the invited role.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, insert, select, update

from shinpan.engine.event_rules import Role
from shinpan.errors import Conflict, InvalidInput, NotFound
from shinpan.services import events as event_service
from shinpan.services.context import load_event, parse_stamp, require, stamp
from shinpan.store.db import Database
from shinpan.store.schema import app_settings, invitations, judges, users

_HASHER = PasswordHasher()
MIN_SECRET = 4
INVITATION_HOURS = 24


@dataclass(frozen=True)
class User:
    id: int
    name: str
    level: int | None


def _check_secret(secret: str) -> None:
    if len(secret) < MIN_SECRET:
        raise InvalidInput("a PIN or password needs at least {n} characters", field="password", n=MIN_SECRET)


def add_user(
    db: Database, name: str, secret: str, level: int | None = None, now: datetime | None = None
) -> User:
    name = name.strip()
    if not name:
        raise InvalidInput("a name is needed", field="name")
    _check_secret(secret)
    with db.write(None) as conn:
        return _insert_user(conn, name, secret, level, now)


def _insert_user(conn: Connection, name: str, secret: str, level: int | None, now: datetime | None) -> User:
    if conn.execute(select(users.c.id).where(users.c.name == name)).first():
        raise Conflict("the name {name} is taken; choose another", field="name", name=name)
    result = conn.execute(
        insert(users).values(
            name=name, password_hash=_HASHER.hash(secret), level=level, created_at=stamp(now)
        )
    )
    return User(int(result.inserted_primary_key[0]), name, level)  # type: ignore[index]


def authenticate(db: Database, name: str, secret: str) -> User | None:
    with db.read() as conn:
        row = conn.execute(select(users).where(users.c.name == name.strip())).first()
    if row is None:
        _HASHER.hash(secret)  # the same work either way: no timing hint that the name exists
        return None
    try:
        _HASHER.verify(row.password_hash, secret)
    except (VerificationError, InvalidHashError):
        return None
    return User(row.id, row.name, row.level)


def get_user(db: Database, user_id: int) -> User | None:
    with db.read() as conn:
        row = conn.execute(select(users).where(users.c.id == user_id)).first()
    return User(row.id, row.name, row.level) if row else None


def member(db: Database, user_id: int, event_id: int) -> tuple[User, Role | None] | None:
    """The user and their role at the event, in one read (every page and API call asks)."""
    with db.read() as conn:
        row = conn.execute(
            select(users.c.id, users.c.name, users.c.level, judges.c.role)
            .select_from(
                users.outerjoin(judges, (judges.c.name == users.c.name) & (judges.c.event_id == event_id))
            )
            .where(users.c.id == user_id)
        ).first()
    if row is None:
        return None
    return User(row.id, row.name, row.level), (Role(row.role) if row.role else None)


def events_of(db: Database, user: User) -> list[tuple[int, Role]]:
    with db.read() as conn:
        rows = conn.execute(select(judges.c.event_id, judges.c.role).where(judges.c.name == user.name)).all()
    return [(r.event_id, Role(r.role)) for r in rows]


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


def invite(db: Database, event_id: int, role: Role, by: str, now: datetime | None = None) -> str:
    """A one-time join code for ``role`` at the event (head judge only)."""
    if role is Role.head_judge:
        raise InvalidInput("an event has one head judge", field="role")
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    code = "".join(secrets.choice(alphabet) for _ in range(10))
    expires = stamp((now or parse_stamp(stamp())) + timedelta(hours=INVITATION_HOURS))
    with db.write(event_id) as conn:
        require(conn, load_event(conn, event_id), by, "invite")
        conn.execute(
            insert(invitations).values(
                code_hash=_code_hash(code),
                event_id=event_id,
                role=role.value,
                created_by=by,
                expires_at=expires,
            )
        )
    return code


def invitation(db: Database, code: str, now: datetime | None = None) -> tuple[int, Role, str]:
    """The event, role and inviter of a usable join code."""
    with db.read() as conn:
        row = conn.execute(select(invitations).where(invitations.c.code_hash == _code_hash(code))).first()
    if row is None or row.used_at is not None or row.expires_at < stamp(now):
        raise NotFound("this join code is unknown, used or expired; ask the head judge for a new one")
    return row.event_id, Role(row.role), row.created_by


def join(db: Database, code: str, name: str, pin: str, now: datetime | None = None) -> User:
    """Use a join code: a new user with this name and PIN, added to the event (one time)."""
    event_id, role, inviter = invitation(db, code, now)
    _check_secret(pin)
    name = name.strip()
    if not name:
        raise InvalidInput("a name is needed", field="name")
    with db.write(event_id) as conn:
        taken = conn.execute(
            select(judges.c.name).where(judges.c.event_id == event_id, judges.c.name == name)
        ).first()
        if taken:
            raise Conflict("the name {name} is taken; choose another", field="name", name=name)
        used = conn.execute(
            update(invitations)
            .where(invitations.c.code_hash == _code_hash(code), invitations.c.used_at.is_(None))
            .values(used_at=stamp(now), used_by=name)
        )
        if used.rowcount != 1:
            raise NotFound("this join code is unknown, used or expired; ask the head judge for a new one")
        user = _insert_user(conn, name, pin, None, now)
    event_service.add_judge(db, event_id, name=name, level=None, role=role, actor=inviter, now=now)
    return user


def secret_key(db: Database) -> str:
    """The key that signs session cookies, made once and shared by every app process."""
    with db.write(None) as conn:
        row = conn.execute(select(app_settings.c.value).where(app_settings.c.key == "session_secret")).first()
        if row is not None:
            return str(row.value)
        value = secrets.token_urlsafe(48)
        conn.execute(insert(app_settings).values(key="session_secret", value=value))
        return value
