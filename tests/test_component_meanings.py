"""What a component does is declared in the guideline file (``acts_as``), and the engine acts
on that, never on a component's code: a file that calls the duel loss ``game_loss`` applies a
duel loss all the same; one that leaves a meaning out or gives it twice is refused."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from shinpan.engine import Record, decide, explain
from shinpan.engine.effects import DuelResult, Match, PlayerView, plan_ruling
from shinpan.engine.event_rules import Status
from shinpan.files.guidelines import default_guideline, default_guideline_text, load_guideline
from shinpan.guideline import GuidelineError, Rulebook

SHIPPED: dict[str, Any] = yaml.safe_load(default_guideline_text())


def renamed(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped guideline with the component ``old`` called ``new`` everywhere."""
    text = yaml.safe_dump(SHIPPED, allow_unicode=True, sort_keys=False)
    text = text.replace(f"code: {old}", f"code: {new}").replace(f"- {old}\n", f"- {new}\n")
    text = (
        text.replace(f"[{old}]", f"[{new}]").replace(f"{old},", f"{new},").replace(f", {old}]", f", {new}]")
    )
    path = tmp_path / "renamed.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def edited(tmp_path: Path, edit: Any) -> Path:
    data = copy.deepcopy(SHIPPED)
    edit(data)
    path = tmp_path / "edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def component(data: dict[str, Any], code: str) -> dict[str, Any]:
    return next(c for c in [*data["components"], *data["effects"]] if c["code"] == code)


def test_the_shipped_guideline_declares_what_its_components_do() -> None:
    book = Rulebook(default_guideline())
    assert book.acts(["warning1", "duel_loss", "match_loss", "ejection", "disqualification"]) == (
        "",
        "duel_loss",
        "match_loss",
        "ejection",
        "disqualification",
    )
    assert book.acts(["withdrawn", "match_draw", "time_extension", "no_mulligan"]) == (
        "withdrawn",
        "match_draw",
        "time_extension",
        "",
    )


def test_a_duel_loss_called_otherwise_still_lands_on_the_duel(tmp_path: Path) -> None:
    book = Rulebook(load_guideline(renamed(tmp_path, "duel_loss", "game_loss")))
    history = {"A": decide(book, Record("A", "ingame.slow-play"), {}, {"A"})}
    (second,) = decide(book, Record("A", "ingame.slow-play"), history, {"A"})
    assert second.penalties == ("warning1", "game_loss")
    view = PlayerView("A", Status.active, Match(round=1, table=3, a="A", b="B"))
    assert plan_ruling(view, 2, book.acts(second.penalties), pending=True) == [DuelResult(1, 3, 1, "B", 2)]


def test_a_draft_exclusion_called_otherwise_still_triggers_d6(tmp_path: Path) -> None:
    book = Rulebook(load_guideline(renamed(tmp_path, "draft_exclusion", "kicked_from_draft")))
    first = decide(book, Record("A", "draft.excessive"), {}, {"A"})
    (second, *added) = decide(book, Record("A", "draft.excessive"), {"A": first}, {"A"})
    assert second.penalties == ("kicked_from_draft",)
    assert [r.rule for r in added] == ["draft.exclusion"]


def test_a_guideline_that_does_not_say_what_acts_as_a_match_loss_is_refused(tmp_path: Path) -> None:
    path = edited(tmp_path, lambda d: component(d, "match_loss").pop("acts_as"))
    with pytest.raises(GuidelineError) as caught:
        load_guideline(path)
    assert any("acts as 'match_loss'" in p.message for p in caught.value.problems)


def test_two_components_that_both_act_as_an_ejection_are_refused(tmp_path: Path) -> None:
    path = edited(tmp_path, lambda d: component(d, "disqualification").update(acts_as="ejection"))
    with pytest.raises(GuidelineError) as caught:
        load_guideline(path)
    assert [p.path for p in caught.value.problems if "already what" in p.message] == ["components[8].acts_as"]


def test_an_effect_called_otherwise_is_explained_by_what_it_does(tmp_path: Path) -> None:
    shipped = Rulebook(default_guideline())
    book = Rulebook(load_guideline(renamed(tmp_path, "match_draw", "tie")))
    record = Record("A", "players.wrong-opponent")
    (ruling,) = decide(book, record, {}, {"A"})
    (same,) = decide(shipped, record, {}, {"A"})
    assert (ruling.effects, same.effects) == (("tie",), ("match_draw",))
    # The remedy already says the match is a draw: neither explanation says it twice.
    assert explain(book, ruling, "ja") == explain(shipped, same, "ja")
