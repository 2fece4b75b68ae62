"""Codes and meanings are two types (issue 24): the engine's rules take what a component
does, and only the rulebook turns codes into that. Checked by mypy on a snippet, apart from
the pure tests of tests/test_interpretations_event.py (it runs a process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_codes_where_meanings_are_due_fail_the_type_check(tmp_path: Path) -> None:
    """A component's code and what it does are two types: the engine's rules take what it
    does, and only the rulebook turns codes into that, so the mix-up of issue 24 (the desk
    asking of meanings, the API of codes) no longer passes mypy."""
    snippet = tmp_path / "mixup.py"
    snippet.write_text(
        "from shinpan.engine.event_rules import RulingState, status_once_confirmed\n"
        "from shinpan.guideline import Rulebook\n"
        "from shinpan.files.guidelines import default_guideline\n"
        "book = Rulebook(default_guideline())\n"
        "codes: list[str] = ['warning3', 'disqualification']\n"
        "status_once_confirmed(codes, RulingState.pending)\n"
        "status_once_confirmed(book.acts(codes), RulingState.pending)\n"
    )
    src = Path(__file__).resolve().parents[1] / "src"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--follow-imports=silent",
            str(snippet),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MYPYPATH": str(src)},
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "mixup.py:6:" in errors[0] and "Iterable[Act]" in errors[0], done.stdout
