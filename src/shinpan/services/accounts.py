"""People who sign in: users with argon2-hashed passwords or PINs, sessions, and one-time codes.

Accounts are people, not names: an event's judge seat points at an account by its uid.
A head judge is created with ``shinpan user add``; they invite judges to an event with a
join code (shown as a QR code): the phone opens the link, the judge picks a name and a
PIN, and a new account gets a seat with the invited role. A seat made on the command line
without an account gets a one-time claim code instead. Sign-in names are NFKC-normalized.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update

from shinpan.engine.event_rules import Role
from shinpan.engine.participants import normalize_id
from shinpan.errors import Conflict, InvalidInput, NotFound
from shinpan.services import events as event_service
from shinpan.services.context import load_event, parse_stamp, require, stamp
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.schema import app_settings, invitations, judges, login_failures, sessions, users

_HASHER = PasswordHasher()
MIN_SECRET = 4
INVITATION_HOURS = 24
CLAIM_HOURS = 7 * 24  # a claim code is made before the event, often days before
SESSION_SECONDS = 16 * 3600


@dataclass(frozen=True)
class User:
    id: int
    name: str
    level: int | None
    uid: str = ""  # how the ledger names the account (judges' seats point at it)


def sign_in_name(raw: str) -> str:
    """D18: a sign-in name as every path compares it (NFKC, inner runs of space as one)."""
    return " ".join(normalize_id(raw).split())


def _check_secret(secret: str) -> None:
    if len(secret) < MIN_SECRET:
        raise InvalidInput("a PIN or password needs at least {n} characters", field="password", n=MIN_SECRET)


def add_user(
    db: Database, name: str, secret: str, level: int | None = None, now: datetime | None = None
) -> User:
    name = sign_in_name(name)
    if not name:
        raise InvalidInput("a name is needed", field="name")
    _check_secret(secret)
    with db.write(None) as conn:
        return _insert_user(conn, name, secret, level, now)


def _insert_user(conn: Connection, name: str, secret: str, level: int | None, now: datetime | None) -> User:
    if conn.execute(select(users.c.id).where(users.c.name == name)).first():
        raise Conflict("the name {name} is taken; choose another", field="name", name=name)
    uid = str(uuid.uuid4())
    result = conn.execute(
        insert(users).values(
            name=name, password_hash=_HASHER.hash(secret), level=level, created_at=stamp(now), uid=uid
        )
    )
    return User(int(result.inserted_primary_key[0]), name, level, uid)


def _user(row: Any) -> User:
    return User(row.id, row.name, row.level, row.uid or "")


def authenticate(db: Database, name: str, secret: str) -> User | None:
    with db.read() as conn:
        row = conn.execute(select(users).where(users.c.name == sign_in_name(name))).first()
    if row is None:
        _HASHER.hash(secret)  # the same work either way: no timing hint that the name exists
        return None
    try:
        _HASHER.verify(row.password_hash, secret)
    except (VerificationError, InvalidHashError):
        return None
    return _user(row)


def account_named(db: Database, name: str) -> User | None:
    """The account an administrator names on the command line, if there is one."""
    with db.read() as conn:
        row = conn.execute(select(users).where(users.c.name == sign_in_name(name))).first()
    return _user(row) if row else None


# -- sessions: a cookie names one; signing out ends it ------------------------------------


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def open_session(db: Database, user: User, now: datetime | None = None) -> str:
    """A new session for the user; the id goes in the signed cookie, its hash in the database."""
    session_id = secrets.token_urlsafe(32)
    moment = now or parse_stamp(stamp())
    with db.write(None) as conn:
        conn.execute(delete(sessions).where(sessions.c.expires_at < stamp(moment)))  # the expired go
        conn.execute(
            insert(sessions).values(
                id_hash=_digest(session_id),
                user_id=user.id,
                expires_at=stamp(moment + timedelta(seconds=SESSION_SECONDS)),
            )
        )
    return session_id


def close_session(db: Database, session_id: str) -> None:
    """Sign out: the session's cookie is refused from now on, everywhere."""
    with db.write(None) as conn:
        conn.execute(delete(sessions).where(sessions.c.id_hash == _digest(session_id)))


def _live_session(user_id: int, session_id: str) -> Any:
    return (
        (sessions.c.id_hash == _digest(session_id))
        & (sessions.c.user_id == user_id)
        & (sessions.c.expires_at > stamp())
    )


def get_user(db: Database, user_id: int, session_id: str) -> User | None:
    """The signed-in user, while their session lasts."""
    with db.read() as conn:
        row = conn.execute(
            select(users).select_from(users.join(sessions, _live_session(user_id, session_id)))
            .where(users.c.id == user_id)
        ).first()  # fmt: skip
    return _user(row) if row else None


def member(
    db: Database, user_id: int, session_id: str, event_id: int
) -> tuple[User, Role | None, str | None] | None:
    """The signed-in user, their role at the event and their seat's name, in one read
    (every page and API call asks). A seat belongs to an account by uid, never by name."""
    with db.read() as conn:
        row = conn.execute(
            select(
                users.c.id,
                users.c.name,
                users.c.level,
                users.c.uid,
                judges.c.role,
                judges.c.name.label("seat"),
            )
            .select_from(
                users.join(sessions, _live_session(user_id, session_id)).outerjoin(
                    judges, (judges.c.account == users.c.uid) & (judges.c.event_id == event_id)
                )
            )
            .where(users.c.id == user_id)
        ).first()
    if row is None:
        return None
    return _user(row), (Role(row.role) if row.role else None), row.seat


