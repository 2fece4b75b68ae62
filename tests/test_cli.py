"""The `shinpan` command: the conformance contract, bad input, and reading the guideline.

Most cases run the Typer app in process (fast); a few run the installed command, to see
what a judge's terminal sees: exit codes, stdout, stderr, and never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from shinpan.cli import app
from support import VENV_BIN, missed, rec, scenario, shared, void

SHINPAN = str(VENV_BIN / "shinpan")
runner = CliRunner()


def write(tmp_path: Path, content: object, name: str = "scenario.json") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        path.write_text(text, encoding="utf-8")
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SHINPAN, *args], capture_output=True, text=True, timeout=60)


# --- the conformance cases


def test_the_conformance_cases_all_pass() -> None:
    check = shared("conformance", "check.py")
    done = subprocess.run(
        [sys.executable, str(check), "--cmd", f"{SHINPAN} replay"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ passed, 0 failed", last), done.stdout
    assert int(last.split()[0]) >= 13
    assert done.returncode == 0


def test_replay_prints_the_contracts_rulings(tmp_path: Path) -> None:
    path = write(tmp_path, scenario("A: ingame.slow-play", void(0)))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.stderr
    (ruling,) = json.loads(result.stdout)["rulings"]
    assert {k: ruling[k] for k in ("event", "player", "rule", "offense", "penalties", "voided")} == {
        "event": 0,
        "player": "A",
        "rule": "ingame.slow-play",
        "offense": 1,
        "penalties": ["warning1"],
        "voided": True,
    }
    assert ruling["source"] == "1)警1"
    assert "explanation" not in ruling  # words for people only when asked for (--explain)


def test_replay_explains_on_request(tmp_path: Path) -> None:
    path = write(tmp_path, scenario("A: ingame.slow-play"))
    (ruling,) = json.loads(runner.invoke(app, ["replay", "--explain", str(path)]).stdout)["rulings"]
    assert "Slow play" in ruling["explanation"]
    assert "1)警1" in ruling["explanation"]
    assert ruling["source"] == "1)警1"


def test_replay_reads_standard_input() -> None:
    result = runner.invoke(app, ["replay", "-"], input=json.dumps(scenario("A: pregame.tardiness")))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["rulings"][0]["penalties"] == ["warning1", "duel_loss"]


def test_replay_with_another_guideline_file(tmp_path: Path) -> None:
    from shinpan.files.guidelines import default_guideline_text

    guideline = write(tmp_path, default_guideline_text(), "copy.yaml")
    path = write(tmp_path, scenario("A: ingame.slow-play"))
    result = runner.invoke(app, ["replay", "--guideline", str(guideline), str(path)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["rulings"][0]["rule"] == "ingame.slow-play"


# --- bad input for `shinpan replay`: exit 2, nothing on stdout, one line naming the event


def ev(**event: Any) -> dict[str, Any]:
    return event


BAD: dict[str, tuple[object, str | None]] = {
    # name: (scenario file content, the event the message must name, if any)
    "malformed JSON": ('{"players": ["A"], "events": [', None),
    "not an object": ('["A"]', None),
    "players not a list": ({"players": "A", "events": []}, None),
    "players not strings": ({"players": [1, 2], "events": []}, None),
    "duplicate players": ({"players": ["A", "B", "A"], "events": []}, None),
    "no events": ({"players": ["A"]}, None),
    "event not an object": (
        scenario("A: ingame.slow-play", "A: ingame.slow-play") | {"events": [{}, 3]},
        "event 0",
    ),
    "unknown infraction": (scenario("A: ingame.slow-play", "A: ingame.no-such-thing"), "event 1"),
    "unknown player": (scenario("A: ingame.slow-play", "Z: ingame.slow-play"), "event 1"),
    "unknown key": (scenario(ev(player="A", infraction="ingame.slow-play", judge="K")), "event 0"),
    "facts of the wrong type": (scenario(rec("A", "ingame.slow-play", intentional="yes")), "event 0"),
    "facts not an object": (
        scenario(ev(player="A", infraction="ingame.slow-play", facts=["intentional"])),
        "event 0",
    ),
    "a fact the infraction does not take": (
        scenario(rec("A", "ingame.slow-play", kind="talking")),
        "event 0",
    ),
    "an unknown kind": (
        scenario("A: ingame.slow-play", rec("A", "draft.standard", kind="singing")),
        "event 1",
    ),
    "a kind that is not a name": (scenario(rec("A", "draft.standard", kind=3)), "event 0"),
    "a draft that is not a name": (scenario(ev(player="A", infraction="draft.standard", draft=1)), "event 0"),
    "missed pointing nowhere": (scenario("A: pregame.tardiness", missed(7)), "event 1"),
    "missed pointing at a later event": (scenario(missed(1), "A: pregame.tardiness"), "event 0"),
    "missed pointing at itself": (scenario("A: pregame.tardiness", missed(1)), "event 1"),
    "missed pointing at a void": (
        scenario("A: pregame.tardiness", "A: ingame.slow-play", void(1), missed(2)),
        "event 3",
    ),
    "missed pointing at a voided record": (scenario("A: pregame.tardiness", void(0), missed(0)), "event 2"),
    "missed at a record with no deadline": (scenario("A: ingame.slow-play", missed(0)), "event 1"),
    "missed past the last deadline": (
        scenario("A: pregame.tardiness", missed(0), missed(0), missed(0)),
        "event 3",
    ),
    "missed that is not an index": (scenario("A: pregame.tardiness", ev(missed="0")), "event 1"),
    "missed that is true": (scenario("A: pregame.tardiness", ev(missed=True)), "event 1"),
    "missed with another key": (scenario("A: pregame.tardiness", ev(missed=0, void=0)), "event 1"),
    "void pointing nowhere": (scenario("A: ingame.slow-play", void(5)), "event 1"),
    "void twice": (scenario("A: ingame.slow-play", void(0), void(0)), "event 2"),
    "void pointing at a void": (scenario("A: ingame.slow-play", void(0), void(1)), "event 2"),
    "uncategorized without penalties": (scenario("A: general.uncategorized"), "event 0"),
    "uncategorized with an unknown code": (
        scenario(rec("A", "general.uncategorized", penalties=["warn"])),
        "event 0",
    ),
    "uncategorized with facts": (
        scenario(ev(player="A", infraction="general.uncategorized", penalties=[], facts={"x": 1})),
        "event 0",
    ),
    "penalties on a ladder infraction": (
        scenario(rec("A", "ingame.slow-play", penalties=["notice"])),
        "event 0",
    ),
    "unknown penalty code in a deviation": (
        scenario(rec("A", "ingame.slow-play", deviation=(["warning7"], "why"))),
        "event 0",
    ),
    "deviation without reason": (
        scenario(ev(player="A", infraction="ingame.slow-play", deviation={"penalties": []})),
        "event 0",
    ),
    "deviation with a blank reason": (
        scenario(rec("A", "ingame.slow-play", deviation=(["notice"], " "))),
        "event 0",
    ),
    "deviation not an object": (
        scenario(ev(player="A", infraction="ingame.slow-play", deviation="notice")),
        "event 0",
    ),
    "mixed into the same player": (scenario(rec("A", "deck.lost-or-mixed-cards", mixed_into="A")), "event 0"),
    "recording the additional rule by hand": (scenario("A: general.unrelated-warnings"), "event 0"),
    "nested too deeply": ("[" * 100_000 + "]" * 100_000, None),
    "not UTF-8": ('{"players": ["遅刻"], "events": []}'.encode("shift_jis"), None),
}


@pytest.mark.parametrize("name", list(BAD))
def test_replay_bad_input(tmp_path: Path, name: str) -> None:
    content, at = BAD[name]
    result = runner.invoke(app, ["replay", str(write(tmp_path, content))])
    assert isinstance(result.exception, SystemExit), result.exception  # never an uncaught error
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    if at is not None:
        assert lines[0].startswith(f"error: {at}: "), lines[0]
    else:
        assert "event" not in lines[0].split(":")[1], lines[0]


@pytest.mark.parametrize(
    "content",
    [
        "{",
        "[" * 100_000,
        json.dumps(scenario("A: ingame.slow-play", "A: ingame.slow-play", void(0), void(0))),
    ],
)
def test_replay_bad_input_in_a_real_terminal(tmp_path: Path, content: str) -> None:
    done = run("replay", str(write(tmp_path, content)))
    assert (done.returncode, done.stdout) == (2, "")
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_replay_a_missing_file(tmp_path: Path) -> None:
    done = run("replay", str(tmp_path / "nowhere.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert "nowhere.json" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_replay_with_a_broken_guideline_file(tmp_path: Path) -> None:
    guideline = write(tmp_path, "id: x\ncomponents: [\n", "broken.yaml")
    path = write(tmp_path, scenario("A: ingame.slow-play"))
    done = run("replay", "--guideline", str(guideline), str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "guideline" in line
    assert "broken.yaml" in line


def test_replay_with_a_guideline_file_with_many_problems(tmp_path: Path) -> None:
    guideline = write(tmp_path, "id: x\n", "thin.yaml")
    result = runner.invoke(app, ["replay", "--guideline", str(guideline), str(write(tmp_path, scenario()))])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert re.search(r"\(and \d+ more\)$", line), line


# --- `shinpan rules`


def rules_json(*args: str) -> Any:
    result = runner.invoke(app, ["rules", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("遅刻", "pregame.tardiness"),
        ("ちこく", "pregame.tardiness"),
        ("チコク", "pregame.tardiness"),
        ("slow play", "ingame.slow-play"),
        ("SLOW PLAY", "ingame.slow-play"),
        ("ingame.slow-play", "ingame.slow-play"),
        ("八百長", "severe.collusion"),
        ("やおちょう", "severe.collusion"),
        ("ｲｶｻﾏ", "severe.cheating"),  # half-width katakana, as some phones type it
        ("marked", "cards.marked-pattern"),
    ],
)
def test_rules_search(query: str, expected: str) -> None:
    found = [inf["id"] for inf in rules_json(*query.split())]
    assert expected in found
    assert len(found) <= 3, found


def test_rules_search_by_abbreviation() -> None:
    found = {inf["id"] for inf in rules_json("デ敗")}
    with_duel_loss = {
        inf["id"]
        for inf in rules_json()
        if any("duel_loss" in step["penalties"] for step in inf["ladder"]) or "デ敗" in inf["source"]
    }
    assert found == with_duel_loss
    assert "ingame.slow-play" in found
    assert "deck.illegal-deck" not in found


def test_rules_lists_everything_as_a_table() -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "pregame.tardiness" in result.stdout
    assert "重度の違反" in result.stdout
    assert "general.unrelated-warnings" in result.stdout
    assert len(rules_json()) == 33


def test_rules_table_in_english() -> None:
    result = runner.invoke(app, ["rules", "遅刻", "--lang", "en"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Tardiness" in result.stdout
    assert "Single Warning" in result.stdout


def test_rules_no_match_is_exit_1() -> None:
    result = runner.invoke(app, ["rules", "zzzz"])
    assert result.exit_code == 1
    assert "no infraction matches" in result.stderr


@pytest.mark.parametrize(("offense", "step"), [(1, 1), (2, 2), (3, 3), (9, 3)])
def test_rules_show_the_step_that_applies(offense: int, step: int) -> None:
    shown = rules_json("show", "ingame.slow-play", "--offense", str(offense))
    assert shown["id"] == "ingame.slow-play"
    assert shown["applies"]["offense"] == offense
    assert shown["applies"]["step"] == step
    assert shown["applies"]["penalties"] == shown["ladder"][step - 1]["penalties"]


def test_rules_show_an_all_item_and_its_deadlines() -> None:
    shown = rules_json("show", "pregame.tardiness", "--offense", "4")
    assert shown["applies"]["step"] == 1
    assert shown["applies"]["penalties"] == ["warning1", "duel_loss"]
    result = runner.invoke(app, ["rules", "show", "pregame.tardiness", "--offense", "1", "--lang", "en"])
    assert result.exit_code == 0
    assert "within 10 minutes" in result.stdout
    assert "by the end of the match" in result.stdout


def test_rules_show_for_people_in_both_languages() -> None:
    ja = runner.invoke(app, ["rules", "show", "ingame.slow-play", "--offense", "2"], env={"COLUMNS": "200"})
    en = runner.invoke(
        app, ["rules", "show", "ingame.slow-play", "--offense", "2", "--lang", "en"], env={"COLUMNS": "200"}
    )
    assert ja.exit_code == en.exit_code == 0
    assert "ひどく遅いプレイ" in ja.stdout
    assert "2回目の違反: 警1 + デ敗" in ja.stdout
    assert "Slow play" in en.stdout
    assert "The 2nd offence gets: Single Warning + Duel loss" in en.stdout


def test_rules_show_a_general_rule() -> None:
    shown = rules_json("show", "general.unrelated-warnings")
    assert shown["penalties"] == ["warning1", "duel_loss"]


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "show", "ingame.no-such-thing"],
        ["rules", "show", "nope"],
        ["rules", "show"],
        ["rules", "show", "ingame.slow-play", "--offense", "0"],
    ],
)
def test_rules_show_bad_input_is_exit_1(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("error: ")
    assert result.stdout == ""


def test_rules_show_unknown_id_in_a_real_terminal() -> None:
    done = run("rules", "show", "ingame.no-such-thing")
    assert done.returncode == 1
    assert "unknown infraction 'ingame.no-such-thing'" in done.stderr
    assert "Traceback" not in done.stderr


def test_rules_with_a_broken_guideline_file(tmp_path: Path) -> None:
    guideline = write(tmp_path, "- 1\n", "g.yaml")
    result = runner.invoke(app, ["rules", "--guideline", str(guideline)])
    assert result.exit_code == 1
    assert "mapping" in result.stderr


def test_an_error_is_told_in_japanese_first_then_in_english(tmp_path: Path) -> None:
    """The head judge at the server's terminal reads an error as the desk says it."""
    db = str(tmp_path / "event.db")
    nameless = runner.invoke(app, ["event", "create", "--db", db, "--name", "春の大会"])
    assert nameless.exit_code == 1 and nameless.stdout == ""
    assert nameless.stderr == "error: ヘッドジャッジが必要です / the event needs a head judge (head_judge)\n"

    elsewhere = runner.invoke(app, ["standings", "--db", db, "--event", "99"])
    assert elsewhere.exit_code == 1
    assert elsewhere.stderr == "error: 大会 99 はありません / no event 99\n"
