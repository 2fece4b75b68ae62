"""The ``shinpan`` command.

Every command starts with only what it needs: ``shinpan NAME SUB …`` builds a Typer app
with only that command (:func:`shinpan.cli.commands.build`), each module loads the
services, the database layer and the guideline inside the commands that use them, and
Rich loads only for tables and styled text (:mod:`shinpan.cli.output`). ``shinpan replay``
is the one command scripts run in bulk (conformance, batches of tens of thousands of
records): it starts without Typer at all.
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["replay"] and not {"-h", "--help"} & set(args):
        from shinpan.cli.replay import run_from_args

        run_from_args(args[1:])
        return
    from shinpan.cli.commands import COMMANDS, build

    command = args[0] if args and args[0] in COMMANDS else None
    build(command, args[1] if command and len(args) > 1 else None)()


def __getattr__(name: str) -> Any:
    if name == "app":
        from shinpan.cli.commands import app

        return app
    raise AttributeError(name)
