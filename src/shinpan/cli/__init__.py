"""The ``shinpan`` command: thin Typer commands over the library."""

from __future__ import annotations

import typer

from shinpan.cli import guideline as _guideline
from shinpan.cli import replay as _replay

app = typer.Typer(
    name="shinpan",
    help="審判 shinpan: the penalty system judges run at card-game tournaments.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
_guideline.register(app)
_replay.register(app)


def main() -> None:
    app()
