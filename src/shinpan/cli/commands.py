"""The ``shinpan`` command's Typer app: thin commands over the library.

Each module of :mod:`shinpan.cli` registers its commands on the app; :data:`COMMANDS` says
which module holds each top-level command, so that ``shinpan NAME …`` builds an app with
only that module's commands (a module's imports come with it), and of those only NAME:
Typer reads the signature of every command an app holds when it runs one, a few
milliseconds each. ``shinpan NAME SUB …`` keeps only SUB of the group NAME, when SUB is one
of its commands (not an option, not a typo: those get the whole group, as its help and its
"did you mean" need it). ``shinpan``, ``--help`` and an unknown name get the whole app
(``tests/test_cli_start.py`` checks the table against it).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

import typer

MODULES = ("guideline", "replay", "event", "results", "rounds", "playoff", "rulings", "admin", "database",
           "report", "serve", "calls", "decks", "deckchecks")  # fmt: skip
COMMANDS = {
    "rules": "guideline", "guideline": "guideline", "replay": "replay",
    "event": "event", "judge": "event", "players": "event", "pairings": "event", "result": "results",
    "round": "rounds", "standings": "rounds", "record": "rulings", "confirm": "rulings", "void": "rulings", "deviate": "rulings",
    "history": "rulings", "deadlines": "rulings", "verify": "admin", "rebuild": "admin", "export": "admin",
    "import": "admin", "backup": "admin", "db": "database", "report": "report", "serve": "serve",
    "user": "serve", "playoff": "playoff", "placings": "playoff", "call": "calls",
    "decklist": "decks", "deckcheck": "deckchecks",
}  # fmt: skip


def build(command: str | None = None, sub: str | None = None) -> typer.Typer:
    """The app with every command, or with only ``command`` (and of its group, only ``sub``
    when the group has a command of that name)."""
    app = typer.Typer(
        name="shinpan",
        help="審判 shinpan: カードゲーム大会でジャッジが使うペナルティ管理システム / the penalty system judges run at card-game tournaments.",
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
    if wanted is not None:
        app.registered_commands = [c for c in app.registered_commands if c.name == command]
        app.registered_groups = [g for g in app.registered_groups if g.name == command]
        for group in app.registered_groups:
            inner = group.typer_instance
            if inner is not None and any(c.name == sub for c in inner.registered_commands):
                inner.registered_commands = [c for c in inner.registered_commands if c.name == sub]
                inner.registered_groups = []
    return app


@cache
def whole() -> typer.Typer:
    return build()


def __getattr__(name: str) -> Any:
    if name == "app":  # the whole app, built on first use
        return whole()
    raise AttributeError(name)
