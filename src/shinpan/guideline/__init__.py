"""The guideline as data: its schema, its loader and checks, and the shipped REL 3 file.

The names below load with the module that defines them, on first use (see
:mod:`shinpan.engine`): the shipped guideline comes from a cache without the YAML parser.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shinpan.guideline.check import Problem, check_meaning
    from shinpan.guideline.load import (
        GuidelineError,
        default_guideline,
        guideline_schema,
        load_guideline,
        parse_guideline,
    )
    from shinpan.guideline.model import Guideline, Infraction, Step
    from shinpan.guideline.rulebook import Rulebook

_WHERE = {
    "Problem": "check", "check_meaning": "check", "GuidelineError": "load", "default_guideline": "load",
    "guideline_schema": "load", "load_guideline": "load", "parse_guideline": "load", "Guideline": "model",
    "Infraction": "model", "Step": "model", "Rulebook": "rulebook",
}  # fmt: skip

__all__ = [
    "Guideline",
    "GuidelineError",
    "Infraction",
    "Problem",
    "Rulebook",
    "Step",
    "check_meaning",
    "default_guideline",
    "guideline_schema",
    "load_guideline",
    "parse_guideline",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'shinpan.guideline' has no attribute {name!r}")
    return getattr(import_module(f"shinpan.guideline.{module}"), name)
