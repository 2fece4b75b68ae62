"""What the ledger commands share: ``--db``, ``--event``, ``--json``, error handling."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from shinpan.cli.output import fail
from shinpan.errors import ShinpanError

if TYPE_CHECKING:
    from shinpan.store.db import Database

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database URL or SQLite file (default: SHINPAN_DATABASE_URL or the data directory)."
    ),
]
EventOption = Annotated[int, typer.Option("--event", help="The event's id (see `shinpan event list`).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
JudgeOption = Annotated[
    str | None, typer.Option("--judge", help="Who is acting (a judge of the event; default: the head judge).")
]
CommandOption = Annotated[
    str | None,
    typer.Option("--command-id", help="An id for this command: retrying with it never records twice."),
]


@contextmanager
def handled() -> Iterator[None]:
    """Turn shinpan's errors into a one-line message and exit 1."""
    try:
        yield
    except ShinpanError as e:
        where = f" ({e.field})" if e.field else ""
        fail(f"{e}{where}", 1)


def open_db(url: str | None) -> Database:
    from shinpan.store.db import Database  # the database layer loads only for commands that use it

    with handled():
        return Database(url)
    raise AssertionError("unreachable")
