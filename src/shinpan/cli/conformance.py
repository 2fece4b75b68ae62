"""``shinpan replay``'s work, without Typer: decide every ruling of a scenario and print
them (the conformance contract, ../shared/conformance/README.md).

Scripts run ``shinpan replay`` in bulk, so :func:`shinpan.cli.main` comes here straight,
without building the Typer app; the command as the app shows it is :mod:`shinpan.cli.replay`.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

from shinpan.engine.replay import ScenarioError, replay
from shinpan.files.guidelines import default_guideline, load_guideline
from shinpan.guideline import GuidelineError, Rulebook

SCENARIO_HELP = "A scenario JSON file ('-' for standard input)."
EXPLAIN_HELP = "Add each ruling's explanation, in words a judge reads aloud."
GUIDELINE_HELP = "A guideline file instead of the built-in one."


def _error(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(2)


def run(scenario: Path, guideline: Path | None, explain: bool) -> None:
    """Decide every ruling of a scenario and print {"rulings": [...]} as JSON. Stores nothing."""
    # A batch that makes many small objects and then exits: the cyclic garbage collector
    # would only rescan them (a third of the run, measured); reference counting frees them.
    gc.disable()
    try:
        book = Rulebook(load_guideline(guideline) if guideline else default_guideline())
    except GuidelineError as e:
        more = f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else ""
        _error(f"guideline: {e.problems[0]}{more}")
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
    # (the rulings are fresh dicts and lists, so no cycle to look for: check_circular off)
    out = json.dumps({"rulings": rulings}, ensure_ascii=False, check_circular=False)
    sys.stdout.write(out)
    sys.stdout.write("\n")  # (not out + "\n": a copy of the whole output)


def run_from_args(args: list[str]) -> None:
    """``shinpan replay`` without the Typer app (see :mod:`shinpan.cli`): the same options."""
    import argparse  # start-up

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            _error(f"usage: shinpan replay SCENARIO [--guideline FILE] [--explain]: {message}")

    parser = Parser(prog="shinpan replay", add_help=False)
    parser.add_argument("scenario", type=Path, help=SCENARIO_HELP)
    parser.add_argument("--guideline", type=Path, default=None, help=GUIDELINE_HELP)
    parser.add_argument("--explain", action=argparse.BooleanOptionalAction, default=False, help=EXPLAIN_HELP)
    ns = parser.parse_args(args)
    run(ns.scenario, ns.guideline, ns.explain)
    # Done: a batch leaves nothing to close but its output, so the process ends here, and
    # the operating system takes back its tens of thousands of objects at once instead of
    # the interpreter freeing them one by one.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
