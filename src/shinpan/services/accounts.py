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
from typing import NamedTuple

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from shinpan.engine.event_rules import Action, Role
from shinpan.engine.participants import check_id_characters, check_name, normalize_id
from shinpan.errors import Conflict, InvalidInput, NotFound
from shinpan.services import events as event_service
from shinpan.services.closed import check_open
from shinpan.services.context import load_event, parse_stamp, require, stamp
from shinpan.store import access as access_store
from shinpan.store import accounts as store
from shinpan.store.connection import Connection
from shinpan.store.db import Database

_HASHER = PasswordHasher()
MIN_SECRET = 6  # a judge's PIN, or a password: six digits or characters at least
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


def _new_sign_in_name(raw: str) -> str:
    """The name a new account signs in with, as compared (:func:`sign_in_name`): needed, and
    a name and an id at once: nothing that reverses it, nothing invisible."""
    name = sign_in_name(raw)
    if not name:
        raise InvalidInput("a name is needed", field="name")
    check_name(name, "name")
    check_id_characters(name, "name")
    return name


def _check_secret(secret: str) -> None:
    if len(secret) < MIN_SECRET:
        raise InvalidInput("a PIN or password needs at least {n} characters", field="password", n=MIN_SECRET)


def add_user(
    db: Database, name: str, secret: str, level: int | None = None, now: datetime | None = None
) -> User:
    name = _new_sign_in_name(name)
    _check_secret(secret)
    with db.write(None) as conn:
        return _insert_user(conn, name, secret, level, now)


def _insert_user(conn: Connection, name: str, secret: str, level: int | None, now: datetime | None) -> User:
    if store.name_taken(conn, name):
        raise Conflict("the name {name} is taken; choose another", field="name", name=name)
    uid = str(uuid.uuid4())
    first = not access_store.any_account(conn)
    user = User(store.add_user(conn, name, _HASHER.hash(secret), level, stamp(now), uid), name, level, uid)
    if first:  # the installation's first account organises it (it names other organisers)
        access_store.set_organiser(conn, user.id, True)
    return user


def _user(row: store.Account) -> User:
    return User(row.id, row.name, row.level, row.uid)


def authenticate(db: Database, name: str, secret: str) -> User | None:
    with db.read() as conn:
        row = store.account_by_name(conn, sign_in_name(name))
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
        row = store.account_by_name(conn, sign_in_name(name))
    return _user(row) if row else None


# -- sessions: a cookie names one; signing out ends it ------------------------------------


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def open_session(db: Database, user: User, now: datetime | None = None) -> str:
    """A new session for the user; the id goes in the signed cookie, its hash in the database."""
    session_id = secrets.token_urlsafe(32)
    moment = now or parse_stamp(stamp())
    until = stamp(moment + timedelta(seconds=SESSION_SECONDS))
    with db.write(None) as conn:
        store.add_session(conn, _digest(session_id), user.id, until, stamp(moment))
    return session_id


def close_session(db: Database, session_id: str) -> None:
    """Sign out: the session's cookie is refused from now on, everywhere (a process that
    keeps sessions in memory hears of it: :func:`session_hash` names it)."""
    with db.write(None) as conn:
        store.end_session(conn, _digest(session_id))


def session_hash(session_id: str) -> str:
    """How the database (and a sign-out's notice) names a session."""
    return _digest(session_id)


@dataclass(frozen=True)
class Membership:
    """The signed-in user, when their session ends, and their role and seat at one event."""

    user: User
    expires_at: str
    role: Role | None
    seat: str | None


def membership(db: Database, user_id: int, session_id: str, event_id: int | None) -> Membership | None:
    """The signed-in user while their session lasts, their role at the event and their
    seat's name, in one read. A seat belongs to an account by uid, never by name."""
    with db.read() as conn:
        found = store.member(conn, user_id, _digest(session_id), stamp(), event_id)
    if found is None:
        return None
    role = Role(found.role) if found.role else None
    return Membership(_user(found.account), found.expires_at, role, found.seat)


def get_user(db: Database, user_id: int, session_id: str) -> User | None:
    """The signed-in user, while their session lasts."""
    found = membership(db, user_id, session_id, None)
    return found.user if found else None


def member(
    db: Database, user_id: int, session_id: str, event_id: int
) -> tuple[User, Role | None, str | None] | None:
    """The signed-in user, their role at the event and their seat's name, in one read."""
    found = membership(db, user_id, session_id, event_id)
    return (found.user, found.role, found.seat) if found else None


def events_of(db: Database, user: User) -> list[tuple[int, Role]]:
    with db.read() as conn:
        return [(e, Role(r)) for e, r in store.roles_of(conn, user.uid)]


# -- failed sign-ins: limits every process shares -------------------------------------------
#
# Three limits, counted in the database before a password is checked (so parallel guesses
# count too): per address and name (``limit`` in ``window``), per address (``per_address``
# in ``window``), and per account whatever the address: after ACCOUNT_LIMIT failures at one
# name within ACCOUNT_MEMORY, the account is locked for ACCOUNT_LOCK after its last failure,
# twice as long for each failure after that, at most ACCOUNT_LOCK_MOST. A right password
# while locked is refused too; once it signs in, its failures are forgotten.

