"""Who is asking, and may they: signed session cookies, CSRF tokens, login rate limits.

- The session cookie (HttpOnly, SameSite=Lax) carries the user's id, signed with a key kept
  in the database, so every app process behind one PostgreSQL accepts it.
- Every unsafe request (POST…) carries the CSRF token: the ``csrf_token`` form field or the
  ``X-CSRF-Token`` header, equal to the token in the signed ``shinpan_csrf`` cookie.
- Signing out deletes the session: its cookie is refused from then on.
- Failed sign-ins are limited per client address and name, per address, and per account
  whatever the address (locked for a while, with backoff), in the database (every process).
- Roles come from the event's judges (D11); :func:`shinpan.engine.event_rules.may` decides.
  Beyond one event, a player's history: :func:`history_refusal` (organisers read every
  event's, head judges their own events').
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from fastapi import Request, Response
from fastapi.responses import RedirectResponse
from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.concurrency import run_in_threadpool

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.engine.event_rules import Action, HistoryScope, Role, may
from shinpan.errors import AccountLocked, Forbidden, NotSignedIn, TooManyAttempts
from shinpan.services import access, accounts
from shinpan.services.accounts import Membership, User
from shinpan.services.context import parse_stamp, stamp
from shinpan.store.db import Database
from shinpan.store.feed import ledger_head
from shinpan.store.notices import Change, watch_of

SESSION_COOKIE = "shinpan_session"
CSRF_COOKIE = "shinpan_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = accounts.SESSION_SECONDS  # the database ends a session then too
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
SEEN_SECONDS = 30.0  # how late a session's "last seen" may be


class NotAllowed(Forbidden):
    """403: signed in, but the role does not allow it. ``message`` is a template."""

    def __init__(self, message: str, **params: str) -> None:
        super().__init__(message, **params)
        self.message = message


class CsrfFailed(Forbidden):
    """403: the CSRF token is missing or wrong."""

    def __init__(self, message: str = "the form is out of date (CSRF check failed); reload the page") -> None:
        super().__init__(message)


_VERIFIED_MAX = 20_000  # cookies whose signature was checked, kept per process
_ENDED_KEPT = 10_000  # sessions ended lately, kept per process


@dataclass
class Signer:
    """Signs and verifies cookies. A cookie's signature is checked once per process: a
    phone sends the same two cookies with every request (the session's age still counts)."""

    serializer: URLSafeTimedSerializer
    _sessions: dict[str, tuple[int, str, float]] = field(default_factory=dict)
    _tokens: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_db(cls, db: Database) -> Signer:
        return cls(URLSafeTimedSerializer(accounts.secret_key(db), salt="shinpan"))

    def session(self, user: User, session_id: str) -> str:
        return self.serializer.dumps({"uid": user.id, "sid": session_id})

    def session_of(self, cookie: str | None) -> tuple[int, str] | None:
        """The user id and session id a cookie carries (the database says if it still holds)."""
        if not cookie:
            return None
        known = self._sessions.get(cookie)
        if known is None:
            try:
                data, signed = self.serializer.loads(cookie, max_age=SESSION_SECONDS, return_timestamp=True)
            except BadSignature:
                return None
            if not isinstance(data, dict):
                return None
            uid, sid = data.get("uid"), data.get("sid")
            if not (isinstance(uid, int) and isinstance(sid, str)):
                return None
            if len(self._sessions) >= _VERIFIED_MAX:
                self._sessions.clear()
            known = self._sessions[cookie] = (uid, sid, signed.timestamp())
        uid, sid, signed_at = known
        if time.time() - signed_at > SESSION_SECONDS:
            return None
        return uid, sid

    def csrf_cookie(self, token: str, previous: str | None = None) -> str:
        """The CSRF cookie; ``previous``: the token it replaced (at sign-in, sign-out), which
        still goes in the ``X-CSRF-Token`` header of the JSON API, never in a form."""
        return self.serializer.dumps({"csrf": token, "was": previous} if previous else {"csrf": token})

    def csrf_previous(self, cookie: str | None) -> str | None:
        """The token a renewed CSRF cookie replaced (None: it replaced none)."""
        try:
            data = self.serializer.loads(cookie) if cookie else None
        except BadSignature:
            return None
        was = data.get("was") if isinstance(data, dict) else None
        return was if isinstance(was, str) else None

    def csrf_token(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        known = self._tokens.get(cookie)
        if known is not None:
            return known
        try:
            data = self.serializer.loads(cookie)
        except BadSignature:
            return None
        token = data.get("csrf") if isinstance(data, dict) else None
        if not isinstance(token, str):
            return None
        if len(self._tokens) >= _VERIFIED_MAX:
            self._tokens.clear()
        self._tokens[cookie] = token
        return token


_SEAT_KINDS = frozenset({"event.created", "judge.added", "judge.claimed", "judge.seated"})


class Members:
    """Who is signed in and their seat at each event, kept in the web process.

    Trusted only while the ledger's changes are relayed to this process (the live views
    run): a seat is forgotten when its event's ledger gets a judge (``judge.added``,
    ``judge.claimed``, ``judge.seated``) or an unknown change, a session when it is signed out, here (at
    once, before the sign-out answers) or in another process (PostgreSQL's ``NOTIFY``),
    and when it expires. Otherwise every request reads the database, as it did."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.watch = watch_of(db)
        # session hash → the user, when the session ends (as stored, and in seconds: a
        # number is compared at every request, a time would be formatted)
        self.sessions: dict[str, tuple[User, str, float]] = {}
        self.seats: dict[tuple[int, int], tuple[Role | None, str | None]] = {}  # (user, event)
        self.generation: dict[int, int] = {}  # per event: how many times its seats were forgotten
        # When sessions were last seen (for their lists), written at most every SEEN_SECONDS
        self.seen: dict[str, float] = {}  # session hash → last seen here, not written yet
        self.written: dict[str, float] = {}  # session hash → when it was last written
        self.ended: dict[str, None] = {}  # sessions ended lately, oldest first
        self._lock = threading.Lock()
        self.watch.subscribers.append(self._changed)
        self.watch.session_subscribers.append(self.signed_out)

    def _changed(self, change: Change) -> None:
        if change.kinds is not None and change.kinds.isdisjoint(_SEAT_KINDS):
            return
        with self._lock:
            self.generation[change.event_id] = self.generation.get(change.event_id, 0) + 1
            for key in [k for k in self.seats if k[1] == change.event_id]:
                del self.seats[key]

    def signed_out(self, id_hash: str) -> None:
        with self._lock:  # a read that began before the session ended keeps it out of memory
            self.ended[id_hash] = None
            while len(self.ended) > _ENDED_KEPT:
                del self.ended[next(iter(self.ended))]
            self.sessions.pop(id_hash, None)
            self.written.pop(id_hash, None)

    def saw(self, id_hash: str) -> None:
        """A request of the session came (any thread): its list says so within SEEN_SECONDS."""
        now = time.time()
        if now - self.written.get(id_hash, 0.0) >= SEEN_SECONDS:
            self.seen[id_hash] = now

    def flush_seen(self) -> None:
        """Write when the sessions seen lately were last seen, in one transaction."""
        with self._lock:
            pending, self.seen = self.seen, {}
            if len(self.written) >= _VERIFIED_MAX:
                self.written.clear()
            self.written.update(pending)
        access.touch(self.db, [(h, stamp(datetime.fromtimestamp(t, UTC))) for h, t in pending.items()])

    async def keep_seen(self) -> None:
        """While the app serves: what :meth:`saw` heard is written every SEEN_SECONDS."""
        while True:
            await asyncio.sleep(SEEN_SECONDS)
            try:
                await run_in_threadpool(self.flush_seen)
            except Exception:
                logging.getLogger("shinpan.web").exception("writing when sessions were last seen failed")

    def known(self, user_id: int, session_id: str, event_id: int | None) -> Membership | None:
        """The membership from memory only (None: not kept, or not to be trusted now)."""
        if not self.watch.relayed:
            return None
        id_hash = accounts.session_hash(session_id)
        known = self.sessions.get(id_hash)
        if known is None or known[0].id != user_id or known[2] <= time.time():
            return None
        self.saw(id_hash)
        seat = self.seats.get((user_id, event_id)) if event_id is not None else (None, None)
        return Membership(known[0], known[1], *seat) if seat is not None else None

    def member(self, user_id: int, session_id: str, event_id: int | None) -> Membership | None:
        """As :func:`accounts.membership`, from memory when it can be trusted (may read)."""
        if not self.watch.relayed:
            member = accounts.membership(self.db, user_id, session_id, event_id)
            if member is not None:
                self.saw(accounts.session_hash(session_id))
            return member
        kept = self.known(user_id, session_id, event_id)
        if kept is not None:
            return kept
        id_hash = accounts.session_hash(session_id)
        if event_id is not None and event_id not in self.watch.heads:
            with self.db.read() as conn:  # follow the event from now: its judges' changes reach here
                self.watch.follow(event_id, ledger_head(conn, event_id))
        generation = self.generation.get(event_id, 0) if event_id is not None else 0
        found = accounts.membership(self.db, user_id, session_id, event_id)
        if found is None:
            return None
        self.saw(id_hash)
        with self._lock:
            if id_hash in self.ended:  # it ended while it was read: the database answers next time
                return found
            self.sessions[id_hash] = (found.user, found.expires_at, parse_stamp(found.expires_at).timestamp())
            if event_id is not None and self.generation.get(event_id, 0) == generation:
                self.seats[(user_id, event_id)] = (found.role, found.seat)
        return found


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


COOKIE_TOKEN = "csrf_cookie_token"  # the request's scope state: the token its cookie carries
COOKIES = "cookies"  # the request's scope state: its cookies, parsed once (RequestContext)


def csrf_expected(request: Request) -> str | None:
    """The CSRF token the request's signed cookie carries (None: no valid cookie), as the
    middleware verified it once for the whole request."""
    state = request.scope.get("state", {})
    if COOKIE_TOKEN in state:
        token: str | None = state[COOKIE_TOKEN]
        return token
    signer: Signer = request.app.state.signer
    return signer.csrf_token(request.cookies.get(CSRF_COOKIE))


def signed_out(request: Request) -> Response:
    """The answer to a session that has ended here: to the sign-in page, its cookie gone, the
    CSRF token a new one (signing out, or ending one's own session from the list)."""
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    renew_csrf(request, response)
    return response


def renew_csrf(request: Request, response: Response) -> None:
    """A new CSRF token in the response's cookie (at sign-in and sign-out): a form of the
    page before no longer posts (the token it replaced goes on in the API's header only,
    see :func:`check_csrf`)."""
    signer: Signer = request.app.state.signer
    response.set_cookie(
        CSRF_COOKIE,
        signer.csrf_cookie(new_csrf_token(), csrf_expected(request)),
        httponly=True,
        samesite="strict",
        secure=request.app.state.secure_cookies,
    )


def check_csrf(expected: str | None, given: str | None, previous: str | None = None) -> None:
    """The token given must be the cookie's; or, in the JSON API's header only (a browser
    sends no such header to another site without the server's leave, which this one never
    gives), the token the cookie replaced at the last sign-in or sign-out (``previous``):
    a client of the API keeps the token of the sign-in page. A form never posts with it."""
    if expected and given and secrets.compare_digest(expected, given):
        return
    if previous and given and secrets.compare_digest(previous, given):
        return
    raise CsrfFailed


class LoginLimiter:
    """At most ``limit`` failed sign-ins per (address, name) and ``per_address`` per address
    within ``window`` seconds, counted in the database: every process shares the count, a
    name's variants (spaces, full width) count as the name, and parallel guesses count too."""

    def __init__(self, db: Database, limit: int = 5, per_address: int = 20, window: float = 300.0) -> None:
        self.db, self.limit, self.per_address, self.window = db, limit, per_address, window

    def attempt(self, address: str, name: str) -> None:
        """Before the password is checked: counted now, refused past a limit; an account
        locked whatever the address (:data:`shinpan.services.accounts.ACCOUNT_LIMIT`) is told
        until when, in the venue's time."""
        refused = accounts.attempt_sign_in(
            self.db, address, name, limit=self.limit, per_address=self.per_address, window=self.window
        )
        if refused is None:
            return
        if refused.locked_until is None:
            raise TooManyAttempts
        until = refused.locked_until
        left = max(1, math.ceil((until - datetime.now(UTC)).total_seconds() / 60))
        raise AccountLocked(until.astimezone(ZoneInfo(DEFAULT_TIME_ZONE)).strftime("%H:%M"), left)

    def succeeded(self, address: str, name: str) -> None:
        accounts.sign_in_succeeded(self.db, address, name)


def session_id(request: Request) -> str | None:
    """The id of the session the request's cookie carries (not asking whether it still holds)."""
    signer: Signer = request.app.state.signer
    found = signer.session_of(request.cookies.get(SESSION_COOKIE))
    return found[1] if found is not None else None


def session_key(request: Request) -> str | None:
    """How the database and a sign-out's notice name the request's session (its hash)."""
    sid = session_id(request)
    return accounts.session_hash(sid) if sid is not None else None


def current_user(request: Request) -> User | None:
    if not hasattr(request.state, "user"):
        signer: Signer = request.app.state.signer
        found = signer.session_of(request.cookies.get(SESSION_COOKIE))
        members: Members = request.app.state.members
        known = members.member(*found, None) if found is not None else None
        request.state.user = known.user if known is not None else None
    user: User | None = request.state.user
    return user


def signed_in(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise NotSignedIn
    return user


def role_at(request: Request, event_id: int, action: Action) -> tuple[User, Role]:
    """The signed-in user's role at the event, once it allows ``action`` (D11). The user comes
    back under the name of their seat at the event (what the ledger records them as)."""
    signer: Signer = request.app.state.signer
    session = signer.session_of(request.cookies.get(SESSION_COOKIE))
    members: Members = request.app.state.members
    found = members.member(*session, event_id) if session is not None else None
    return _allowed(request, found, action)


def readable(request: Request, event_id: int) -> Database:
    """The database, once the signed-in user may read the event (any role at it, D11)."""
    role_at(request, event_id, Action.read)
    db: Database = request.app.state.db
    return db


async def role_at_async(request: Request, event_id: int, action: Action) -> tuple[User, Role]:
    """:func:`role_at` for an endpoint on the event loop: from memory, or read in a thread."""
    signer: Signer = request.app.state.signer
    session = signer.session_of(request.cookies.get(SESSION_COOKIE))
    members: Members = request.app.state.members
    found = members.known(*session, event_id) if session is not None else None
    if found is None and session is not None:
        found = await run_in_threadpool(members.member, *session, event_id)
    return _allowed(request, found, action)


def refusal(found: Membership | None, action: Action) -> NotSignedIn | NotAllowed | None:
    """Why a membership may not ``action`` at its event (D11), or None: it may. Every way
    in asks here: the routes (:func:`role_at`) and the search's lane (:mod:`shinpan.web.lane`)."""
    if found is None:
        return NotSignedIn()
    if found.role is None or found.seat is None:
        return NotAllowed("you are not a judge of this event")
    if not may(found.role, action):
        return NotAllowed("a {role} may not {action}", role=found.role.value, action=action.value)
    return None


def history_refusal(scope: HistoryScope | None) -> NotSignedIn | NotAllowed | None:
    """Why someone may not read players' histories across events at all, or None: they
    may, within ``scope`` (:func:`shinpan.engine.event_rules.history_scope` says whose
    rulings: an organiser every event's, a head judge their own events')."""
    if scope is None:
        return NotSignedIn()
    if not scope.reads_any:
        return NotAllowed("you may not {action} at any event", action="report")
    return None


def history_reader(request: Request) -> HistoryScope:
    """The signed-in user's scope in a player's history across events, once they may read one."""
    user = current_user(request)
    scope = access.scope_of(request.app.state.db, user) if user is not None else None
    refused = history_refusal(scope)
    if refused is not None:
        raise refused
    assert scope is not None
    return scope


def _allowed(request: Request, found: Membership | None, action: Action) -> tuple[User, Role]:
    if found is not None:
        request.state.user = found.user
    refused = refusal(found, action)
    if refused is not None:
        raise refused
    assert found is not None and found.role is not None and found.seat is not None
    return replace(found.user, name=found.seat), found.role
