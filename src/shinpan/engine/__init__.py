"""The pure ruling engine: guideline + history + record → rulings, with explanations.

The names below load with the module that defines them, on first use
(:func:`shinpan.names_on_first_use`): every service reads the clock and the event's rules
(:mod:`shinpan.engine.clock`, :mod:`shinpan.engine.event_rules`), and loading them loads
this package first; a command that decides nothing (confirming, listing, verifying) then
starts without the decision path and the guideline's classes.

Three names are also the names of modules: ``decide``, ``explain`` and ``replay``. The
package gives the function under each, before and after the module is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shinpan import names_on_first_use

if TYPE_CHECKING:
    from shinpan.engine.decide import decide, follow_up
    from shinpan.engine.explain import explain
    from shinpan.engine.facts import RecordError
    from shinpan.engine.replay import ScenarioError, replay
    from shinpan.engine.ruling import Deviation, Due, Explanation, Record, Ruling, Trigger

_WHERE = {
    "RecordError": "facts",
    "decide": "decide",
    "follow_up": "decide",
    "explain": "explain",
    "ScenarioError": "replay",
    "replay": "replay",
    "Deviation": "ruling",
    "Due": "ruling",
    "Explanation": "ruling",
    "Record": "ruling",
    "Ruling": "ruling",
    "Trigger": "ruling",
}

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


names_on_first_use(__name__, _WHERE)
