"""Who may read what beyond one event, and the sessions people are signed in with.

- **Organisers.** The first account of an installation organises it; an organiser names
  others (``shinpan user organiser``, or the organisers' page). Only an organiser reads
  other events' rulings in a player's history; anyone else reads those of the events they
  may report at (:func:`shinpan.engine.event_rules.history_scope` decides).
- **Sessions.** A sign-in replaces the browser's previous session; each person sees and
  ends their own sessions, the head judge those of their event's judges. A session that
  ends is told to this process at once (its live streams close, its cache forgets it) and,
  on PostgreSQL, to every other process (``NOTIFY``).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from shinpan.engine.event_rules import HistoryScope, Role, history_scope
from shinpan.errors import Forbidden, NotFound
from shinpan.services.accounts import SESSION_SECONDS, User, account_named, session_hash
from shinpan.services.context import parse_stamp, stamp
from shinpan.store import access as store
from shinpan.store.db import Database
from shinpan.store.notices import watch_of

# -- organisers -----------------------------------------------------------------------------


def is_organiser(db: Database, user: User) -> bool:
    with db.read() as conn:
        return store.is_organiser(conn, user.id)


def organisers(db: Database) -> list[str]:
    with db.read() as conn:
        return store.organisers(conn)


def name_organiser(db: Database, name: str, on: bool = True, *, by: User | None = None) -> User:
    """Make the account ``name`` an organiser (or no longer one). ``by``: the organiser who
    asks on the web (None: the command line, run by whoever runs the installation). The
    last organiser stays one: someone must be able to read every event's history."""
    found = account_named(db, name)
    if found is None:
        raise NotFound("no account named {name}", field="name", name=name)
    with db.write(None) as conn:
        if by is not None and not store.is_organiser(conn, by.id):
            raise Forbidden("only an organiser may name organisers")
        if not on and store.organisers(conn) == [found.name]:
            raise Forbidden("{name} is the only organiser; name another first", name=found.name)
        store.set_organiser(conn, found.id, on)
    return found


def scope_of(db: Database, user: User) -> HistoryScope:
    """Whose rulings ``user`` reads in a player's history across events (one read)."""
    with db.read() as conn:
        organiser = store.is_organiser(conn, user.id)
        seats = [(e, Role(r)) for e, r in store.seats_of(conn, user.uid)]
    return history_scope(seats, organiser=organiser)


# -- sessions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionView:
    """One signed-in session as its list shows it."""

    key: str  # how the list names it (the database's hash of its id, never the id)
    user_id: int
    user_name: str
    device: str  # the browser and system, in a few words ("" when not known)
    address: str
    started_at: str | None
    last_seen: str | None
    current: bool  # the session this list is shown to


def start_session(
    db: Database,
    user: User,
    *,
    device: str = "",
    address: str = "",
    replacing: str | None = None,
    now: datetime | None = None,
) -> str:
    """Sign ``user`` in: a new session (its id goes in the signed cookie, its hash in the
    database); ``replacing``, the browser's previous session, ends in the same transaction."""
    session_id = secrets.token_urlsafe(32)
    moment = now or parse_stamp(stamp())
    until = stamp(moment + timedelta(seconds=SESSION_SECONDS))
    ended = [session_hash(replacing)] if replacing else []
    with db.write(None) as conn:
        store.end_sessions(conn, ended)
        store.start_session(conn, session_hash(session_id), user.id, until, stamp(moment), device, address)
    _tell(db, ended)
    return session_id


def sign_out(db: Database, session_id: str) -> None:
    """End the session: its cookie is refused from now on everywhere, its streams close."""
    ended = [session_hash(session_id)]
    with db.write(None) as conn:
        store.end_sessions(conn, ended)
    _tell(db, ended)


def _tell(db: Database, ended: Iterable[str]) -> None:
    watch = watch_of(db)
    for id_hash in ended:
        watch.signed_out(id_hash)


def own_sessions(db: Database, user: User, current: str | None) -> list[SessionView]:
    """The user's sessions, the one asking (``current``: its id) first, then the newest."""
    mine = session_hash(current) if current else None
    with db.read() as conn:
        found = store.sessions_of(conn, [user.id], stamp())
    return _views(found, {user.id: user.name}, mine)


def end_own_session(db: Database, user: User, key: str) -> None:
    """End one of the user's own sessions (another phone, a browser left signed in)."""
    with db.write(None) as conn:
        if store.session_owner(conn, key, stamp()) != user.id:
            raise NotFound("this session has ended already")
        store.end_sessions(conn, [key])
    _tell(db, [key])


@dataclass(frozen=True)
class JudgeSessions:
    """A judge of the event (an account holding a seat) and their sessions."""

    seat: str
    role: Role
    user_id: int
    sessions: list[SessionView]


def judges_sessions(db: Database, event_id: int, current: str | None) -> list[JudgeSessions]:
    """The sessions of everyone holding a seat at the event (the head judge's page: a
    phone lost at the venue is cut off from here)."""
    mine = session_hash(current) if current else None
    with db.read() as conn:
        seated = store.seated_accounts(conn, event_id)
        found = store.sessions_of(conn, [u for u, _, _, _ in seated], stamp())
    names = {u: n for u, n, _, _ in seated}
    views = _views(found, names, mine)
    return [
        JudgeSessions(seat, Role(role), user_id, [v for v in views if v.user_id == user_id])
        for user_id, _, seat, role in seated
    ]


def end_judge_session(db: Database, event_id: int, key: str) -> None:
    """End a session of someone holding a seat at the event (the caller checked that the
    asker may ``end_sessions`` there)."""
    with db.write(None) as conn:
        owner = store.session_owner(conn, key, stamp())
        if owner is None or owner not in {u for u, _, _, _ in store.seated_accounts(conn, event_id)}:
            raise NotFound("this session has ended already")
        store.end_sessions(conn, [key])
    _tell(db, [key])


def touch(db: Database, seen: Iterable[tuple[str, str]]) -> None:
    """When sessions (hash, stamp) were last seen, in one write."""
    rows = list(seen)
    if rows:
        with db.write(None) as conn:
            store.touch_sessions(conn, rows)


def _views(found: list[store.Session], names: dict[int, str], mine: str | None) -> list[SessionView]:
    views = [
        SessionView(
            s.id_hash,
            s.user_id,
            names.get(s.user_id, ""),
            describe_device(s.device or ""),
            s.address or "",
            s.started_at,
            s.last_seen,
            s.id_hash == mine,
        )
        for s in found
    ]
    current = [v for v in views if v.current]
    others = sorted((v for v in views if not v.current), key=lambda v: v.last_seen or "", reverse=True)
    return current + others


_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "Mac"), ("Macintosh", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
             ("CriOS/", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))  # fmt: skip
_PRINTABLE = re.compile(r"[^\x20-\x7e]")


def describe_device(agent: str) -> str:
    """A browser's User-Agent in a few words ("Chrome · Android"); "" when it says nothing
    known, the first words of it when it names neither."""
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    if system or browser:
        return " · ".join(part for part in (browser, system) if part)
    return _PRINTABLE.sub("", agent)[:40].strip()