def events_of(db: Database, user: User) -> list[tuple[int, Role]]:
    with db.read() as conn:
        rows = conn.execute(
            select(judges.c.event_id, judges.c.role).where(judges.c.account == user.uid)
        ).all()
    return [(r.event_id, Role(r.role)) for r in rows]


# -- failed sign-ins: a limit every process shares -----------------------------------------


def attempt_sign_in(
    db: Database, address: str, name: str, *, limit: int, per_address: int, window: float
) -> bool:
    """Count a sign-in attempt before its password is checked: False (refuse it) once the
    name has had ``limit`` failures from this address, or the address ``per_address``,
    within ``window`` seconds. Counting first makes parallel guesses count too."""
    now = parse_stamp(stamp())
    since = stamp(now - timedelta(seconds=window))
    key, anywhere = f"{address}\n{sign_in_name(name)}", f"{address}\n"
    with db.write(None) as conn:
        conn.execute(delete(login_failures).where(login_failures.c.at < since))
        mine = conn.execute(
            select(func.count()).where(login_failures.c.key == key, login_failures.c.at >= since)
        ).scalar()
        theirs = conn.execute(
            select(func.count()).where(login_failures.c.key.startswith(anywhere, autoescape=True))
        ).scalar()
        if (mine or 0) >= limit or (theirs or 0) >= per_address:
            return False
        conn.execute(insert(login_failures).values(key=key, at=stamp(now)))
    return True


def sign_in_succeeded(db: Database, address: str, name: str) -> None:
    """A right password: the name's counted failures from this address are forgotten."""
    with db.write(None) as conn:
        conn.execute(delete(login_failures).where(login_failures.c.key == f"{address}\n{sign_in_name(name)}"))


# -- join and claim codes -------------------------------------------------------------------


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


def _new_code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def invite(db: Database, event_id: int, role: Role, by: str, now: datetime | None = None) -> str:
    """A one-time join code for ``role`` at the event (head judge only)."""
    if role is Role.head_judge:
        raise InvalidInput("an event has one head judge", field="role")
    code = _new_code()
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


def claim_code(db: Database, event_id: int, seat: str, now: datetime | None = None) -> str:
    """A one-time code that gives the seat ``seat`` (made without an account, e.g. on the
    command line) to whoever uses it: shown once, kept only as a hash."""
    code = _new_code()
    expires = stamp((now or parse_stamp(stamp())) + timedelta(hours=CLAIM_HOURS))
    with db.write(event_id) as conn:
        row = conn.execute(
            select(judges.c.role, judges.c.account).where(
                judges.c.event_id == event_id, judges.c.name == seat
            )
        ).first()
        if row is None:
            raise NotFound("{judge} is not a judge of event {event}", judge=seat, event=event_id)
        if row.account is not None:
            raise Conflict("{judge}'s seat is already held by an account", judge=seat)
        conn.execute(
            insert(invitations).values(
                code_hash=_code_hash(code), event_id=event_id, role=row.role, created_by=seat,
                expires_at=expires, seat=seat,
            )
        )  # fmt: skip
    return code


@dataclass(frozen=True)
class Invitation:
    event_id: int
    role: Role
    by: str
    seat: str | None  # a claim code: the seat it gives


def invitation(db: Database, code: str, now: datetime | None = None) -> Invitation:
    """What a usable join or claim code gives."""
    with db.read() as conn:
        row = conn.execute(select(invitations).where(invitations.c.code_hash == _code_hash(code))).first()
    if row is None or row.used_at is not None or row.expires_at < stamp(now):
        raise NotFound("this join code is unknown, used or expired; ask the head judge for a new one")
    return Invitation(row.event_id, Role(row.role), row.created_by, row.seat)


def join(
    db: Database, code: str, name: str, pin: str, now: datetime | None = None, *, user: User | None = None
) -> User:
    """Use a join or claim code (one time). A join code makes a new account (never an
    existing one) and gives it a new seat with the invited role; a claim code gives its
    seat to the signed-in ``user``, or to a new account."""
    found = invitation(db, code, now)
    if user is None:
        _check_secret(pin)
        name = sign_in_name(name)
        if not name:
            raise InvalidInput("a name is needed", field="name")
    seat = found.seat or (user.name if user else name)
    with db.write(found.event_id) as conn:
        if found.seat is None:
            taken = conn.execute(
                select(judges.c.name).where(judges.c.event_id == found.event_id, judges.c.name == seat)
            ).first()
            if taken:
                raise Conflict("the name {name} is taken; choose another", field="name", name=seat)
        used = conn.execute(
            update(invitations)
            .where(invitations.c.code_hash == _code_hash(code), invitations.c.used_at.is_(None))
            .values(used_at=stamp(now), used_by=seat)
        )
        if used.rowcount != 1:
            raise NotFound("this join code is unknown, used or expired; ask the head judge for a new one")
        holder = user or _insert_user(conn, name, pin, None, now)
    if found.seat is not None:
        event_service.claim_seat(db, found.event_id, seat, holder.uid, now=now)
    else:
        event_service.add_judge(
            db,
            found.event_id,
            name=seat,
            level=None,
            role=found.role,
            actor=found.by,
            account=holder.uid,
            now=now,
        )
    return holder


def secret_key(db: Database) -> str:
    """The key that signs session cookies, made once and shared by every app process."""
    with db.write(None) as conn:
        row = conn.execute(select(app_settings.c.value).where(app_settings.c.key == "session_secret")).first()
        if row is not None:
            return str(row.value)
        value = secrets.token_urlsafe(48)
        conn.execute(insert(app_settings).values(key="session_secret", value=value))
        return value
