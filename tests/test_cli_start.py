"""A command starts with only what it needs (the time itself is bench/cli.py's).

Each case runs the command in a fresh interpreter, as a judge's terminal does, and looks at
the modules it loaded: reading the guideline loads no web framework, no database layer and
no PDF engine, and the shipped guideline comes from the cache without the YAML parser;
``shinpan replay`` loads no pydantic (the guideline's classes are plain dataclasses), and
neither validates the guideline again (no YAML parser, no schema). A command that answers
in one plain line loads no Rich; a command loads the services it calls and no others; one
that decides nothing loads no decision path; and Typer builds only the command typed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from shinpan.cli.commands import COMMANDS, MODULES, build
from shinpan.guideline import GuidelineError
from support import VENV_BIN

if TYPE_CHECKING:
    from collections.abc import Iterator

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
    "shinpan.engine.ladder",
    "shinpan.engine.explain",
    "shinpan.engine.replay",
    "shinpan.engine.corrections",
}


def bare_env(cache: Path) -> dict[str, str]:
    """A judge's terminal: the cache in ``cache``, nothing else set but where the code is
    (``PYTHONPATH``, when the tests run from a worktree's ``src``)."""
    env = {"SHINPAN_CACHE": str(cache), "PATH": "/usr/bin:/bin", "HOME": str(cache)}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def modules(args: list[str], cache: Path) -> set[str]:
    """Every module ``shinpan ARGS`` loaded."""
    env = bare_env(cache)
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
    env = bare_env(tmp_path)
    del env["HOME"]
    done = subprocess.run(
        [str(VENV_BIN / "shinpan"), "rules", "show", "ingame.slow-play"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "ingame.slow-play" in done.stdout


SHIPPED = Path(__file__).resolve().parents[1] / "src" / "shinpan" / "guideline" / "data" / "rel3-ja-1998.yaml"


def shinpan(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    """``shinpan ARGS`` in a new process, its cache in ``cache``."""
    env = bare_env(cache)
    return subprocess.run(
        [str(VENV_BIN / "shinpan"), *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_a_guideline_file_checked_once_is_not_validated_again_until_it_changes(tmp_path: Path) -> None:
    cache, file = tmp_path / "cache", tmp_path / "local.yaml"
    file.write_text(SHIPPED.read_text("utf-8"), encoding="utf-8")
    assert "pydantic" in loaded(["guideline", "check", str(file)], cache)  # the first check validates
    assert "pydantic" not in loaded(["guideline", "check", str(file)], cache)
    assert "pydantic" not in loaded(["rules", "--guideline", str(file)], cache)
    file.write_text(file.read_text("utf-8").replace("version:", "version: [", 1), encoding="utf-8")
    broken = shinpan(["guideline", "check", str(file)], cache)
    assert broken.returncode == 1 and "problem" in broken.stderr  # changed: checked, and refused


def test_the_schema_is_made_once_and_printed_alike_after(tmp_path: Path) -> None:
    first = shinpan(["guideline", "schema"], tmp_path)
    assert "pydantic" not in loaded(["guideline", "schema"], tmp_path)
    again = shinpan(["guideline", "schema"], tmp_path)
    assert first.returncode == again.returncode == 0
    assert json.loads(first.stdout) == json.loads(again.stdout)
    assert json.loads(again.stdout)["title"] == "shinpan guideline file"


def test_a_cache_that_cannot_be_had_or_written_leaves_the_check_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shinpan.files import guidelines as load

    file, broken = tmp_path / "local.yaml", tmp_path / "broken.yaml"
    file.write_text(SHIPPED.read_text("utf-8"), encoding="utf-8")
    broken.write_text("version: [", encoding="utf-8")

    def nowhere() -> Path:
        raise RuntimeError("Could not determine home directory")

    monkeypatch.setattr(load, "cache_dir", nowhere)  # no home directory, no cache setting
    assert load.load_guideline(file).id == "rel3-ja-1998"
    with pytest.raises(GuidelineError):
        load.load_guideline(broken)
    # A cache whose file cannot be put in place (here a folder stands there): nothing is
    # left half-written beside it.
    cache = tmp_path / "cache"
    monkeypatch.setattr(load, "cache_dir", lambda: cache)
    text = file.read_text("utf-8")
    (cache / f"guideline-{load._key((b'.yaml', text.encode()))}.pickle").mkdir(parents=True)
    assert load.load_guideline(file).id == "rel3-ja-1998"
    assert [p.name for p in cache.iterdir() if p.name.startswith(".tmp-")] == []


def test_the_cache_key_follows_the_code_that_checks_and_the_libraries_it_uses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from shinpan.files import guidelines as load

    first = load._key((b".yaml", b"text"))
    assert load._key((b".yaml", b"text")) == first and load._key((b".json", b"text")) != first
    monkeypatch.setattr(load, "_SHAPED_BY", load._SHAPED_BY[:-2])  # the parser and the cache left out
    assert load._key((b".yaml", b"text")) != first
    monkeypatch.undo()
    monkeypatch.setattr(load, "_LIBRARIES", (("yaml", "__init__.py"),))  # pydantic's version left out
    assert load._key((b".yaml", b"text")) != first


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
    assert "shinpan.views.events" in found  # it did read the database
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


# -- an event to run the judges' commands on ----------------------------------------------


@pytest.fixture(scope="module")
def event_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[int]]]:
    """A SQLite file with event 1 (four players, round 1 paired) and slow-play warnings
    waiting for the head judge; the guideline cache beside it is filled."""
    from shinpan.files.csvio import PairingRow, PlayerRow
    from shinpan.services import events, recording, rounds
    from shinpan.store.db import Database

    folder = tmp_path_factory.mktemp("start")
    loaded(["rules"], folder)  # fills the guideline cache
    db = Database(str(folder / "events.sqlite3"))
    numbers = ["P1", "P2", "P3", "P4"]
    event = events.create_event(db, name="本戦", head_judge="HJ", head_judge_level=2)
    events.import_players(db, event, [PlayerRow(n, f"選手 {n}", "せんしゅ", None) for n in numbers])
    events.import_pairings(db, event, 1, [PairingRow(1, "P1", "P2"), PairingRow(2, "P3", "P4")])
    rounds.start_round(db, event)  # results once the round runs (T5)
    pending = [
        recording.record(db, event, recording.RecordInput(n, "ingame.slow-play")).rulings[0]["number"]
        for n in numbers
    ]
    db.close()
    yield folder, pending


def said(args: list[str], folder: Path) -> tuple[str, set[str]]:
    """What ``shinpan ARGS --db …`` printed first, and every module it loaded."""
    env = bare_env(folder)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([*args, "--db", str(folder / "events.sqlite3")])],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    *_, found = done.stderr.strip().splitlines()
    return done.stdout, set(json.loads(found))


def test_a_one_line_answer_loads_no_rich(event_db: tuple[Path, list[int]]) -> None:
    """Rich loads for tables and styled text only (shinpan.cli.output.say); a line in
    Japanese and English (shinpan.cli.output.tell) goes out without it."""
    folder, pending = event_db
    for args, first in (
        (
            ["confirm", str(pending[0]), "--event", "1"],
            f"裁定 {pending[0]} を承認しました / confirmed {pending[0]}\n",
        ),
        (
            ["void", str(pending[1]), "--event", "1", "--reason", "wrong table"],
            f"裁定 {pending[1]} を取り消しました / voided {pending[1]}\n",
        ),
        (
            ["result", "--event", "1", "--round", "1", "--table", "2", "--match", "a"],
            "記録しました: 第1回戦、2番卓: A席の勝ち / recorded: round 1, table 2: a\n",
        ),
        (["verify"], "正常: 大会 1件、"),
        (["rebuild", "--check"], "表は台帳と一致しています / the tables match the ledger\n"),
    ):
        out, found = said(args, folder)
        assert out.startswith(first), (args, out)
        assert "shinpan.cli.output" in found
        assert not {m for m in found if m.split(".")[0] == "rich"}, args


def test_a_table_still_loads_rich(event_db: tuple[Path, list[int]]) -> None:
    folder, _ = event_db
    out, found = said(["event", "list"], folder)
    assert "本戦" in out and "rich.table" in found


def test_record_loads_the_recording_services_and_no_others(event_db: tuple[Path, list[int]]) -> None:
    folder, _ = event_db
    out, found = said(
        ["record", "ingame.extra-cards-drawn", "--event", "1", "--player", "P3", "--yes"], folder
    )
    assert out.startswith("記録しました: 裁定 #") and " / saved: ruling #" in out
    assert "shinpan.services.recording" in found
    others = {f"shinpan.services.{s}" for s in ("corrections", "deadlines", "queries", "search")}
    others.add("shinpan.files.transfer")
    assert not found & others, sorted(found & others)


def test_confirming_loads_no_deadline_query_or_transfer_services(event_db: tuple[Path, list[int]]) -> None:
    folder, pending = event_db
    out, found = said(["confirm", str(pending[2]), "--event", "1"], folder)
    assert out == f"裁定 {pending[2]} を承認しました / confirmed {pending[2]}\n"
    others = {f"shinpan.services.{s}" for s in ("deadlines", "queries", "search", "integrity")}
    others.add("shinpan.files.transfer")
    assert not found & others, sorted(found & others)


@pytest.mark.parametrize("args", [["verify"], ["rebuild", "--check"], ["deadlines", "--event", "1"]])
def test_a_command_that_decides_nothing_loads_no_decision_path(
    args: list[str], event_db: tuple[Path, list[int]]
) -> None:
    """Checking the ledger and listing deadlines read; they decide no ruling, so they load
    neither the engine's decision path nor the services that record."""
    folder, _ = event_db
    _, found = said(args, folder)
    assert "sqlite3" in found  # it did read the database
    unused = DECIDING | {"shinpan.services.recording", "shinpan.files.transfer"}
    assert not found & unused, sorted(found & unused)


def test_checking_the_ledger_loads_no_guideline_classes(event_db: tuple[Path, list[int]]) -> None:
    """The projector folds names as the guideline's search does, with one small function:
    the guideline's classes stay unloaded (no rulebook is asked for)."""
    folder, _ = event_db
    _, found = said(["verify"], folder)
    assert "shinpan.guideline.search" in found
    assert not found & {"shinpan.guideline.model", "shinpan.guideline.rulebook"}


def test_the_clock_and_the_event_rules_load_without_the_engine() -> None:
    """Every service reads them; the engine's package loads its names on first use, and
    keeps giving the functions decide, explain and replay, not their modules."""
    code = (
        "import json, sys\n"
        "import shinpan.engine.clock, shinpan.engine.event_rules\n"
        "before = sorted(m for m in sys.modules if m.startswith(('shinpan.engine.', 'shinpan.guideline.')))\n"
        "import shinpan.engine.decide, shinpan.engine.explain, shinpan.engine.replay\n"
        "from shinpan.engine import decide, explain, replay, Record\n"
        "import shinpan.engine as engine\n"
        "kinds = [type(x).__name__ for x in (decide, explain, replay, engine.decide, engine.explain)]\n"
        "print(json.dumps([before, kinds, Record.__module__]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    before, kinds, record_module = json.loads(done.stdout)
    assert before == ["shinpan.engine.clock", "shinpan.engine.event_rules", "shinpan.guideline.terms"]
    assert kinds == ["function"] * 5
    assert record_module == "shinpan.engine.ruling"


def test_a_command_builds_only_itself() -> None:
    """Typer reads the signature of every command an app holds; ``shinpan NAME SUB`` holds
    one. An option or an unknown name after a group keeps the whole group (its help, its
    "did you mean")."""

    def held(command: str, sub: str | None = None) -> dict[str, list[str]]:
        app = build(command, sub)
        found = {c.name or "": [] for c in app.registered_commands}
        for g in app.registered_groups:
            assert g.typer_instance is not None
            found[g.name or ""] = sorted(c.name or "" for c in g.typer_instance.registered_commands)
        return found

    assert held("record") == {"record": []}
    assert held("record", "--help") == {"record": []}
    assert held("event", "list") == {"event": ["list"]}
    assert held("round", "end") == {"round": ["end"]}
    assert held("event", "--help") == {"event": ["create", "list", "publish", "reopen", "seal", "settings"]}
    assert held("event", "lst") == {"event": ["create", "list", "publish", "reopen", "seal", "settings"]}
