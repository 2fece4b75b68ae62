"""``shinpan replay`` as the Typer app shows it; the work is :mod:`shinpan.cli.conformance`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shinpan.cli.conformance import EXPLAIN_HELP, GUIDELINE_HELP, SCENARIO_HELP, run


def replay_command(
    scenario: Annotated[Path, typer.Argument(help=SCENARIO_HELP)],
    guideline: Annotated[Path | None, typer.Option("--guideline", help=GUIDELINE_HELP)] = None,
    explain: Annotated[bool, typer.Option("--explain/--no-explain", help=EXPLAIN_HELP)] = False,
) -> None:
    """Decide every ruling of a scenario and print {"rulings": [...]} as JSON. Stores nothing."""
    run(scenario, guideline, explain)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
