"""The ``shinpan`` command.

``shinpan replay`` is the one command scripts run in bulk (conformance, batches of tens of
thousands of records): it starts without loading the Typer app and the rest of the CLI.
Everything else, and ``replay --help``, goes through the Typer app in :mod:`shinpan.cli.commands`.
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
    from shinpan.cli.commands import app

    app()


def __getattr__(name: str) -> Any:
    if name == "app":
        from shinpan.cli.commands import app

        return app
    raise AttributeError(name)
