"""Validating a guideline file against its schema, with pydantic.

The schema is the classes of :mod:`shinpan.guideline.model`: plain dataclasses whose
annotations name the constraints below (``Code``, ``NonEmpty``…) and pydantic's ``Field`` and
``StringConstraints``. Only this module imports pydantic: the adapter is built here, where
those names are in scope, and a guideline read from the cache never comes this way.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StringConstraints, TypeAdapter, ValidationError  # noqa: F401 (Field: see below)
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import core_schema

from shinpan.guideline.model import Guideline

Code = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
RuleId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$")]
NonEmpty = Annotated[str, StringConstraints(min_length=1)]
Kind = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]*$")]

GUIDELINE: TypeAdapter[Guideline] = TypeAdapter(Guideline)
# The model's annotations are strings naming Field, StringConstraints, Code…: a rebuild at
# module level resolves them among this module's names (the model's module lacks them).
GUIDELINE.rebuild(force=True)

# A dataclass reports an unknown field as an unexpected keyword argument; the file's author
# reads what a pydantic model says of one.
_AUTHORS_WORDS = {"unexpected_keyword_argument": "Extra inputs are not permitted"}

__all__ = ["GUIDELINE", "Code", "Kind", "NonEmpty", "RuleId", "ValidationError", "problems_of", "validate"]


def validate(raw: object) -> Guideline:
    """The checked shape of a parsed guideline file; :class:`ValidationError` if it has none."""
    return GUIDELINE.validate_python(raw)


def problems_of(error: ValidationError) -> list[tuple[tuple[int | str, ...], str]]:
    """Each problem of a failed validation: where (the path to the field) and what."""
    return [(e["loc"], _AUTHORS_WORDS.get(e["type"], e["msg"])) for e in error.errors(include_url=False)]


class _WithEmptyLists(GenerateJsonSchema):
    """A list field's default is an empty list: say so, as the file's author may leave it out."""

    def get_default_value(self, schema: core_schema.WithDefaultSchema) -> Any:
        if schema.get("default_factory") is list:
            return []
        return super().get_default_value(schema)


def json_schema() -> dict[str, Any]:
    return GUIDELINE.json_schema(schema_generator=_WithEmptyLists)
