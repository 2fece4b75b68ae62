"""Who is asking, and may they: signed session cookies, CSRF tokens, login rate limits.

- The session cookie (HttpOnly, SameSite=Lax) carries the user's id, signed with a key kept
  in the database, so every app process behind one PostgreSQL accepts it.
- Every unsafe request (POST…) carries the CSRF token: the ``csrf_token`` form field or the
  ``X-CSRF-Token`` header, equal to the token in the signed ``shinpan_csrf`` cookie.
- Failed logins are limited per client address and name.
- Roles come from the event's judges (D11); :func:`shinpan.engine.event_rules.may` decides.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass

from fastapi import Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from shinpan.engine.event_rules import Role, may
from shinpan.services import accounts
from shinpan.services.accounts import User
from shinpan.store.db import Database

SESSION_COOKIE = "shinpan_session"
CSRF_COOKIE = "shinpan_csrf"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = 16 * 3600
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class NotSignedIn(Exception):
    """401: sign in first."""


class NotAllowed(Exception):
    """403: signed in, but the role does not allow it. ``message`` is a template."""

    def __init__(self, message: str, **params: str) -> None:
        self.message = message
        self.params = params
        super().__init__(message.format(**params))


class CsrfFailed(Exception):
    """403: the CSRF token is missing or wrong."""


class TooManyAttempts(Exception):
    """429: too many failed logins."""


@dataclass
class Signer:
    serializer: URLSafeTimedSerializer

    @classmethod
    def for_db(cls, db: Database) -> Signer:
        return cls(URLSafeTimedSerializer(accounts.secret_key(db), salt="shinpan"))

    def session(self, user: User) -> str:
        return self.serializer.dumps({"uid": user.id})

    def user_id(self, cookie: str | None) -> int | None:
        if not cookie:
            return None
        try:
            data = self.serializer.loads(cookie, max_age=SESSION_SECONDS)
        except BadSignature:
            return None
        uid = data.get("uid") if isinstance(data, dict) else None
        return uid if isinstance(uid, int) else None

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


def check_csrf(expected: str | None, given: str | None) -> None:
    if not expected or not given or not secrets.compare_digest(expected, given):
        raise CsrfFailed


class LoginLimiter:
    """At most ``limit`` failed logins per (address, name) within ``window`` seconds."""

    def __init__(self, limit: int = 5, window: float = 300.0) -> None:
        self.limit, self.window = limit, window
        self.failures: dict[tuple[str, str], deque[float]] = defaultdict(deque)
        self.lock = threading.Lock()

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        q = self.failures[key]
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def check(self, address: str, name: str) -> None:
        with self.lock:
            if len(self._recent((address, name), time.monotonic())) >= self.limit:
                raise TooManyAttempts

    def failed(self, address: str, name: str) -> None:
        with self.lock:
            self._recent((address, name), time.monotonic()).append(time.monotonic())

    def succeeded(self, address: str, name: str) -> None:
        with self.lock:
            self.failures.pop((address, name), None)


def current_user(request: Request) -> User | None:
    if not hasattr(request.state, "user"):
        signer: Signer = request.app.state.signer
        uid = signer.user_id(request.cookies.get(SESSION_COOKIE))
        db: Database = request.app.state.db
        request.state.user = accounts.get_user(db, uid) if uid is not None else None
    user: User | None = request.state.user
    return user


def signed_in(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise NotSignedIn
    return user


def role_at(request: Request, event_id: int, action: str) -> tuple[User, Role]:
    """The signed-in user's role at the event, once it allows ``action`` (D11)."""
    signer: Signer = request.app.state.signer
    uid = signer.user_id(request.cookies.get(SESSION_COOKIE))
    found = accounts.member(request.app.state.db, uid, event_id) if uid is not None else None
    if found is None:
        raise NotSignedIn
    user, role = found
    request.state.user = user
    if role is None:
        raise NotAllowed("you are not a judge of this event")
    if not may(role, action):
        raise NotAllowed("a {role} may not {action}", role=role.value, action=action)
    return user, role
