"""A broken guideline file: every problem at once, each naming the file, the field and what is wrong."""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from shinpan.cli import app
from shinpan.files.guidelines import default_guideline_text, guideline_schema, load_guideline
from shinpan.guideline import GuidelineError, Problem, parse_guideline
from shinpan.guideline.model import Guideline
from shinpan.guideline.schema import validate
from support import SHIPPED_YAML, VENV_BIN

SHIPPED: dict[str, Any] = yaml.safe_load(default_guideline_text())
Edit = Callable[[dict[str, Any]], object]
INDEX = {inf["id"]: n for n, inf in enumerate(SHIPPED["infractions"])}
SP = f"infractions[{INDEX['ingame.slow-play']}]"
TARDINESS = f"infractions[{INDEX['pregame.tardiness']}]"


def broken(tmp_path: Path, *edits: Edit, name: str = "broken.yaml") -> Path:
    """The shipped guideline with ``edits`` applied, written to a file."""
    data = copy.deepcopy(SHIPPED)
    for edit in edits:
        edit(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[Problem]:
    with pytest.raises(GuidelineError) as caught:
        load_guideline(path)
    assert caught.value.problems, "a GuidelineError always lists its problems"
    for p in caught.value.problems:
        assert p.file == str(path)
        assert p.message
        assert str(p).startswith(str(path))
    return caught.value.problems


def where(problems: list[Problem]) -> list[str]:
    return [p.path for p in problems]


def slow_play(data: dict[str, Any]) -> dict[str, Any]:
    return next(i for i in data["infractions"] if i["id"] == "ingame.slow-play")


# --- the shipped file


def test_the_shipped_file_loads() -> None:
    g = load_guideline(SHIPPED_YAML)
    assert (g.id, len(g.infractions)) == ("rel3-ja-1998", 33)


def test_the_shipped_file_as_json_loads_too(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(SHIPPED, ensure_ascii=False), encoding="utf-8")
    assert load_guideline(path).id == "rel3-ja-1998"


# --- shape (pydantic)


def test_wrong_types(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        lambda d: d.__setitem__("rel", "three"),
        lambda d: slow_play(d)["ladder"][0].__setitem__("penalties", "warning1"),
    )
    problems = problems_of(path)
    assert where(problems) == ["rel", f"{SP}.ladder[0].penalties"]
    assert "integer" in problems[0].message
    assert "list" in problems[1].message


def test_an_unknown_field_is_an_error_not_a_silence(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: slow_play(d).__setitem__("ladderr", [])))
    assert where(problems) == [f"{SP}.ladderr"]
    assert "not permitted" in problems[0].message


def test_a_missing_field(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: slow_play(d)["ladder"][1].pop("source")))
    assert where(problems) == [f"{SP}.ladder[1].source"]
    assert "required" in problems[0].message.lower()


def test_a_code_that_is_not_a_code(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: d["components"][0].__setitem__("code", "Caution!")))
    assert where(problems) == ["components[0].code"]


# --- meaning (checks)


def test_an_unknown_component_code_in_a_ladder(tmp_path: Path) -> None:
    path = broken(
        tmp_path, lambda d: slow_play(d)["ladder"][1].__setitem__("penalties", ["warning1", "duel_los"])
    )
    problems = problems_of(path)
    assert where(problems) == [f"{SP}.ladder[1].penalties[1]"]
    assert "unknown penalty component 'duel_los'" in problems[0].message


def test_an_unknown_effect_and_an_unknown_consequence(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        tardiness = next(i for i in d["infractions"] if i["id"] == "pregame.tardiness")
        tardiness["remedies"][1]["deadline"]["on_miss"]["effects"] = ["withdraw"]
        slow_play(d)["ladder"][0]["effects"] = ["time_extention"]

    problems = problems_of(broken(tmp_path, edit))
    assert sorted(where(problems)) == [
        f"{TARDINESS}.remedies[1].deadline.on_miss.effects[0]",
        f"{SP}.ladder[0].effects[0]",
    ]


def test_duplicate_ids(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: d["infractions"].append(copy.deepcopy(slow_play(d)))))
    assert where(problems) == ["infractions[33].id"]
    assert "duplicate rule id 'ingame.slow-play'" in problems[0].message
    assert f"{SP}.id" in problems[0].message


def test_a_duplicate_category_and_component(tmp_path: Path) -> None:
    problems = problems_of(
        broken(
            tmp_path,
            lambda d: d["categories"].append(copy.deepcopy(d["categories"][0])),
            lambda d: d["effects"].append(copy.deepcopy(d["effects"][0])),
        )
    )
    assert sorted(where(problems)) == ["categories[7].id", "effects[6].code"]


def test_a_reference_to_an_infraction_that_does_not_exist(tmp_path: Path) -> None:
    problems = problems_of(
        broken(tmp_path, lambda d: slow_play(d).__setitem__("intent_becomes", "severe.stalling"))
    )
    assert where(problems) == [f"{SP}.intent_becomes"]
    assert "no infraction 'severe.stalling'" in problems[0].message


def test_an_empty_ladder(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: slow_play(d).__setitem__("ladder", [])))
    assert where(problems) == [f"{SP}.ladder"]
    assert "empty ladder" in problems[0].message


def test_an_unknown_category(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: slow_play(d).__setitem__("category", "in-game")))
    assert where(problems) == [f"{SP}.category"]
    assert "unknown category 'in-game'" in problems[0].message


