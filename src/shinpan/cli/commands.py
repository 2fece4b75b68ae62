"""The ``shinpan`` command's Typer app: thin commands over the library."""

from __future__ import annotations

import typer

from shinpan.cli import admin as _admin
from shinpan.cli import database as _database
from shinpan.cli import event as _event
from shinpan.cli import guideline as _guideline
from shinpan.cli import replay as _replay
from shinpan.cli import report as _report
from shinpan.cli import rounds as _rounds
from shinpan.cli import rulings as _rulings
from shinpan.cli import serve as _serve

app = typer.Typer(
    name="shinpan",
    help="審判 shinpan: the penalty system judges run at card-game tournaments.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
_guideline.register(app)
_replay.register(app)
_event.register(app)
_rounds.register(app)
_rulings.register(app)
_admin.register(app)
_database.register(app)
_report.register(app)
_serve.register(app)
