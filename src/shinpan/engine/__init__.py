"""The pure ruling engine: guideline + history + record → rulings, with explanations."""

from shinpan.engine.decide import RecordError, decide, follow_up
from shinpan.engine.explain import explain
from shinpan.engine.replay import ScenarioError, replay
from shinpan.engine.ruling import Deviation, Due, Explanation, Record, Ruling, Trigger

__all__ = [
    "Deviation",
    "Due",
    "Explanation",
    "Record",
    "RecordError",
    "Ruling",
    "ScenarioError",
    "Trigger",
    "decide",
    "explain",
    "follow_up",
    "replay",
]
