"""The driver connections a :class:`~shinpan.store.db.Database` keeps, the writes that share
one SQLite commit, and how a driver's failure is told.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from shinpan.errors import StorageError
from shinpan.store.connection import DriverError

BUSY_SECONDS = 30.0  # how long a write waits for the one before it (SQLite's busy timeout too)


def reason(e: BaseException) -> str:
    """The driver's message on one line (libpq's has hints on further lines)."""
    cause = e.orig if isinstance(e, DriverError) else e
    return " ".join(str(cause).split())


def operational(e: BaseException) -> bool:
    """The database could not be reached or was busy, not a statement's fault."""
    cause = e.orig if isinstance(e, DriverError) else e
    return type(cause).__name__ == "OperationalError" or isinstance(cause, ConnectionError)


class Batch:
    """Writes sharing one SQLite transaction, and how its commit went."""

    __slots__ = ("_done", "error", "size")

    def __init__(self) -> None:
        self._done = threading.Event()
        self.error: BaseException | None = None
        self.size = 0

    def finish(self, error: BaseException | None) -> None:
        self.error = error
        self._done.set()

    def wait(self) -> None:
        """Until the batch is committed; its error if the commit failed."""
        if not self._done.wait(BUSY_SECONDS):
            raise StorageError("the database could not be written: the commit did not come")
        if self.error is not None:
            if isinstance(self.error, StorageError):
                raise self.error
            raise StorageError(f"the database could not be written: {reason(self.error)}") from self.error


class Pool:
    """Driver connections kept for reuse, most recently used first (a warm cache), opened
    on demand up to ``limit`` at once; a thread that finds none idle and the limit reached
    waits for one to come back (as SQLAlchemy's pool does). Thread-safe."""

    def __init__(self, opener: Callable[[], Any], limit: int) -> None:
        self._open = opener
        self._limit = limit
        self._idle: list[tuple[Any, float]] = []
        self._count = 0  # open connections, idle or in use
        self._changed = threading.Condition()
        self.hooks: list[Callable[[Any], None]] = []  # run on every new connection

    def take(self) -> tuple[Any, float]:
        """A connection and when it was last given back (0 for a new one)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._idle or self._count < self._limit, BUSY_SECONDS):
                raise StorageError("the database is busy: every connection stayed in use")
            if self._idle:
                return self._idle.pop()
            self._count += 1
        try:
            raw = self._open()
            for hook in self.hooks:
                hook(raw)
        except BaseException:
            self._forget()
            raise
        return raw, 0.0

    def give_back(self, raw: Any) -> None:
        with self._changed:
            self._idle.append((raw, time.monotonic()))
            self._changed.notify()

    def discard(self, raw: Any) -> None:
        with suppress(Exception):  # already broken
            raw.close()
        self._forget()

    def _forget(self) -> None:
        with self._changed:
            self._count -= 1
            self._changed.notify()

    def clear(self) -> None:
        with self._changed:
            idle, self._idle = self._idle, []
        for raw, _ in idle:
            self.discard(raw)
