"""What can go wrong, as one tree; each error knows its HTTP status.

    ShinpanError
    ├── InvalidInput   422  something a person typed or uploaded is wrong (``field`` says where)
    ├── NotFound       404  no such event, player, ruling or deadline
    ├── Forbidden      403  the role may not do this (D11)
    ├── Conflict       409  a command id reused with other content; a state that forbids it
    ├── Refused        422  the guideline or the event's rules refuse it (e.g. D15)
    ├── TooLarge       413  an upload over its limit: refused whole, never cut short
    └── StorageError   503  the database cannot be opened, read or written

A message is an English template with named parameters, so the web app can translate the
template (gettext) and then fill it in; ``str(error)`` is the English text.
"""

from __future__ import annotations

from typing import Any


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


class NotFound(ShinpanError):
    status = 404


class Forbidden(ShinpanError):
    status = 403


class Conflict(ShinpanError):
    status = 409


class Refused(ShinpanError):
    status = 422


class TooLarge(ShinpanError):
    status = 413


class StorageError(ShinpanError):
    status = 503
