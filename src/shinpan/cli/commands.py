"""The ``shinpan`` command's Typer app: thin commands over the library.

Each module of :mod:`shinpan.cli` registers its commands on the app; :data:`COMMANDS` says
which module holds each top-level command, so that ``shinpan NAME …`` builds an app with
only that module's commands (Typer reads every command's signature when it builds one,
and a module's imports come with it). ``shinpan``, ``--help`` and an unknown name get the
whole app (``tests/test_cli_start.py`` checks the table against it).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

import typer

MODULES = ("guideline", "replay", "event", "rounds", "rulings", "admin", "database", "report", "serve")
COMMANDS = {
    "rules": "guideline", "guideline": "guideline", "replay": "replay",
    "event": "event", "judge": "event", "players": "event", "pairings": "event", "result": "event",
    "round": "rounds", "standings": "rounds", "record": "rulings", "confirm": "rulings", "void": "rulings", "deviate": "rulings",
    "history": "rulings", "deadlines": "rulings", "verify": "admin", "rebuild": "admin", "export": "admin",
    "import": "admin", "backup": "admin", "db": "database", "report": "report", "serve": "serve",
    "user": "serve",
}  # fmt: skip


def build(command: str | None = None) -> typer.Typer:
    """The app with every command, or with those of the module that holds ``command``."""
    app = typer.Typer(
        name="shinpan",
        help="審判 shinpan: the penalty system judges run at card-game tournaments.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    wanted = COMMANDS.get(command or "")
    if wanted is not None:

        @app.callback()
        def _group() -> None:
            """Keeps ``shinpan NAME`` a command of a group, as in the whole app."""

    for name in MODULES if wanted is None else (wanted,):
        import_module(f"shinpan.cli.{name}").register(app)
    return app


@cache
def whole() -> typer.Typer:
    return build()


def __getattr__(name: str) -> Any:
    if name == "app":  # the whole app, built on first use
        return whole()
    raise AttributeError(name)
