"""An event's format on the command line (T7–T9): chosen at creation or before round 1,
refused after, shown with the standings; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from web_support import World, worlds


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(ok(result))


def refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode in (1, 2), result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


def create(db_url: str, *options: str) -> subprocess.CompletedProcess[str]:
    return run_cli(
        "event",
        "create",
        "--name",
        "形式の大会",
        "--head-judge",
        "山田",
        "--head-judge-level",
        "2",
        *options,
        "--json",
        db=db_url,
    )


def players(db_url: str, event: str, tmp_path: Path, count: int = 6) -> None:
    csv = tmp_path / "players.csv"
    csv.write_text("id,name,reading\n" + "".join(f"{n},選手{n},せんしゅ\n" for n in range(1, count + 1)))
    ok(run_cli("players", "import", "--event", event, str(csv), db=db_url))


def test_an_event_plays_best_of_three_decided_by_duels_and_ranks_by_omw_gw_ogw_unless_it_says(
    db_url: str,
) -> None:
    event = str(as_json(create(db_url))["event"])
    chosen = as_json(run_cli("event", "settings", "--event", event, "--json", db=db_url))
    assert chosen == {"format": "bo3", "time_out": "duels", "tiebreakers": ["omw", "gw", "ogw"]}


def test_the_format_is_chosen_at_creation_and_shown_with_the_standings(db_url: str, tmp_path: Path) -> None:
    event = str(
        as_json(create(db_url, "--format", "bo1", "--time-out", "both-lose", "--tiebreakers", "both-lose"))[
            "event"
        ]
    )
    chosen = as_json(run_cli("event", "settings", "--event", event, "--json", db=db_url))
    assert chosen == {"format": "bo1", "time_out": "both-lose", "tiebreakers": ["omw", "oomw", "seeded"]}
    players(db_url, event, tmp_path)
    ok(run_cli("round", "pair", "--event", event, "--seed", "3", db=db_url))
    table = as_json(run_cli("standings", "--event", event, "--json", db=db_url))
    assert table["tiebreakers"] == ["omw", "oomw", "seeded"] and table["format"] == "bo1"
    assert all({"oomw", "seeded"} <= set(row) for row in table["standings"])
    assert sorted(row["seeded"] for row in table["standings"]) == [1, 2, 3, 4, 5, 6]  # seeded never ties
    assert sorted(row["rank"] for row in table["standings"]) == [1, 2, 3, 4, 5, 6]
    again = as_json(run_cli("standings", "--event", event, "--json", db=db_url))
    assert again == table  # the same draw on every reprint
    shown = ok(run_cli("standings", "--event", event, db=db_url))
    assert "OOMW" in shown and "bo1" in shown


def test_the_head_judge_changes_the_format_before_round_1_is_paired_and_not_after(
    db_url: str, tmp_path: Path
) -> None:
    event = str(as_json(create(db_url))["event"])
    changed = as_json(
        run_cli("event", "settings", "--event", event, "--tiebreakers", "gw,omw", "--json", db=db_url)
    )
    assert changed == {"format": "bo3", "time_out": "duels", "tiebreakers": ["gw", "omw"]}
    changed = as_json(run_cli("event", "settings", "--event", event, "--format", "bo1", "--json", db=db_url))
    assert changed["tiebreakers"] == ["gw", "omw"] and changed["format"] == "bo1"  # the rest stays
    players(db_url, event, tmp_path)
    ok(run_cli("round", "pair", "--event", event, db=db_url))
    refused(run_cli("event", "settings", "--event", event, "--format", "bo3", db=db_url), "before round 1")
    assert as_json(run_cli("event", "settings", "--event", event, "--json", db=db_url))["format"] == "bo1"


def test_a_format_that_is_not_one_is_refused_and_creates_nothing(db_url: str) -> None:
    before = as_json(run_cli("event", "list", "--json", db=db_url))
    refused(create(db_url, "--format", "bo5"), "bo3", "bo1")
    refused(create(db_url, "--time-out", "coin"), "both-lose")
    refused(create(db_url, "--tiebreakers", "omw,mwp"), "mwp")
    refused(create(db_url, "--tiebreakers", "omw,omw"), "twice")
    assert as_json(run_cli("event", "list", "--json", db=db_url)) == before


def test_an_exported_event_keeps_its_format_and_its_seeded_draw(db_url: str, tmp_path: Path) -> None:
    event = str(as_json(create(db_url, "--tiebreakers", "omw,seeded"))["event"])
    players(db_url, event, tmp_path)
    ok(run_cli("round", "pair", "--event", event, "--seed", "5", db=db_url))
    standings = as_json(run_cli("standings", "--event", event, "--json", db=db_url))
    exported = tmp_path / "event.json"
    ok(run_cli("export", "--event", event, "--output", str(exported), db=db_url))
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"  # another installation
    copy = str(as_json(run_cli("import", str(exported), "--json", db=other))["event"])
    assert as_json(run_cli("standings", "--event", copy, "--json", db=other)) == standings


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=4, spare=0)


def _format_of(w: World, event: int) -> dict[str, Any]:
    from shinpan.services import formats

    with w.db.read() as conn:
        return formats.format_json(formats.read_format(conn, event))


def test_the_event_form_and_the_api_take_the_format_and_say_when_it_is_wrong(world: World) -> None:
    hj = world.clients["head_judge"]
    form = {"name": "形式", "match_format": "bo1", "time_out": "both-lose", "tiebreakers": "both-lose"}
    made = hj.post("/events", data={**form, "csrf_token": hj.csrf}, follow_redirects=False)
    assert made.status_code == 303, made.text
    event = int(made.headers["location"].split("/")[2])
    assert _format_of(world, event) == {
        "format": "bo1",
        "time_out": "both-lose",
        "tiebreakers": ["omw", "oomw", "seeded"],
    }
    wrong = hj.post(
        "/events", data={**form, "match_format": "bo5", "csrf_token": hj.csrf}, follow_redirects=False
    )
    assert wrong.status_code == 422 and "試合形式は" in wrong.text and "bo5" in wrong.text
    by_api = hj.post("/api/events", json={"name": "API", "format": "bo1", "tiebreakers": ["gw", "omw"]})
    assert by_api.status_code == 201, by_api.text
    assert _format_of(world, by_api.json()["event"])["tiebreakers"] == ["gw", "omw"]
    twice = hj.post("/api/events", json={"name": "API", "tiebreakers": ["gw", "gw"]})
    assert twice.status_code == 422 and "二回" in twice.json()["detail"]