ACCOUNT_LIMIT = 10
ACCOUNT_MEMORY = timedelta(hours=24)
ACCOUNT_LOCK = timedelta(minutes=5)
ACCOUNT_LOCK_MOST = timedelta(hours=1)
_ACCOUNT = "*account*\n"  # an account's key: no address has a star


def account_locked_until(failed: list[datetime]) -> datetime | None:
    """Until when an account with these failed sign-ins (oldest first, within ACCOUNT_MEMORY)
    is locked; None when it is not."""
    if len(failed) < ACCOUNT_LIMIT:
        return None
    doubled: int = min(len(failed) - ACCOUNT_LIMIT, 8)
    lock: timedelta = min(ACCOUNT_LOCK * (1 << doubled), ACCOUNT_LOCK_MOST)
    return failed[-1] + lock


@dataclass(frozen=True)
class SignInRefused:
    """Why a sign-in was refused before its password was checked: ``locked_until`` when the
    account's own limit holds (whatever the address), None for an address's limit."""

    locked_until: datetime | None = None


def _account_locked(conn: Connection, name: str, now: datetime) -> datetime | None:
    failed = store.failed_at(conn, _ACCOUNT + name, stamp(now - ACCOUNT_MEMORY))
    until = account_locked_until([parse_stamp(at) for at in failed])
    return until if until is not None and until > now else None


def attempt_sign_in(
    db: Database,
    address: str,
    name: str,
    *,
    limit: int,
    per_address: int,
    window: float,
    now: datetime | None = None,
) -> SignInRefused | None:
    """Count a sign-in attempt before its password is checked: refused (nothing counted)
    once the name has had ``limit`` failures from this address or the address ``per_address``
    within ``window`` seconds, or while the account is locked (see above)."""
    now = now or parse_stamp(stamp())
    since = stamp(now - timedelta(seconds=window))
    person = sign_in_name(name)
    key, anywhere = f"{address}\n{person}", f"{address}\n"
    with db.write(None) as conn:
        mine, theirs = store.failures(conn, key, anywhere, since, kept=stamp(now - ACCOUNT_MEMORY))
        locked = _account_locked(conn, person, now)
        if locked is not None:
            return SignInRefused(locked)
        if mine >= limit or theirs >= per_address:
            return SignInRefused()
        store.add_failure(conn, key, stamp(now))
        store.add_failure(conn, _ACCOUNT + person, stamp(now))
    return None


def sign_in_succeeded(db: Database, address: str, name: str) -> None:
    """A right password: the name's counted failures, from this address and at the account, are forgotten."""
    person = sign_in_name(name)
    with db.write(None) as conn:
        store.forget_failures(conn, f"{address}\n{person}")
        store.forget_failures(conn, _ACCOUNT + person)


class LockedSeat(NamedTuple):
    """A judge of the event whose account is locked by failed sign-ins, and until when."""

    seat: str
    account: str
    until: datetime


def locked_judges(db: Database, event_id: int, now: datetime | None = None) -> list[LockedSeat]:
    """The event's judges whose accounts are locked now by failed sign-ins (the head judge's
    desk says so: someone may be guessing a judge's password)."""
    now = now or parse_stamp(stamp())
    found = []
    with db.read() as conn:
        for seat, account in store.judge_accounts(conn, event_id):
            until = _account_locked(conn, account, now)
            if until is not None:
                found.append(LockedSeat(seat, account, until))
    return found


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
        require(conn, load_event(conn, event_id), by, Action.invite)
        check_open(conn, event_id)  # a seat is a command: a sealed event takes none
        store.add_invitation(conn, _code_hash(code), event_id, role.value, by, expires)
    return code


def claim_code(db: Database, event_id: int, seat: str, now: datetime | None = None) -> str:
    """A one-time code that gives the seat ``seat`` (made without an account, e.g. on the
    command line) to whoever uses it: shown once, kept only as a hash."""
    code = _new_code()
    expires = stamp((now or parse_stamp(stamp())) + timedelta(hours=CLAIM_HOURS))
    with db.write(event_id) as conn:
        found = store.judge_seat(conn, event_id, seat)
        if found is None:
            raise NotFound("{judge} is not a judge of event {event}", judge=seat, event=event_id)
        role, account = found
        if account is not None:
            raise Conflict("{judge}'s seat is already held by an account", judge=seat)
        store.add_invitation(conn, _code_hash(code), event_id, role, seat, expires, seat=seat)
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
        row = store.invitation(conn, _code_hash(code))
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
        name = _new_sign_in_name(name)
    seat = found.seat or (user.name if user else name)
    with db.write(found.event_id) as conn:
        if found.seat is None:  # a new judge; a claimed seat is the seat's own (a sealed event's too)
            check_open(conn, found.event_id)  # before the code is used: still good after a reopening
        if found.seat is None and store.seat_name_taken(conn, found.event_id, seat):
            raise Conflict("the name {name} is taken; choose another", field="name", name=seat)
        if not store.use_invitation(conn, _code_hash(code), stamp(now), seat):
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
        found = store.setting(conn, "session_secret")
        if found is not None:
            return found
        value = secrets.token_urlsafe(48)
        store.set_setting(conn, "session_secret", value)
        return value
