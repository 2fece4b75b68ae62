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
    423: _problem("The event is sealed: nothing is recorded in it until the head judge reopens it."),
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

DB_INT_MAX = 2**31 - 1  # the largest id or number the database holds (PostgreSQL's integer)
MAX_ID_LENGTH = 64  # a player's id (D18)


def _bounded(schema: dict[str, Any]) -> None:
    """An integer parameter's schema says the largest number the database holds."""
    for branch in schema.get("anyOf", [schema]):
        if branch.get("type") == "integer":
            branch.setdefault("minimum", 0)  # none below: ids and numbers count from 1 (or 0)
            branch.setdefault("maximum", DB_INT_MAX)


def with_limits(document: dict[str, Any]) -> dict[str, Any]:
    """The document with what every path and query parameter holds, which FastAPI does not
    write from a bare ``int`` or ``str``: an id or a number is from 0 to DB_INT_MAX (the
    database refuses more), a player's id in a path has 1 to 64 characters (D18). Changed in
    place (once: it is kept), and returned."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                _bounded(schema)
                if (
                    parameter["in"] == "path"
                    and parameter["name"] == "number"
                    and schema.get("type") == "string"
                ):
                    schema.setdefault("minLength", 1)
                    schema.setdefault("maxLength", MAX_ID_LENGTH)
    return document


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
