"""The options and arguments the ledger commands share: ``--db``, ``--event``, ``--round``,
``--json``, ``--judge``, ``--command-id``, and whole numbers the database stores."""

from __future__ import annotations

from typing import Annotated, Any

import typer

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database URL or SQLite file (default: SHINPAN_DATABASE_URL or the data directory)."
    ),
]
# The largest id, round, table or ruling number the database holds (PostgreSQL's integer;
# SQLite's is larger). A number option outside 1..DB_INT_MAX is a usage error (exit 2).
DB_INT_MAX = 2**31 - 1


def number_option(*names: str, help: str | None = None, lowest: int = 1) -> Any:
    """A whole-number option the database stores: ``lowest`` to DB_INT_MAX."""
    return typer.Option(*names, help=help, min=lowest, max=DB_INT_MAX)


def number_argument(help: str) -> Any:
    """A whole-number argument the database stores (a ruling number): 1 to DB_INT_MAX."""
    return typer.Argument(help=help, min=1, max=DB_INT_MAX)


EventOption = Annotated[int, number_option("--event", help="The event's id (see `shinpan event list`).")]
OnlyEventOption = Annotated[int | None, number_option("--event", help="Only this event.")]
RoundOption = Annotated[int, number_option("--round")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
JudgeOption = Annotated[
    str | None, typer.Option("--judge", help="Who is acting (a judge of the event; default: the head judge).")
]
CommandOption = Annotated[
    str | None,
    typer.Option("--command-id", help="An id for this command: retrying with it never records twice."),
]
