"""The playoff after the Swiss on the command line (T10), with penalties and players
leaving between its rounds; on SQLite and PostgreSQL.

The Swiss is played with the better-numbered player always winning, so the standings and
the seeds are known: seat a of every table wins unless a test says otherwise.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from conftest import run_cli
from test_import_decided import rehashed


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(ok(result))


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


class Event:
    def __init__(self, db_url: str, tmp_path: Path, players: int, *options: str) -> None:
        self.db = db_url
        made = run_cli(
            "event",
            "create",
            "--name",
            "決勝のある大会",
            "--head-judge",
            "山田",
            "--head-judge-level",
            "2",
            *options,
            "--json",
            db=db_url,
        )
        self.id = str(as_json(made)["event"])
        csv = tmp_path / "players.csv"
        csv.write_text(
            "id,name,reading\n" + "".join(f"{n},選手{n},せんしゅ\n" for n in range(1, players + 1))
        )
        ok(self.cli("players", "import", "--event", self.id, str(csv)))

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, db=self.db)

    def play(self, pairings: list[dict[str, Any]], winners: dict[int, str] | None = None) -> None:
        """Start the round, report every table (seat a wins unless ``winners`` says), end it."""
        number = str(self.current())
        ok(self.cli("round", "start", "--event", self.id))
        for p in pairings:
            if p["b"] is None:
                continue
            side = "b" if (winners or {}).get(p["table"]) == p["b"] else "a"
            ok(
                self.cli(
                    "result",
                    "--event",
                    self.id,
                    "--round",
                    number,
                    "--table",
                    str(p["table"]),
                    "--match",
                    side,
                )
            )
        ok(self.cli("round", "end", "--event", self.id))

    def current(self) -> int:
        return int(as_json(self.cli("round", "clock", "--event", self.id, "--json"))["round"])

    def swiss(self, rounds: int) -> None:
        for _ in range(rounds):
            self.play(
                as_json(self.cli("round", "pair", "--event", self.id, "--seed", "1", "--json"))["pairings"]
            )


def test_a_playoff_of_eight_with_a_third_place_match_and_final_placings(db_url: str, tmp_path: Path) -> None:
    ev = Event(db_url, tmp_path, 12)
    ev.swiss(3)
    swiss = as_json(ev.cli("standings", "--event", ev.id, "--json"))
    top = [row["player"] for row in swiss["standings"]]

    quarter = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "8", "--third-place", "--json"))
    assert quarter["round"] == 4
    assert [p["seeds"] for p in quarter["pairings"]] == [[1, 8], [4, 5], [2, 7], [3, 6]]
    assert [p["table"] for p in quarter["pairings"]] == [1, 2, 3, 4]
    assert quarter["pairings"][0]["a"] == top[0]  # the top of the Swiss is seed 1
    assert {p["a"] for p in quarter["pairings"]} | {p["b"] for p in quarter["pairings"]} == set(
        top[:8]
    ) or any(
        row["rank"] == swiss["standings"][7]["rank"] for row in swiss["standings"][8:]
    )  # the top eight enter, unless a tie on the cut line was drawn
    refused(ev.cli("playoff", "start", "--event", ev.id, "--size", "4"), "already started")
    refused(ev.cli("round", "pair", "--event", ev.id), "playoff")
    refused(ev.cli("playoff", "pair", "--event", ev.id), "without a result")

    ev.play(quarter["pairings"], {2: quarter["pairings"][1]["b"]})  # seed 5 beats seed 4
    semi = as_json(ev.cli("playoff", "pair", "--event", ev.id, "--json"))
    assert [p["seeds"] for p in semi["pairings"]] == [[1, 5], [2, 3]]
    ev.play(semi["pairings"], {2: semi["pairings"][1]["b"]})  # seed 3 beats seed 2
    last = as_json(ev.cli("playoff", "pair", "--event", ev.id, "--json"))
    assert [p["seeds"] for p in last["pairings"]] == [[1, 3], [2, 5]]  # the final, then third place
    final, third = last["pairings"]
    shown = ok(ev.cli("playoff", "show", "--event", ev.id)).splitlines()
    assert shown[0] == "準々決勝(第4回戦) / quarter-finals (round 4)"  # Japanese first, then English
    assert f"  {final['a']} 対 {final['b']} / {final['a']} v {final['b']}" in shown
    assert f"  {third['a']} 対 {third['b']}(3位決定戦) / {third['a']} v {third['b']} (third place)" in shown
    ev.play(last["pairings"], {1: last["pairings"][0]["b"], 2: last["pairings"][1]["b"]})
    refused(ev.cli("playoff", "pair", "--event", ev.id), "over")

    placed = as_json(ev.cli("placings", "--event", ev.id, "--json"))["placings"]
    assert [p["place"] for p in placed] == list(range(1, 13))
    placings = ok(ev.cli("placings", "--event", ev.id))
    assert "順位" in placings and "place" in placings  # the heading: Japanese above English
    assert f"選手{placed[0]['player']}" in placings  # each place names its player, not only an id
    by_seed = {p["seeds"][i]: p[side] for p in quarter["pairings"] for i, side in enumerate("ab")}
    assert [p["player"] for p in placed[:8]] == [by_seed[s] for s in (3, 1, 5, 2, 4, 6, 7, 8)]
    assert [p["player"] for p in placed[8:]] == [
        p for p in top if p not in by_seed.values()
    ]  # in Swiss order
    assert as_json(ev.cli("standings", "--event", ev.id, "--json")) == swiss  # the Swiss standings stay


def test_a_player_who_drops_between_playoff_rounds_sends_the_opponent_on(db_url: str, tmp_path: Path) -> None:
    ev = Event(db_url, tmp_path, 8)
    ev.swiss(3)
    semi = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "4", "--json"))
    ev.play(semi["pairings"])
    winner_of_first = semi["pairings"][0]["a"]
    ok(ev.cli("players", "drop", "--event", ev.id, "--player", winner_of_first))
    final = as_json(ev.cli("playoff", "pair", "--event", ev.id, "--json"))
    assert final["pairings"] == [{"table": None, "a": semi["pairings"][1]["a"], "b": None, "seeds": [2]}]
    ok(ev.cli("round", "start", "--event", ev.id))
    ok(ev.cli("round", "end", "--event", ev.id))
    placed = [p["player"] for p in as_json(ev.cli("placings", "--event", ev.id, "--json"))["placings"]]
    assert placed[:2] == [semi["pairings"][1]["a"], winner_of_first]


def test_a_playoff_match_has_a_winner_never_a_draw(db_url: str, tmp_path: Path) -> None:
    ev = Event(db_url, tmp_path, 6)
    ev.swiss(2)
    semi = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "4", "--json"))
    ok(ev.cli("round", "start", "--event", ev.id))
    refused(ev.cli("result", "--event", ev.id, "--round", "3", "--table", "1", "--match", "draw"), "winner")
    assert semi["round"] == 3


def test_a_playoff_larger_than_the_players_still_in_it_is_refused_and_changes_nothing(
    db_url: str, tmp_path: Path
) -> None:
    ev = Event(db_url, tmp_path, 7)
    ev.swiss(2)
    ok(ev.cli("players", "drop", "--event", ev.id, "--player", "7"))
    before = as_json(ev.cli("round", "clock", "--event", ev.id, "--json"))
    refused(ev.cli("playoff", "start", "--event", ev.id, "--size", "8"), "8", "6")
    refused(ev.cli("playoff", "start", "--event", ev.id, "--size", "6"), "4, 8, 16 or 32")
    assert as_json(ev.cli("round", "clock", "--event", ev.id, "--json")) == before
    assert as_json(ev.cli("playoff", "show", "--event", ev.id, "--json")) is None


def test_an_exported_playoff_is_decided_again_at_import_and_a_forged_one_refused(
    db_url: str, tmp_path: Path
) -> None:
    ev = Event(db_url, tmp_path, 8)
    ev.swiss(2)
    semi = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "4", "--third-place", "--json"))
    ev.play(semi["pairings"])
    as_json(ev.cli("playoff", "pair", "--event", ev.id, "--json"))
    placed = as_json(ev.cli("placings", "--event", ev.id, "--json"))
    exported = tmp_path / "event.json"
    ok(ev.cli("export", "--event", ev.id, "--output", str(exported)))
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    copy = str(as_json(run_cli("import", str(exported), "--json", db=other))["event"])
    assert as_json(run_cli("placings", "--event", copy, "--json", db=other)) == placed

    data = json.loads(exported.read_text(encoding="utf-8"))
    started = next(item for item in data["entries"] if item["kind"] == "playoff.started")
    entrants = started["body"]["entrants"]
    entrants[0], entrants[3] = entrants[3], entrants[0]  # the fourth seed made the first
    rehashed(data)  # every hash made again, as a forger would
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    third = f"sqlite:///{tmp_path / 'third.sqlite3'}"
    refused(run_cli("import", str(forged), db=third), "playoff.started", "entrants")


def test_the_bracket_for_the_wall_names_the_rounds_the_players_and_the_final_placings(
    db_url: str, tmp_path: Path
) -> None:
    ev = Event(db_url, tmp_path, 8)
    ev.swiss(2)
    semi = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "4", "--third-place", "--json"))
    before = as_json(ev.cli("report", "bracket", "--event", ev.id, "--format", "json"))
    assert [r["title"] for r in before["rounds"]] == ["semi-finals"] and before["placings"] == []
    ev.play(semi["pairings"])
    ev.play(as_json(ev.cli("playoff", "pair", "--event", ev.id, "--json"))["pairings"])
    pdf = tmp_path / "bracket.pdf"
    ok(ev.cli("report", "bracket", "--event", ev.id, "--format", "pdf", "--output", str(pdf)))
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for words in ("決勝トーナメント", "準決勝", "決勝", "3位決定戦", "最終順位", "せんしゅ"):
        assert words in text, words
    placed = as_json(ev.cli("placings", "--event", ev.id, "--json"))["placings"]
    winner = f"選手{placed[0]['player']}"
    assert winner in text
