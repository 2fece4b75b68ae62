"""One transaction lent to code that opens its own: an import replays every command of an
exported event through the live services, each of which asks the database for a write
transaction; here each such write (and read) is the import's one open transaction, so the
whole import is kept or refused whole."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.kept import Kept


class HeldTransaction(Database):
    """A :class:`Database` whose every transaction is ``conn``, already open on ``db``.

    Nothing here commits or rolls back: the transaction's owner does, once. A write asked
    for here takes no lock of its own (the owner holds the one it needs)."""

    def __init__(self, db: Database, conn: Connection) -> None:  # no super().__init__: nothing is opened
        self.url, self.target, self.dialect, self.path = db.url, db.target, db.dialect, db.path
        self.listeners = []
        self.kept = Kept()  # its own caches, as any database's: none is shared with the owner's
        self._conn = conn

    @contextmanager
    def write(self, event_id: int | None = None) -> Iterator[Connection]:
        yield self._conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        yield self._conn

    @contextmanager
    def one_view(self) -> Iterator[Connection]:
        yield self._conn

    def close(self) -> None:
        """The owner closes the database."""

    def migrate(self) -> None:
        """The owner's database is migrated already."""
