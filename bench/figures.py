"""How a bench hands its figures to ``bench/all``: one line ``BENCH-FIGURES {json}`` on
stdout, after its own report (which stays as it was, for a person reading it)."""

from __future__ import annotations

import json
from typing import Any

MARK = "BENCH-FIGURES "


def emit(**figures: Any) -> None:
    """Print this run's figures for ``bench/all`` (numbers, texts, or dicts of them)."""
    print(MARK + json.dumps(figures, ensure_ascii=False), flush=True)


def parse(output: str) -> dict[str, Any]:
    """The figures a bench printed (merged, if it printed several lines), or {}."""
    found: dict[str, Any] = {}
    for line in output.splitlines():
        if line.startswith(MARK):
            found.update(json.loads(line[len(MARK) :]))
    return found