def test_a_missing_general_rule(tmp_path: Path) -> None:
    problems = problems_of(broken(tmp_path, lambda d: d["general_rules"].pop()))
    assert where(problems) == ["general_rules"]
    assert "unrelated_warnings" in problems[0].message


def test_every_problem_of_meaning_at_once(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        lambda d: slow_play(d).__setitem__("ladder", []),
        lambda d: d["infractions"][0].__setitem__("category", "nope"),
        lambda d: d["infractions"][1]["ladder"][0].__setitem__("penalties", ["warning9"]),
        lambda d: d["infractions"].append(copy.deepcopy(d["infractions"][3])),
    )
    assert sorted(where(problems_of(path))) == [
        "infractions[0].category",
        "infractions[1].ladder[0].penalties[0]",
        f"{SP}.ladder",
        "infractions[33].id",
    ]


def test_every_problem_of_shape_at_once(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        lambda d: d.__setitem__("rel", 7),
        lambda d: d.__setitem__("language", "fr"),
        lambda d: d["components"][2].__setitem__("severity", 0),
    )
    assert where(problems_of(path)) == ["rel", "language", "components[2].severity"]


# --- files that are not guideline files


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("id: rel3\ninfractions: [\n  - oops: {\n", encoding="utf-8")
    problems = problems_of(path)
    assert len(problems) == 1
    assert problems[0].path.startswith("line ")
    assert "cannot be read" in problems[0].message


@pytest.mark.parametrize("text", ["- a list\n- of things\n", "just words\n", "", "42\n"])
def test_a_file_that_is_not_a_mapping(tmp_path: Path, text: str) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = problems_of(path)
    assert "mapping" in problem.message


def test_a_missing_file(tmp_path: Path) -> None:
    (problem,) = problems_of(tmp_path / "nowhere.yaml")
    assert problem.message == "no such file"


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "sjis.yaml"
    path.write_bytes("title: 遅刻\n".encode("shift_jis"))
    (problem,) = problems_of(path)
    assert "UTF-8" in problem.message


def test_a_directory(tmp_path: Path) -> None:
    problems_of(tmp_path)


@pytest.mark.parametrize(
    ("name", "text"), [("g.json", "{"), ("g.toml", "x = "), ("g.yaml", "a: !!python/name:os.system")]
)
def test_unreadable_json_toml_and_unsafe_yaml(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    (problem,) = problems_of(path)
    assert "cannot be read" in problem.message


@pytest.mark.parametrize("name", ["g.json", "g.toml"])
def test_nesting_too_deep_is_a_problem_not_a_crash(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(("a = " if name.endswith("toml") else "") + "[" * 50_000 + "]" * 50_000, encoding="utf-8")
    (problem,) = problems_of(path)
    assert "cannot be read" in problem.message


def test_parse_guideline_names_the_file_it_is_given() -> None:
    with pytest.raises(GuidelineError) as caught:
        parse_guideline("rel: 3\n", "organiser.yaml")
    assert all(p.file == "organiser.yaml" for p in caught.value.problems)
    assert "id" in where(caught.value.problems)


# --- the command


runner = CliRunner()


def test_cli_check_the_shipped_file() -> None:
    result = runner.invoke(app, ["guideline", "check", str(SHIPPED_YAML)])
    assert result.exit_code == 0, result.output
    assert "33 infractions" in result.stdout


def test_cli_check_a_broken_file_lists_every_problem(tmp_path: Path) -> None:
    path = broken(
        tmp_path,
        lambda d: slow_play(d).__setitem__("ladder", []),
        lambda d: d["infractions"][0].__setitem__("category", "x"),
    )
    result = runner.invoke(app, ["guideline", "check", str(path)])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "2 problem(s)" in result.stderr
    assert f"{SP}.ladder" in result.stderr
    assert "infractions[0].category" in result.stderr


def test_cli_check_json_output(tmp_path: Path) -> None:
    path = broken(tmp_path, lambda d: slow_play(d).__setitem__("ladder", []))
    result = runner.invoke(app, ["guideline", "check", "--json", str(path)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["problems"] == [
        {"file": str(path), "path": f"{SP}.ladder", "message": report["problems"][0]["message"]}
    ]
    ok = json.loads(runner.invoke(app, ["guideline", "check", "--json", str(SHIPPED_YAML)]).stdout)
    assert ok == {"ok": True, "id": "rel3-ja-1998", "version": "1.0.0", "infractions": 33}


@pytest.mark.parametrize("content", [b"{not: [yaml", b"\xff\xfe\x00", b"- 1\n"])
def test_cli_check_never_a_traceback(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "g.yaml"
    path.write_bytes(content)
    run = subprocess.run(
        [str(VENV_BIN / "shinpan"), "guideline", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert str(path) in run.stderr


def test_cli_schema_is_a_json_schema_of_guideline_files() -> None:
    result = runner.invoke(app, ["guideline", "schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == json.loads(json.dumps(guideline_schema()))
    assert "infractions" in schema["properties"]
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert set(schema["required"]) >= {"id", "version", "infractions", "components"}


def test_the_shipped_file_validates_against_the_schema() -> None:
    schema = json.loads(runner.invoke(app, ["guideline", "schema"]).stdout)
    assert isinstance(validate(SHIPPED), Guideline)  # the schema's own model
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    jsonschema.validate(SHIPPED, schema)
