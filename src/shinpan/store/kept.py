"""What one database keeps in this process: the one registry of per-database caches.

A cache that answers for one database (the ledger watch, the player index, the players'
views of published events, the published tokens, the desk's shared panels) is kept in that
database's :class:`Kept` (``db.kept``), one of each kind, made on first use: two databases
in one process (tests, an import beside the live one) never share one, and each goes when
its database goes (a cache may hold its database: the two are freed together).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")


class Kept:
    """One database's caches in this process, by their type."""

    def __init__(self) -> None:
        self._found: dict[type[object], object] = {}
        # Reentrant: a cache made here may ask for another (the players' views, the index).
        self._lock = threading.RLock()

    def of(self, kind: type[T], make: Callable[[], T]) -> T:
        """The database's one ``kind``, made by ``make`` the first time it is asked for."""
        with self._lock:
            found = self._found.get(kind)
            if found is None:
                found = self._found[kind] = make()
            return cast("T", found)

    def __contains__(self, kind: type[object]) -> bool:
        return kind in self._found
