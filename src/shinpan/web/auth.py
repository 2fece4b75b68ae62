"""Who is asking, and may they: signed session cookies, CSRF tokens, login rate limits.

- The session cookie (HttpOnly, SameSite=Lax) carries the user's id, signed with a key kept
  in the database, so every app process behind one PostgreSQL accepts it.
- Every unsafe request (POST…) carries the CSRF token: the ``csrf_token`` form field or the
  ``X-CSRF-Token`` header, equal to the token in the signed ``shinpan_csrf`` cookie.
- Signing out deletes the session: its cookie is refused from then on.
- Failed sign-ins are limited per client address and name, in the database (every process).
- Roles come from the event's judges (D11); :func:`shinpan.engine.event_rules.may` decides.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from fastapi import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from shinpan.engine.event_rules import Role, may
from shinpan.errors import Forbidden, NotSignedIn, TooManyAttempts
from shinpan.services import accounts
from shinpan.services.accounts import User
from shinpan.store.db import Database

SESSION_COOKIE = "shinpan_session"
CSRF_COOKIE = "shinpan_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = accounts.SESSION_SECONDS  # the database ends a session then too
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class NotAllowed(Forbidden):
    """403: signed in, but the role does not allow it. ``message`` is a template."""

    def __init__(self, message: str, **params: str) -> None:
        super().__init__(message, **params)
        self.message = message


class CsrfFailed(Forbidden):
    """403: the CSRF token is missing or wrong."""

    def __init__(self, message: str = "the form is out of date (CSRF check failed); reload the page") -> None:
        super().__init__(message)


@dataclass
class Signer:
    serializer: URLSafeTimedSerializer

    @classmethod
    def for_db(cls, db: Database) -> Signer:
        return cls(URLSafeTimedSerializer(accounts.secret_key(db), salt="shinpan"))

    def session(self, user: User, session_id: str) -> str:
        return self.serializer.dumps({"uid": user.id, "sid": session_id})

    def session_of(self, cookie: str | None) -> tuple[int, str] | None:
        """The user id and session id a cookie carries (the database says if it still holds)."""
        if not cookie:
            return None
        try:
            data = self.serializer.loads(cookie, max_age=SESSION_SECONDS)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        uid, sid = data.get("uid"), data.get("sid")
        return (uid, sid) if isinstance(uid, int) and isinstance(sid, str) else None

    def csrf_cookie(self, token: str) -> str:
        return self.serializer.dumps({"csrf": token})

    def csrf_token(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            data = self.serializer.loads(cookie)
        except BadSignature:
            return None
        token = data.get("csrf") if isinstance(data, dict) else None
        return token if isinstance(token, str) else None


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)


COOKIE_TOKEN = "csrf_cookie_token"  # the request's scope state: the token its cookie carries


def csrf_expected(request: Request) -> str | None:
    """The CSRF token the request's signed cookie carries (None: no valid cookie), as the
    middleware verified it once for the whole request."""
    state = request.scope.get("state", {})
    if COOKIE_TOKEN in state:
        token: str | None = state[COOKIE_TOKEN]
        return token
    signer: Signer = request.app.state.signer
    return signer.csrf_token(request.cookies.get(CSRF_COOKIE))


def check_csrf(expected: str | None, given: str | None) -> None:
    if not expected or not given or not secrets.compare_digest(expected, given):
        raise CsrfFailed


class LoginLimiter:
    """At most ``limit`` failed sign-ins per (address, name) and ``per_address`` per address
    within ``window`` seconds, counted in the database: every process shares the count, a
    name's variants (spaces, full width) count as the name, and parallel guesses count too."""

    def __init__(self, db: Database, limit: int = 5, per_address: int = 20, window: float = 300.0) -> None:
        self.db, self.limit, self.per_address, self.window = db, limit, per_address, window

    def attempt(self, address: str, name: str) -> None:
        """Before the password is checked: counted now, refused past the limit."""
        if not accounts.attempt_sign_in(
            self.db, address, name, limit=self.limit, per_address=self.per_address, window=self.window
        ):
            raise TooManyAttempts

    def succeeded(self, address: str, name: str) -> None:
        accounts.sign_in_succeeded(self.db, address, name)


def current_user(request: Request) -> User | None:
    if not hasattr(request.state, "user"):
        signer: Signer = request.app.state.signer
        found = signer.session_of(request.cookies.get(SESSION_COOKIE))
        db: Database = request.app.state.db
        request.state.user = accounts.get_user(db, *found) if found is not None else None
    user: User | None = request.state.user
    return user


def signed_in(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise NotSignedIn
    return user


def role_at(request: Request, event_id: int, action: str) -> tuple[User, Role]:
    """The signed-in user's role at the event, once it allows ``action`` (D11). The user comes
    back under the name of their seat at the event (what the ledger records them as)."""
    signer: Signer = request.app.state.signer
    session = signer.session_of(request.cookies.get(SESSION_COOKIE))
    found = accounts.member(request.app.state.db, *session, event_id) if session is not None else None
    if found is None:
        raise NotSignedIn
    user, role, seat = found
    request.state.user = user
    if role is None or seat is None:
        raise NotAllowed("you are not a judge of this event")
    user = replace(user, name=seat)
    if not may(role, action):
        raise NotAllowed("a {role} may not {action}", role=role.value, action=action)
    return user, role
