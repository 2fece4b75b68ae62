"""A guideline file's text made a checked guideline: parse, validate the shape, check the meaning.

Every problem comes back at once as a :class:`Problem` with the file, the path to the field
and what is wrong; nothing here raises anything but :class:`GuidelineError`. The text comes
in as a value: reading files and keeping checked guidelines in the user's cache is
:mod:`shinpan.files.guidelines`'s.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from shinpan.guideline.check import check_meaning
from shinpan.guideline.declared import with_declarations
from shinpan.guideline.model import Guideline
from shinpan.guideline.problems import GuidelineError, Problem


def _parse(text: str, file: str) -> object:
    import yaml  # start-up: only where a YAML file is read (the shipped guideline comes from the cache)

    suffix = PurePath(file).suffix.lower()
    try:
        if suffix == ".json":
            return json.loads(text)
        if suffix == ".toml":
            import tomllib  # start-up: only for a TOML file

            return tomllib.loads(text)
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except RecursionError:
        raise GuidelineError([Problem(file, "", "cannot be read: nested too deeply")]) from None
    except (ValueError, yaml.YAMLError) as e:
        where = getattr(e, "problem_mark", None)
        at = f"line {where.line + 1}" if where is not None else ""
        reason = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise GuidelineError([Problem(file, at, f"cannot be read: {reason}")]) from None


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def parse_guideline(text: str, file: str = "<guideline>") -> Guideline:
    """Turn a guideline file's text into a checked :class:`Guideline`."""
    raw = _parse(text, file)
    if not isinstance(raw, dict):
        raise GuidelineError([Problem(file, "", "a guideline file must be a mapping of fields")])
    from shinpan.guideline import schema  # start-up: pydantic, only where a file is validated

    try:
        guideline = schema.validate(raw)
    except schema.ValidationError as e:
        problems = [Problem(file, _field_path(loc), message) for loc, message in schema.problems_of(e)]
        raise GuidelineError(problems) from None
    guideline = with_declarations(guideline)  # a file written before it could declare (declared.py)
    problems = check_meaning(guideline, file)
    if problems:
        raise GuidelineError(problems)
    return guideline


def schema_document() -> dict[str, Any]:
    """The JSON Schema of a guideline file, as printed for editors and organisers."""
    from shinpan.guideline.schema import json_schema  # start-up: pydantic, only to make it

    schema = json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "shinpan guideline file"
    return schema
