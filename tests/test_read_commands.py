"""A read-only command reads: it loads no command module.

``shinpan event list``, ``shinpan standings``, ``shinpan history`` and ``shinpan rules
QUERY`` show what the store holds (through :mod:`shinpan.views` and the store's typed
reads); each runs here in a fresh interpreter, as a judge's terminal does, and the modules
it loaded are looked at. None may be a command module:

- the write side itself (:data:`WRITE_SIDE`): the write door
  (:mod:`shinpan.services.commands`), the ledger's appender (:mod:`shinpan.store.ledger`),
  the projector that applies entries (:mod:`shinpan.store.projector` and its topics), and
  the entries commands write (:mod:`shinpan.entries`);
- every service that imports one of them when it runs (not only for its types): a command
  (:func:`command_modules` finds them by reading the code, and is tested below).

The time itself is bench/cli.py's (and the README's table); what is held here is what makes
it: a read starts with the read side only.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from test_cli_start import PROBE, bare_env, loaded

if TYPE_CHECKING:
    from collections.abc import Iterator

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "shinpan"
WRITE_SIDE = (
    "shinpan.services.commands",
    "shinpan.store.ledger",
    "shinpan.store.projector",
    "shinpan.store.projector_calls",
    "shinpan.store.projector_decks",
    "shinpan.store.projector_rulings",
    "shinpan.entries",  # and each of its modules
)
READ_ONLY = (
    ["event", "list"],
    ["event", "list", "--json"],
    ["standings", "--event", "1"],
    ["standings", "--event", "1", "--round", "1", "--json"],
    ["history", "--event", "1", "--player", "P1"],
    ["history", "--event", "1", "--player", "P1", "--json"],
    ["rules", "slow"],
    ["rules", "遅延", "--json"],
)


def _write_side(name: str) -> bool:
    return any(name == w or name.startswith(w + ".") for w in WRITE_SIDE)


def run_time_imports(code: str, module: str) -> set[str]:
    """Every module ``code`` (the module ``module``) imports when it runs, at its top or in a
    function; not what it imports under ``if TYPE_CHECKING:`` (types only)."""
    package = module.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for other in node.orelse:
                visit(other)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(code))
    return found


@cache
def command_modules() -> frozenset[str]:
    """The write side, and every service that imports it when it runs: the commands."""
    found = set(WRITE_SIDE)
    for path in sorted([*(PACKAGE / "services").glob("*.py"), *(PACKAGE / "files").glob("*.py")]):
        module = f"shinpan.{path.parent.name}.{path.stem}".removesuffix(".__init__")
        if any(_write_side(n) for n in run_time_imports(path.read_text(encoding="utf-8"), module)):
            found.add(module)
    for path in sorted((PACKAGE / "entries").glob("*.py")):
        found.add(f"shinpan.entries.{path.stem}".removesuffix(".__init__"))
    return frozenset(found)


def test_the_detector_finds_the_commands_and_passes_over_the_reads() -> None:
    found = command_modules()
    for command in ("recording", "corrections", "events", "formats", "rounds", "results", "seal"):
        assert f"shinpan.services.{command}" in found, command
    for read in ("context", "queries", "search", "shapes", "public"):
        assert f"shinpan.services.{read}" not in found, read
    assert "shinpan.files.reimport" in found and "shinpan.files.guidelines" not in found
    assert {"shinpan.entries", "shinpan.entries.rulings", "shinpan.store.ledger"} <= found
    code = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from shinpan.entries import RulingsRecorded\n"
        "else:\n"
        "    import json\n"
        "def act():\n"
        "    from .commands import run_command  # start-up\n"
    )
    imported = run_time_imports(code, "shinpan.services.example")
    assert "shinpan.services.commands.run_command" in imported and "json" in imported
    assert not any(name.startswith("shinpan.entries") for name in imported)


def test_no_view_imports_a_command_module() -> None:
    """The read side (:mod:`shinpan.views`) imports no command module, not even late."""
    views = sorted((PACKAGE / "views").glob("*.py"))
    assert len(views) >= 5
    found = {
        path.name: sorted(
            name
            for name in run_time_imports(path.read_text(encoding="utf-8"), f"shinpan.views.{path.stem}")
            if name in command_modules() or _write_side(name)
        )
        for path in views
    }
    assert {name: imported for name, imported in found.items() if imported} == {}


@pytest.fixture(scope="module")
def event_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A SQLite file with event 1: four players, round 1 paired and started, a ruling each;
    the guideline cache beside it is filled."""
    from shinpan.files.csvio import PairingRow, PlayerRow
    from shinpan.services import events, recording, rounds
    from shinpan.store.db import Database

    folder = tmp_path_factory.mktemp("reads")
    loaded(["rules"], folder)  # fills the guideline cache
    db = Database(str(folder / "events.sqlite3"))
    numbers = ["P1", "P2", "P3", "P4"]
    event = events.create_event(db, name="本戦", head_judge="HJ", head_judge_level=2)
    events.import_players(db, event, [PlayerRow(n, f"選手 {n}", "せんしゅ", None) for n in numbers])
    events.import_pairings(db, event, 1, [PairingRow(1, "P1", "P2"), PairingRow(2, "P3", "P4")])
    rounds.start_round(db, event)
    for number in numbers:
        recording.record(db, event, recording.RecordInput(number, "ingame.slow-play"))
    db.close()
    yield folder


def run(args: list[str], folder: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``shinpan ARGS`` (on the event's database unless it reads the guideline alone), and
    every module it loaded."""
    full = args if args[0] == "rules" else [*args, "--db", str(folder / "events.sqlite3")]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(full)],
        capture_output=True,
        text=True,
        env=bare_env(folder),
        timeout=60,
    )
    *_, found = done.stderr.strip().splitlines()
    return done, set(json.loads(found))


@pytest.mark.parametrize("args", READ_ONLY, ids=" ".join)
def test_a_read_only_command_loads_no_command_module(args: list[str], event_db: Path) -> None:
    done, found = run(args, event_db)
    assert done.stdout.strip(), done.stderr  # it did answer
    commands = sorted(found & command_modules())
    assert commands == [], f"shinpan {' '.join(args)} loaded command modules: {commands}"


def test_the_probe_sees_a_command_module_loaded(event_db: Path) -> None:
    """The same look at a command that writes finds the write side (the check can fail)."""
    done, found = run(["confirm", "1", "--event", "1"], event_db)
    assert done.returncode == 0, done.stderr
    assert {"shinpan.services.commands", "shinpan.store.ledger"} <= found & command_modules()
