"""The pure ruling engine: guideline + history + record → rulings, with explanations.

The names below load with the module that defines them, on first use (as in
:mod:`shinpan.guideline`): every service reads the clock and the event's rules
(:mod:`shinpan.engine.clock`, :mod:`shinpan.engine.event_rules`), and loading them loads
this package first; a command that decides nothing (confirming, listing, verifying) then
starts without the decision path and the guideline's classes.

Three names are also the names of modules: ``decide``, ``explain`` and ``replay``. The
package has always given the function under each, and still does once the module is
loaded: the import system's own ``setattr`` of a loaded submodule is passed over.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shinpan.engine.decide import decide, follow_up
    from shinpan.engine.explain import explain
    from shinpan.engine.facts import RecordError
    from shinpan.engine.replay import ScenarioError, replay
    from shinpan.engine.ruling import Deviation, Due, Explanation, Record, Ruling, Trigger

_WHERE = {
    "RecordError": "facts", "decide": "decide", "follow_up": "decide", "explain": "explain",
    "ScenarioError": "replay", "replay": "replay", "Deviation": "ruling", "Due": "ruling",
    "Explanation": "ruling", "Record": "ruling", "Ruling": "ruling", "Trigger": "ruling",
}  # fmt: skip

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


class _Engine(ModuleType):
    """This package: its names load on first use, and keep the functions ``decide``,
    ``explain`` and ``replay`` over the modules of the same names."""

    def __getattr__(self, name: str) -> Any:
        module = _WHERE.get(name)
        if module is None:
            raise AttributeError(f"module 'shinpan.engine' has no attribute {name!r}")
        value = getattr(import_module(f"shinpan.engine.{module}"), name)
        ModuleType.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _WHERE and isinstance(value, ModuleType):
            return  # a submodule just loaded: the name stays the function's
        ModuleType.__setattr__(self, name, value)


sys.modules[__name__].__class__ = _Engine
