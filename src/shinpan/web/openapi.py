"""What the OpenAPI document says of errors and of the report files, in one place.

Every error of the JSON API has one body (see :func:`shinpan.web.app.install_error_handlers`):
``detail`` in the user's language, ``field`` where one field is at fault, ``errors`` for
the fields a request got wrong (422).
"""

from __future__ import annotations

from typing import Any, NotRequired, get_args, get_origin, get_type_hints

from pydantic import BaseModel, Field
from pydantic._internal._model_construction import ModelMetaclass


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


class _Shaped(ModelMetaclass):
    """Builds a :class:`ShapeOut`'s fields from the ``TypedDict`` named by ``shape=``."""

    def __new__(
        mcs,
        name: str,
        bases: tuple[type, ...],
        namespace: dict[str, Any],
        shape: type | None = None,
        about: dict[str, str] | None = None,
        **kw: Any,
    ) -> type:
        if shape is not None:
            namespace["__annotations__"] = _fields_of(shape, namespace, about or {})
        return super().__new__(mcs, name, bases, namespace, **kw)


def _fields_of(shape: type, namespace: dict[str, Any], about: dict[str, str]) -> dict[str, Any]:
    """The fields of the model of ``shape``, in its order: its types (where the class body
    annotates a key, a nested shape's model, that annotation), a key the shape may leave out
    (``NotRequired``) null when absent, ``about`` a key's description."""
    keys = get_type_hints(shape, include_extras=True)  # NotRequired kept (3.11 reads strings)
    named: dict[str, Any] = namespace.get("__annotations__", {})
    if extra := (set(named) | set(about)) - set(keys):
        raise TypeError(f"{sorted(extra)} not in {shape.__name__}")
    fields: dict[str, Any] = {}
    for key, kind in keys.items():
        optional = get_origin(kind) is NotRequired
        fields[key] = named.get(key, get_args(kind)[0] | None if optional else kind)
        if key in about:
            namespace[key] = (
                Field(None, description=about[key]) if optional else Field(description=about[key])
            )
        elif optional:
            namespace[key] = None
    return fields


class ShapeOut(BaseModel, metaclass=_Shaped):
    """The JSON API's model of a JSON shape a service or a view gives (a ``TypedDict``):
    ``class StandingOut(ShapeOut, shape=StandingJson)`` takes its keys and their types from
    the shape, so the OpenAPI document says what the CLI's ``--json`` says; ``about`` adds
    what only the document says (a field's description)."""


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
