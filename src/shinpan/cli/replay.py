"""``shinpan replay``: the conformance contract (../shared/conformance/README.md)."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from shinpan.cli.guideline import GuidelineOption
from shinpan.engine.replay import ScenarioError, replay
from shinpan.guideline import GuidelineError, Rulebook, default_guideline, load_guideline


def _error(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(2)


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_command(
        scenario: Annotated[Path, typer.Argument(help="A scenario JSON file ('-' for standard input).")],
        guideline: GuidelineOption = None,
        explain: Annotated[
            bool,
            typer.Option(
                "--explain/--no-explain", help="Add each ruling's explanation, in words a judge reads aloud."
            ),
        ] = False,
    ) -> None:
        """Decide every ruling of a scenario and print {"rulings": [...]} as JSON. Stores nothing."""
        # A batch that makes many small objects and then exits: the cyclic garbage collector
        # would only rescan them (a third of the run, measured); reference counting frees them.
        gc.disable()
        try:
            book = Rulebook(load_guideline(guideline) if guideline else default_guideline())
        except GuidelineError as e:
            _error(
                f"guideline: {e.problems[0]}"
                + (f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else "")
            )
        try:
            text = sys.stdin.read() if str(scenario) == "-" else scenario.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            _error(f"scenario: cannot read {scenario}: {getattr(e, 'strerror', None) or e}")
        try:
            data = json.loads(text)
        except ValueError as e:
            _error(f"scenario: not valid JSON: {e}")
        except RecursionError:
            _error("scenario: not valid JSON: nested too deeply")
        try:
            rulings = replay(book, data, explanations=explain)
        except ScenarioError as e:
            _error(str(e))
        sys.stdout.write(json.dumps({"rulings": rulings}, ensure_ascii=False) + "\n")
