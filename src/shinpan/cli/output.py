"""How commands speak: Rich tables for people, JSON for scripts, one-line errors."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from rich.console import Console

console = Console()
errors = Console(stderr=True)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error on stderr and exit with ``code``."""
    errors.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise SystemExit(code)
