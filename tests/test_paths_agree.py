"""One decision path: the same scenario gives the same rulings through ``shinpan replay``,
through the ledger's services and through the JSON API of a real server, on SQLite and on
PostgreSQL (D16–D22 included).

The services are driven as the JSON API drives them (:mod:`ledger_paths`); the JSON API
itself by ``../shared/conformance/api_check.py`` against ``shinpan serve``, with the public
cases and this project's own cases in ``tests/cases``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHINPAN, T0, Backend, require_postgres
from ledger_paths import Refused, comparable, through_ledger
from scenario_strategies import scenarios
from shinpan.engine import ScenarioError, replay
from shinpan.store.db import Database
from support import BOOK, ROOT, shared

CASES = ROOT / "tests" / "cases"
PATHS_SETTINGS = settings(
    max_examples=int(os.environ.get("SHINPAN_PATH_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def written_otherwise(player: str, how: int) -> str:
    """D18: the same participant as a judge's keyboard may write it."""
    if how == 1:
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in player)  # full width
    if how == 2:
        return f" {player}\u3000"  # with spaces, one of them ideographic
    return player


def with_variants(scenario: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The scenario with some participant ids written in other forms that normalize alike."""
    names = ("mixed_into", "recorded_by", "advisor")

    def other(p: str) -> str:
        return written_otherwise(p, data.draw(st.integers(0, 2)))

    events = []
    for e in scenario["events"]:
        if "player" in e:
            e = {**e, "player": other(e["player"])}
            if "facts" in e:
                e["facts"] = {
                    k: other(v) if k in names and isinstance(v, str) else v for k, v in e["facts"].items()
                }
        events.append(e)
    return {"players": [other(p) for p in scenario["players"]], "events": events}


@PATHS_SETTINGS
@given(scenarios(max_events=14), st.data())
def test_replay_and_the_ledger_decide_alike(
    db: Database, scenario: dict[str, Any], data: st.DataObject
) -> None:
    scenario = with_variants(scenario, data)
    try:
        expected = replay(BOOK, scenario, explanations=False)
    except ScenarioError as e:
        with pytest.raises(Refused) as refused:
            through_ledger(db, scenario, T0)
        assert refused.value.index == e.index, (str(e), str(refused.value))
        return
    got = through_ledger(db, scenario, T0)
    assert comparable(got) == comparable(expected)
    for r in got:  # D18: the ledger names players by their normalized ids
        assert r["player"] == unicodedata.normalize("NFKC", r["player"]).strip()


def api_check(backend: Backend, *paths: str, errors: bool = True) -> subprocess.CompletedProcess[str]:
    script = shared("conformance", "api_check.py")
    db = "sqlite"
    if backend.is_postgres:
        require_postgres()
        db = "postgresql://postgres@127.0.0.1:5432/"
    command = [sys.executable, str(script), "--shinpan", str(SHINPAN), "--db", db, "--time-limit", "300"]
    command += ["--errors"] if errors else []
    return subprocess.run(
        [*command, *paths], capture_output=True, text=True, timeout=400, stdin=subprocess.DEVNULL, cwd=ROOT
    )


def test_the_conformance_cases_pass_through_the_json_api(backend: Backend) -> None:
    done = api_check(backend, str(shared("conformance", "cases")), str(CASES))
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout
    cases = len(list(shared("conformance", "cases").glob("*.json"))) + len(list(CASES.glob("*.json")))
    passed = int(done.stdout.strip().splitlines()[-1].split()[0])
    assert passed >= cases - 3, done.stdout  # only error cases the API cannot express are skipped


def test_the_projects_own_cases_pass_through_replay() -> None:
    check = shared("conformance", "check.py")
    done = subprocess.run(
        [sys.executable, str(check), "--cmd", f"{SHINPAN} replay", str(CASES)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(f"{len(list(CASES.glob('*.json')))} passed, 0 failed")
