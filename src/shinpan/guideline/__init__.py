"""The guideline as data: its schema, its parser and checks, and the shipped REL 3 file.

The package takes a file's text and gives a checked :class:`Guideline`; it reads no file
and keeps no cache (that is :mod:`shinpan.files.guidelines`). The names below load
with the module that defines them, on first use (:func:`shinpan.names_on_first_use`), so
that a guideline taken from the cache loads neither the YAML parser nor pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shinpan import names_on_first_use

if TYPE_CHECKING:
    from shinpan.guideline.check import check_meaning
    from shinpan.guideline.load import parse_guideline, schema_document
    from shinpan.guideline.model import Guideline, Infraction, Step
    from shinpan.guideline.problems import GuidelineError, Problem
    from shinpan.guideline.rulebook import Rulebook

_WHERE = {
    "Problem": "problems",
    "check_meaning": "check",
    "GuidelineError": "problems",
    "parse_guideline": "load",
    "schema_document": "load",
    "Guideline": "model",
    "Infraction": "model",
    "Step": "model",
    "Rulebook": "rulebook",
}

__all__ = [
    "Guideline",
    "GuidelineError",
    "Infraction",
    "Problem",
    "Rulebook",
    "Step",
    "check_meaning",
    "parse_guideline",
    "schema_document",
]


names_on_first_use(__name__, _WHERE)
