"""What the guideline file declares for the engine, never read from an id (issue 32, D6, D21,
D23): an infraction's ``role`` (the draft exclusion) and a deadline's ``clock`` (from the
round's start, on the table's time). A file that declares none of them was written before
they existed and is read as the catalogue's ids meant it; a file that declares any is read as
it is. Pure: texts in, checked guidelines and decisions out.

Read `declared(lambda d: ...)` as "the shipped file with this edit, read and checked".
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from shinpan.engine import Record, decide
from shinpan.files.guidelines import default_guideline_text
from shinpan.guideline import GuidelineError, Rulebook, parse_guideline
from shinpan.guideline.declared import declares
from shinpan.guideline.model import Clock, Guideline, Role

SHIPPED: dict[str, Any] = yaml.safe_load(default_guideline_text())


def infraction(data: dict[str, Any], rule: str) -> dict[str, Any]:
    found: dict[str, Any] = next(i for i in data["infractions"] if i["id"] == rule)
    return found


def declared(*edits: Callable[[dict[str, Any]], object]) -> Guideline:
    data = copy.deepcopy(SHIPPED)
    for edit in edits:
        edit(data)
    return parse_guideline(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "edited.yaml")


def problems(*edits: Callable[[dict[str, Any]], object]) -> list[str]:
    with pytest.raises(GuidelineError) as caught:
        declared(*edits)
    return [f"{p.path}: {p.message}" for p in caught.value.problems]


def clocks(g: Guideline, rule: str) -> dict[str, str | None]:
    inf = next(i for i in g.infractions if i.id == rule)
    remedies = [*inf.remedies, *(r for step in inf.ladder for r in step.remedies)]
    return {
        r.deadline.when.value: (r.deadline.runs_on.value if r.deadline.runs_on else None)
        for r in remedies
        if r.deadline
    }


def tardiness_deadlines(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [r["deadline"] for r in infraction(data, "pregame.tardiness")["remedies"]]


# --- the shipped file, published before it could declare: read as the catalogue meant it


def test_the_shipped_file_declares_nothing_and_is_read_as_the_catalogue_meant_it() -> None:
    text = default_guideline_text()
    assert "role:" not in text and "clock:" not in text  # a published file is never edited
    g = parse_guideline(text)
    assert [i.id for i in g.infractions if i.role is Role.draft_exclusion] == ["draft.exclusion"]
    assert clocks(g, "pregame.tardiness") == {"minutes": "round_start", "end_of_match": "table_time"}
    assert clocks(g, "cards.marked-no-pattern") == {"minutes": "given"}  # the kind's default


# --- a file that declares: read as written, whatever its ids


def renamed_ids(data: dict[str, Any]) -> None:
    """Every infraction id changed (same categories), the roles and clocks declared."""
    for inf in data["infractions"]:
        inf["id"] = inf["id"] + "-x"
    infraction(data, "draft.exclusion-x")["role"] = "draft_exclusion"
    minutes, match_end = (r["deadline"] for r in infraction(data, "pregame.tardiness-x")["remedies"])
    minutes["clock"], match_end["clock"] = "round_start", "table_time"
    for inf in data["infractions"]:
        if inf.get("intent_becomes"):
            inf["intent_becomes"] += "-x"


def test_d6_the_draft_exclusion_is_the_infraction_that_declares_the_role_whatever_its_id() -> None:
    book = Rulebook(declared(renamed_ids))
    assert book.draft_exclusion is not None and book.draft_exclusion.id == "draft.exclusion-x"
    first = decide(book, Record("A", "draft.excessive-x"), {}, {"A"})
    made = decide(book, Record("A", "draft.excessive-x"), {"A": list(first)}, {"A"})
    assert [r.rule for r in made] == ["draft.excessive-x", "draft.exclusion-x"]


def test_d21_d23_tardiness_s_deadlines_run_on_what_the_file_declares_whatever_its_id() -> None:
    book = Rulebook(declared(renamed_ids))
    (late,) = decide(book, Record("A", "pregame.tardiness-x"), {}, {"A"})
    assert [(d.when, d.clock) for d in late.dues] == [
        ("minutes", "round_start"),
        ("end_of_match", "table_time"),
    ]


def test_a_file_that_declares_anything_is_read_as_written() -> None:
    def clocked_elsewhere(data: dict[str, Any]) -> None:
        marked = infraction(data, "cards.marked-no-pattern")["remedies"][0]["deadline"]
        marked["clock"] = "given"
        infraction(data, "draft.exclusion")["role"] = "draft_exclusion"

    g = declared(clocked_elsewhere)
    assert declares(g)
    assert clocks(g, "pregame.tardiness") == {"minutes": "given", "end_of_match": "match_result"}


def test_d6_a_draft_exclusion_component_needs_an_infraction_declared_for_it() -> None:
    def no_role(data: dict[str, Any]) -> None:
        infraction(data, "cards.marked-no-pattern")["remedies"][0]["deadline"]["clock"] = "given"

    assert problems(no_role) == [
        "infractions: 'draft_exclusion' acts as draft_exclusion: one infraction must declare role "
        "draft_exclusion (D6)"
    ]


def test_d6_two_infractions_cannot_both_be_the_draft_exclusion() -> None:
    def twice(data: dict[str, Any]) -> None:
        infraction(data, "draft.exclusion")["role"] = "draft_exclusion"
        infraction(data, "draft.excessive")["role"] = "draft_exclusion"

    index = [i["id"] for i in SHIPPED["infractions"]].index("draft.exclusion")
    assert problems(twice) == [
        f"infractions[{index}].role: another infraction already declares role draft_exclusion (D6)"
    ]


@pytest.mark.parametrize(
    ("when", "clock"),
    [("minutes", "table_time"), ("minutes", "match_result"), ("end_of_match", "round_start")],
)
def test_d21_d23_a_deadline_declares_only_a_clock_its_kind_can_run_on(when: str, clock: str) -> None:
    position = {"minutes": 0, "end_of_match": 1}[when]

    def wrong(data: dict[str, Any]) -> None:
        infraction(data, "draft.exclusion")["role"] = "draft_exclusion"  # a file that declares
        tardiness_deadlines(data)[position]["clock"] = clock

    index = [i["id"] for i in SHIPPED["infractions"]].index("pregame.tardiness")
    (found,) = problems(wrong)
    assert found.startswith(
        f"infractions[{index}].remedies[{position}].deadline.clock: a deadline of when {when}"
    )


def test_the_clocks_a_kind_may_declare() -> None:
    assert [c.value for c in Clock] == ["given", "round_start", "match_result", "table_time"]


def test_a_deadline_in_the_ledger_finds_its_clock_in_the_event_s_guideline() -> None:
    book = Rulebook(parse_guideline(default_guideline_text()))
    inf = book.infractions["pregame.tardiness"]
    worded = inf.remedies[1].text.ja
    assert book.deadline_clock("pregame.tardiness", "end_of_match", worded) == "table_time"
    # worded otherwise (a file's wording changed between versions): the kind's deadline of that rule
    assert book.deadline_clock("pregame.tardiness", "end_of_match", "ほかの言い方") == "table_time"
    assert book.deadline_clock("pregame.tardiness", "end_of_round", worded) == ""  # no such deadline
    assert book.deadline_clock("no.such-rule", "minutes", worded) == ""
