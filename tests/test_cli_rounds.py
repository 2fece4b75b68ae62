"""``shinpan round pair|start|end|time|edit|clock``, ``players drop`` and ``standings`` with
``--db URL``: the JSON shapes the issue gives, one-line errors, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from conftest import EventSetup, run_cli

STANDING_KEYS = ["rank", "player", "points", "wins", "losses", "draws", "omw", "gw", "ogw", "status"]


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(ok(result))


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    message = result.stderr.strip()
    assert message.startswith("error: ") and len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, message


def test_a_round_paired_started_played_and_ended_on_the_command_line(
    new_event: Callable[..., EventSetup], db_url: str
) -> None:
    ev = new_event(players=5, pair=False)
    e = str(ev.id)
    paired = as_json(run_cli("round", "pair", "--event", e, "--seed", "7", "--json", db=db_url))
    assert list(paired) == ["round", "pairings"] and paired["round"] == 1
    assert all(list(p) == ["table", "a", "b"] for p in paired["pairings"])
    assert [p["table"] for p in paired["pairings"]] == [1, 2, None]
    assert paired["pairings"][-1]["b"] is None
    seated = sorted(p for t in paired["pairings"] for p in (t["a"], t["b"]) if p)
    assert seated == ev.players
    refused(run_cli("round", "pair", "--event", e, db=db_url), "round 1", "without a result")

    assert "50 min" in ok(run_cli("round", "start", "--event", e, db=db_url))
    refused(run_cli("round", "start", "--event", e, db=db_url), "already started")
    ok(
        run_cli(
            "round",
            "time",
            "--event",
            e,
            "--table",
            "2",
            "--minutes",
            "4",
            "--reason",
            "judge call",
            "--judge",
            "FJ",
            db=db_url,
        )
    )
    clock = as_json(run_cli("round", "clock", "--event", e, "--json", db=db_url))
    assert clock["state"] == "started" and clock["tables"][1]["extra_minutes"] == 4
    assert clock["tables"][1]["time_given"][0]["reason"] == "judge call"

    first, second = paired["pairings"][0], paired["pairings"][1]
    ok(run_cli("result", "--event", e, "--round", "1", "--table", "1", "--match", "a", db=db_url))
    for duel in ("1", "2"):
        ok(
            run_cli(
                "result",
                "--event",
                e,
                "--round",
                "1",
                "--table",
                "2",
                "--duel",
                duel,
                "--winner",
                second["b"],
                db=db_url,
            )
        )
    refused(run_cli("result", "--event", e, "--round", "1", "--table", "3", "--match", "a", db=db_url), "bye")
    ended = as_json(run_cli("round", "end", "--event", e, "--json", db=db_url))
    assert ended == {"round": 1, "still_playing": []}
    refused(run_cli("round", "end", "--event", e, "--round", "1", db=db_url), "already ended")

    dropped = as_json(run_cli("players", "drop", "--event", e, "--player", first["b"], "--json", db=db_url))
    assert dropped == {"player": first["b"], "round": 1}
    refused(run_cli("players", "drop", "--event", e, "--player", first["b"], db=db_url), "already dropped")

    table = as_json(run_cli("standings", "--event", e, "--json", db=db_url))
    assert list(table) == ["round", "state", "now", "format", "time_out", "tiebreakers", "standings"]
    assert (table["round"], table["state"]) == (1, "ended")
    assert (table["format"], table["time_out"], table["tiebreakers"]) == (
        "bo3",
        "duels",
        ["omw", "gw", "ogw"],
    )
    assert all(list(s) == STANDING_KEYS for s in table["standings"])
    top = table["standings"][0]
    assert top["rank"] == 1 and top["points"] == 3 and isinstance(top["omw"], float)
    statuses = {s["player"]: s["status"] for s in table["standings"]}
    assert table["now"] and statuses[first["b"]] == "dropped"  # T6: the standings now show the drop
    after_1 = as_json(run_cli("standings", "--event", e, "--round", "1", "--json", db=db_url))
    statuses = {s["player"]: s["status"] for s in after_1["standings"]}
    assert not after_1["now"] and statuses[first["b"]] == "active"  # T6: after round 1, as it ended

    paired2 = as_json(run_cli("round", "pair", "--event", e, "--json", db=db_url))
    assert paired2["round"] == 2
    assert first["b"] not in [p for t in paired2["pairings"] for p in (t["a"], t["b"])]
    tables = [t for t in paired2["pairings"] if t["b"]]
    swap = [
        f"{tables[0]['table']}={tables[0]['a']},{tables[1]['b']}",
        f"{tables[1]['table']}={tables[1]['a']},{tables[0]['b']}",
    ]
    edited = as_json(run_cli("round", "edit", "--event", e, *swap, "--reason", "同じ店", "--json", db=db_url))
    assert [p["b"] for p in edited["pairings"]] == [tables[1]["b"], tables[0]["b"]]
    back = f"{tables[0]['table']}={tables[0]['a']},{tables[0]['b']}"  # while table 2 keeps its new player
    refused(run_cli("round", "edit", "--event", e, back, "--reason", "x", db=db_url), "paired twice")
    odd = run_cli("round", "edit", "--event", e, f"፩={tables[0]['a']}", "--reason", "x", db=db_url)
    assert odd.returncode == 2 and "TABLE=A,B" in odd.stderr and "Traceback" not in odd.stderr  # not a table

    before = as_json(run_cli("standings", "--event", e, "--round", "1", "--json", db=db_url))
    assert before == after_1  # the standings after round 1 stand while round 2 is paired
    refused(run_cli("standings", "--event", e, "--round", "3", db=db_url), "round 3")
    people = ok(run_cli("standings", "--event", e, db=db_url))  # round 2 paired, not started
    assert "the standings now" in people and "dropped" in people and "round 2" not in people
    assert "after round 1" not in people  # T6: the standings now are never titled "after round N"
    ok(run_cli("round", "start", "--event", e, db=db_url))
    people = ok(run_cli("standings", "--event", e, db=db_url))
    assert "現在の順位(第2回戦は進行中" in people and "dropped" in people


def test_the_round_commands_load_no_database_layer_before_they_need_it() -> None:
    """``shinpan rules`` (and `--help`) start without SQLAlchemy or FastAPI, the round
    commands being registered."""
    code = (
        "import sys\nfrom shinpan.cli.commands import app\n"
        "print(sorted(m for m in ('sqlalchemy', 'fastapi', 'shinpan.tournament', 'networkx') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
