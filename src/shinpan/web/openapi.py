"""What the OpenAPI document says of errors and of the report files, in one place.

Every error of the JSON API has one body (see :func:`shinpan.web.app.install_error_handlers`):
``detail`` in the user's language, ``field`` where one field is at fault, ``errors`` for
the fields a request got wrong (422).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class FieldError(BaseModel):
    field: str
    message: str


class Problem(BaseModel):
    """An error: what went wrong, in the user's language."""

    detail: str
    field: str | None = None
    errors: list[FieldError] | None = None


def _problem(description: str) -> dict[str, Any]:
    return {"model": Problem, "description": description}


ERRORS: dict[int | str, dict[str, Any]] = {
    400: _problem("The body is not JSON (or not the form) the call takes."),
    401: _problem("Not signed in (or the session ended)."),
    403: _problem("The role may not do this, or the CSRF token is missing or wrong."),
    404: _problem("No such event, player, ruling, deadline or appeal."),
    409: _problem("A command id used for something else, or a state that forbids it."),
    413: _problem("The request body is too large."),
    422: _problem("A field is wrong (``errors`` lists them), or the guideline refuses it."),
    429: _problem("Too many failed sign-ins, or too many live streams open."),
    503: _problem("The database cannot be read or written."),
}

LIVE_STREAM: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events: `ready`, then `changed` whenever the event's ledger grows.",
        "content": {"text/event-stream": {}},
    },
}

REPORT_FILES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The report in the format asked for.",
        "content": {
            "application/json": {},
            "text/csv": {"schema": {"type": "string"}},
            "text/html": {"schema": {"type": "string"}},
            "application/pdf": {"schema": {"type": "string", "format": "binary"}},
        },
    },
    **ERRORS,
}
