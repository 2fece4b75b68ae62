"""The ``shinpan`` command.

Each module here holds a few commands as plain functions (their options in the
signature, their help in the docstring) and a ``register(app)`` that lists them on the
Typer app under their names; the function is the command, nothing else wraps it but
:func:`shinpan.cli.common.recording`, which gives a command that records its ``--judge``,
``--command-id``, ``--db`` and ``--json`` as one :class:`~shinpan.cli.common.Acting`.

Every command starts with only what it needs: ``shinpan NAME SUB …`` builds a Typer app
with only that command (:func:`shinpan.cli.commands.build`), each command loads the
services, the database layer and the guideline it calls when it runs, and Rich loads only
for tables and styled text (:mod:`shinpan.cli.output`). ``shinpan replay`` is the one
command scripts run in bulk (conformance, batches of tens of thousands of records): it
starts without Typer at all (:mod:`shinpan.cli.conformance`).

Importing late, the one way it is done in shinpan: a module imports what it uses at its
top, except what would slow a command's start for nothing, which the function that uses it
imports in its first lines, each such line marked ``# start-up`` (with what it keeps out
when that is not plain). In ``shinpan.cli`` that is the library a command calls (services,
store, engine, guideline, reports) and Rich; elsewhere the heavy libraries only one path
needs (the YAML parser, pydantic, a PDF, QR-code or crypto engine, the database drivers).
A package that gives its modules' names loads each on first use, the same way for all
(:func:`shinpan.names_on_first_use`).
``tests/test_layers.py`` finds every import inside a function and fails on one without the
mark; ``tests/test_cli_start.py`` checks what each command loads.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["replay"] and not {"-h", "--help"} & set(args):
        from shinpan.cli.conformance import run_from_args  # start-up

        run_from_args(args[1:])
        return
    from shinpan.cli.commands import COMMANDS, build  # start-up

    command = args[0] if args and args[0] in COMMANDS else None
    build(command, args[1] if command and len(args) > 1 else None)()


def __getattr__(name: str) -> Any:
    if name == "app":
        from shinpan.cli.commands import app  # start-up

        return app
    raise AttributeError(name)
