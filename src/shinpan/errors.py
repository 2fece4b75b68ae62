"""What can go wrong, as one tree; each error knows its HTTP status.

    ShinpanError
    ├── InvalidInput     422  something a person typed or uploaded is wrong (``field`` says where)
    │   ├── engine.RecordError         a record the engine cannot decide (D18, D19)
    │   ├── engine.ScenarioError       a replay scenario that cannot be replayed
    │   ├── engine.clock.ClockError    a time that cannot be a ruling's time at the table (D21)
    │   ├── guideline.GuidelineError   a guideline file that cannot be used
    │   └── csvio.CsvError             a CSV file with problems, every one listed
    ├── NotSignedIn      401  sign in first (web)
    ├── NotFound         404  no such event, player, ruling or deadline
    ├── Forbidden        403  the role may not do this (D11)
    │   ├── web.auth.NotAllowed        the signed-in account's role does not allow it
    │   └── web.auth.CsrfFailed        the form's CSRF token is missing or wrong
    ├── Conflict         409  a command id reused with other content; a state that forbids it
    │   ├── ResultStands             a result stands for the match (T11): ``details`` carries it
    │   └── EventClosed        423  the event is sealed: nothing is recorded until it is reopened
    ├── Refused          422  the guideline or the event's rules refuse it (e.g. D15)
    ├── TooLarge         413  an upload or a request body over its limit: refused whole
    │   ├── csvio.CsvTooLarge
    │   └── web.app.BodyTooLarge
    ├── TooManyAttempts  429  too many failed sign-ins
    │   └── AccountLocked            at one account, from any address: locked until a time
    └── StorageError     503  the database cannot be opened, read or written

The engine's errors also stay ``ValueError`` (what they are to plain Python code).

A message is an English template with named parameters, so the web app can translate the
template (gettext) and then fill it in; ``str(error)`` is the English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def N_(message: str) -> str:
    """Marks a message for the catalogue (scripts/i18n) where it is kept in a name."""
    return message


class ShinpanError(Exception):
    status = 400

    def __init__(self, message: str, *, field: str | None = None, **params: Any) -> None:
        self.template = message
        self.params = params
        self.field = field
        super().__init__(self.render())

    def render(self, translate: Any = None) -> str:
        template = translate(self.template) if translate else self.template
        try:
            return template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return template


class InvalidInput(ShinpanError):
    status = 422


class NotSignedIn(ShinpanError):
    status = 401

    def __init__(self, message: str = "sign in first") -> None:
        super().__init__(message)


class NotFound(ShinpanError):
    status = 404


class Forbidden(ShinpanError):
    status = 403


class Conflict(ShinpanError):
    status = 409


class ResultStands(Conflict):
    """T11: the match has a result the report does not name; ``details`` is that result
    (the JSON API sends it beside ``detail``)."""

    def __init__(
        self, message: str, *, details: Mapping[str, Any], field: str | None = None, **params: Any
    ) -> None:
        self.details = details
        super().__init__(message, field=field, **params)


class EventClosed(Conflict):
    """The event is sealed: it takes no command until the head judge reopens it (423 Locked)."""

    status = 423


class Refused(ShinpanError):
    status = 422


class TooLarge(ShinpanError):
    status = 413


class TooManyAttempts(ShinpanError):
    status = 429

    def __init__(self, message: str = "too many failed sign-ins; wait five minutes") -> None:
        super().__init__(message)


class AccountLocked(TooManyAttempts):
    """Failed sign-ins at one account, from whatever addresses, reached the account's limit:
    it signs in again at ``until`` (a time in the venue's zone, ``HH:MM``), ``minutes`` from now."""

    def __init__(self, until: str, minutes: int) -> None:
        ShinpanError.__init__(
            self,
            "sign-ins failed again and again, so this account cannot sign in until {until} "
            "({minutes} more minutes)",
            until=until,
            minutes=minutes,
        )


class Unstorable(InvalidInput):
    """A value passed every check but the database cannot hold it: a number too large for
    its column, a lone surrogate or a NUL in a text. Nothing was saved."""


class StorageError(ShinpanError):
    status = 503
