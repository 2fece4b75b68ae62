"""shinpan (審判): the penalty system judges run at card-game tournaments.

A package that gives the names of its modules (:mod:`shinpan.engine`,
:mod:`shinpan.guideline`, :mod:`shinpan.reports`) loads each with its module on first use,
through :func:`names_on_first_use`: the one way a package imports late, as ``# start-up``
is the one way a function does (see :mod:`shinpan.cli`). ``from shinpan.engine import
decide`` then loads the decision path and no other, and a command that asks only for the
clock loads neither.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import import_module
from types import ModuleType
from typing import Any

__version__ = "0.1.0"


class _NamesOnFirstUse(ModuleType):
    """A package whose names load with the module that defines them, on first use."""

    _where: Mapping[str, str]

    def __getattr__(self, name: str) -> Any:
        module = self._where.get(name)
        if module is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{self.__name__}.{module}"), name)
        ModuleType.__setattr__(self, name, value)  # kept: the next use is a plain lookup
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if (
            name in self._where
            and isinstance(value, ModuleType)
            and value.__name__ == f"{self.__name__}.{name}"
        ):
            return  # the import system naming a submodule just loaded: the name stays the package's
        ModuleType.__setattr__(self, name, value)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self._where})


def names_on_first_use(package: str, where: Mapping[str, str]) -> None:
    """Make ``package`` (a package being imported: pass ``__name__``) give each name of
    ``where`` from its module (``where[name]``, a submodule's name relative to the package),
    loaded when the name is first asked for. A name that is also a submodule's name (the
    engine's ``decide``) stays the name's value once that submodule loads."""
    module = sys.modules[package]
    module._where = dict(where)  # type: ignore[attr-defined]  # before the class that reads it
    module.__class__ = _NamesOnFirstUse
