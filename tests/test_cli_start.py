"""A command starts with only what it needs (the time itself is bench/cli.py's).

Each case runs the command in a fresh interpreter, as a judge's terminal does, and looks at
the modules it loaded: reading the guideline loads no web framework, no database layer and
no PDF engine, and the shipped guideline comes from the cache without the YAML parser;
``shinpan replay`` loads no pydantic (the guideline's classes are plain dataclasses), and
neither validates the guideline again (no YAML parser, no schema).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shinpan.cli.commands import COMMANDS, MODULES, build
from support import VENV_BIN

HEAVY = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "weasyprint",
    "jinja2",
    "argon2",
)
PROBE = """
import json, os, sys
def _exit(code):
    raise SystemExit(code)
os._exit = _exit  # `shinpan replay` ends with os._exit: the probe reports first
sys.argv = ["shinpan", *json.loads(sys.argv[1])]
from shinpan.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print("\\n" + json.dumps(sorted(sys.modules)), file=sys.stderr)
"""
# The engine's decision path: what deciding a ruling loads, beyond its clock and event rules.
DECIDING = {
    "shinpan.engine.decide",
    "shinpan.engine.explain",
    "shinpan.engine.replay",
    "shinpan.engine.corrections",
}


def modules(args: list[str], cache: Path) -> set[str]:
    """Every module ``shinpan ARGS`` loaded."""
    env = {"SHINPAN_CACHE": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True, env=env, timeout=60
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def loaded(args: list[str], cache: Path) -> set[str]:
    """The top-level packages ``shinpan ARGS`` loaded."""
    return {m.split(".")[0] for m in modules(args, cache)}


@pytest.mark.parametrize(
    "args",
    [["rules"], ["rules", "show", "ingame.slow-play"], ["--help"], ["replay", "--help"], ["event", "--help"]],
)
def test_reading_the_guideline_loads_no_web_database_or_pdf(args: list[str], tmp_path: Path) -> None:
    loaded(["rules"], tmp_path)  # fills the guideline cache
    found = loaded(args, tmp_path)
    assert "shinpan" in found and "typer" in found
    assert not found & set(HEAVY), sorted(found & set(HEAVY))


def test_the_shipped_guideline_comes_from_the_cache_without_yaml(tmp_path: Path) -> None:
    first = loaded(["rules"], tmp_path)
    assert "yaml" in first  # nothing cached yet: the file is read and checked
    assert list(tmp_path.glob("guideline-*.pickle"))
    assert "yaml" not in loaded(["rules"], tmp_path)


def test_a_damaged_cache_is_passed_over(tmp_path: Path) -> None:
    loaded(["rules"], tmp_path)
    for kept in tmp_path.glob("guideline-*.pickle"):
        kept.write_bytes(b"not a guideline")
    done = subprocess.run(
        [str(VENV_BIN / "shinpan"), "rules", "show", "ingame.slow-play"],
        capture_output=True, text=True, env={"SHINPAN_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ingame.slow-play" in done.stdout


def test_every_command_is_found_where_the_table_says() -> None:
    whole = build()
    names = {c.name for c in whole.registered_commands} | {g.name for g in whole.registered_groups}
    assert names == set(COMMANDS)
    assert set(COMMANDS.values()) == set(MODULES)
    for name, module in COMMANDS.items():
        alone = build(name)
        found = {c.name for c in alone.registered_commands} | {g.name for g in alone.registered_groups}
        assert name in found, (name, module)


def test_replay_decides_without_pydantic_typer_or_yaml(tmp_path: Path) -> None:
    scenario = tmp_path / "scenario.json"
    scenario.write_text(
        json.dumps({"players": ["A"], "events": [{"player": "A", "infraction": "ingame.slow-play"}]})
    )
    loaded(["rules"], tmp_path)  # fills the guideline cache
    found = loaded(["replay", str(scenario)], tmp_path)
    assert "shinpan" in found
    assert not found & {"pydantic", "typer", "yaml", *HEAVY}, sorted(
        found & {"pydantic", "typer", "yaml", *HEAVY}
    )


def test_listing_events_reads_no_guideline_file(tmp_path: Path) -> None:
    loaded(["rules"], tmp_path)  # fills the guideline cache
    found = modules(["event", "list", "--db", str(tmp_path / "events.sqlite3")], tmp_path)
    assert "shinpan.services.events" in found  # it did read the database
    assert not found & {"yaml", "shinpan.guideline.schema"}, sorted(
        found & {"yaml", "shinpan.guideline.schema"}
    )


@pytest.mark.parametrize("args", [["record", "--help"], ["deadlines", "--help"], ["history", "--help"]])
def test_a_commands_help_loads_no_engine_guideline_or_store(args: list[str], tmp_path: Path) -> None:
    found = modules(args, tmp_path)
    assert "shinpan.cli.rulings" in found
    inside = {
        m
        for m in found
        if m.split(".")[:2] in (["shinpan", p] for p in ("engine", "guideline", "store", "services"))
    }
    assert not inside, sorted(inside)


def test_a_command_on_a_migrated_database_loads_no_sqlalchemy_alembic_or_pydantic(tmp_path: Path) -> None:
    """The store runs on the drivers: SQLAlchemy and Alembic load only to migrate (the
    first command on a new database), pydantic only to check a guideline file."""
    url = str(tmp_path / "events.sqlite3")
    loaded(["rules"], tmp_path)  # fills the guideline cache
    first = loaded(["event", "list", "--db", url], tmp_path)
    assert {"sqlalchemy", "alembic"} <= first  # a new database: migrated
    for args in (["event", "list"], ["verify"], ["deadlines", "--event", "1"]):
        found = loaded([*args, "--db", url], tmp_path)
        assert "sqlite3" in found  # it did open the database
        assert not found & {"sqlalchemy", "alembic", "pydantic", "psycopg"}, (args, sorted(found))
