"""The guideline as data: its schema, its loader and checks, and the shipped REL 3 file."""

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
