"""The shipped guideline is the source, line by line, under the catalog's ids and codes.

CATALOG.md (../shared/guideline) is binding: its tables are parsed here and compared with
the data file; the source text is split on its ● and ○ marks and every item is found again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest

from shinpan.files.guidelines import default_guideline
from shinpan.guideline.model import Guideline, Infraction
from support import DATA, SOURCE_NAME, shared

G: Guideline = default_guideline()
INFRACTIONS = {i.id: i for i in G.infractions}


@dataclass(frozen=True)
class Row:
    """One infraction row of a catalog table."""

    id: str
    source: str
    columns: tuple[str, str, str]
    notes: str


@dataclass(frozen=True)
class Catalog:
    components: list[str]
    effects: list[str]
    general: dict[str, str]  # id -> source
    rows: dict[str, Row]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str], start: int) -> list[list[str]]:
    """The body rows of the markdown table whose header is at or after ``start``."""
    n = start
    while not lines[n].startswith("|"):
        n += 1
    rows = []
    for line in lines[n + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(_cells(line))
    return rows


@cache
def catalog() -> Catalog:
    text = shared("guideline", "CATALOG.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    heading = {line: n for n, line in enumerate(lines) if line.startswith("#")}
    components = [row[0].strip("`") for row in _table(lines, heading["## Penalty components"])]
    start = next(n for n, line in enumerate(lines) if line.startswith("Effects (not penalties"))
    end = lines.index("", start)
    effects = re.findall(r"`([a-z_]+)`", " ".join(lines[start:end]))
    general = {row[0].strip("`"): row[1] for row in _table(lines, heading["### General rules (●)"])}
    rows: dict[str, Row] = {}
    for title, n in heading.items():
        if title.startswith("### ") and "General rules" not in title and n < heading["## Interpretations"]:
            for row in _table(lines, n):
                rows[row[0].strip("`")] = Row(row[0].strip("`"), row[1], (row[2], row[3], row[4]), row[5])
    return Catalog(components, effects, general, rows)


def source_text() -> str:
    return (DATA / SOURCE_NAME).read_text(encoding="utf-8")


def split_codes(cell: str) -> tuple[list[str], list[str]]:
    """'warning1 + `no_mulligan`' -> (penalties, effects), by the catalog's own code lists."""
    codes = [c.strip().strip("`") for c in cell.split("+") if c.strip()]
    if codes == ["none"]:
        return [], []
    known = catalog()
    unknown = [c for c in codes if c not in known.components and c not in known.effects]
    assert not unknown, f"cannot read {cell!r}"
    return [c for c in codes if c in known.components], [c for c in codes if c in known.effects]


# --- counts and ids


def test_33_infractions_and_2_general_rules() -> None:
    assert len(G.infractions) == 33
    assert len(G.general_rules) == 2


def test_infraction_ids_are_the_catalogs() -> None:
    assert [i.id for i in G.infractions] == list(catalog().rows)


def test_general_rule_ids_are_the_catalogs() -> None:
    assert [r.id for r in G.general_rules] == list(catalog().general)
    assert {r.kind for r in G.general_rules} == {"uncategorized", "unrelated_warnings"}


def test_component_codes_are_the_catalogs_in_its_order() -> None:
    assert [c.code for c in G.components] == catalog().components


def test_effect_codes_are_the_catalogs() -> None:
    assert sorted(e.code for e in G.effects) == sorted(catalog().effects)


def test_severity_ascends_in_the_catalogs_order_and_the_draft_components_stand_outside() -> None:
    ranked = [c for c in G.components if c.severity is not None]
    assert [c.code for c in ranked] == catalog().components[:9]
    assert [c.severity for c in ranked] == sorted(c.severity for c in ranked)
    assert [c.code for c in G.components if c.severity is None] == ["draft_warning", "draft_exclusion"]


def test_caution_and_draft_warning_are_left_out_of_the_official_report() -> None:
    assert {c.code for c in G.components if not c.reported} == {"caution", "draft_warning"}


def test_categories_are_the_id_prefixes() -> None:
    assert [c.id for c in G.categories] == list(dict.fromkeys(i.id.split(".")[0] for i in G.infractions))
    assert all(i.category == i.id.split(".")[0] for i in G.infractions)


# --- the source text


def test_the_shipped_source_is_the_shared_one() -> None:
    assert source_text() == shared("guideline", SOURCE_NAME).read_text(encoding="utf-8")
    assert G.source.file == SOURCE_NAME


def test_the_heading_is_the_sources_first_line() -> None:
    assert source_text().startswith(G.source.heading)


def test_every_japanese_infraction_name_is_in_the_source_verbatim() -> None:
    text = source_text()
    missing = [i.id for i in G.infractions if i.name.ja not in text]
    assert not missing


def test_every_name_contains_the_catalogs_source_column() -> None:
    known = catalog()
    for inf in G.infractions:
        japanese = re.sub(r"\s*\([^)]*\)$", "", known.rows[inf.id].source)
        assert japanese in inf.name.ja, inf.id
    for rule in G.general_rules:
        assert known.general[rule.id] in rule.name.ja, rule.id


def test_every_abbreviation_is_in_the_source() -> None:
    text = source_text()
    abbrs = [c.abbr for c in [*G.components, *G.effects] if c.abbr] + [a.abbr for a in G.abbreviations]
    assert [a for a in abbrs if a not in text] == []


def every_source_string() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = [(f"categories.{c.id}", c.source) for c in G.categories]
    found += [(f"general_rules.{r.id}", r.source) for r in G.general_rules]
    for inf in G.infractions:
        found.append((inf.id, inf.source))
        for n, step in enumerate(inf.ladder):
            found.append((f"{inf.id}.ladder[{n}]", step.source))
            found += [(f"{inf.id}.ladder[{n}].remedies", r.source) for r in step.remedies if r.source]
            found += [
                (f"{inf.id}.ladder[{n}].remedies.deadline", r.deadline.source)
                for r in step.remedies
                if r.deadline and r.deadline.source
            ]
        found += [(f"{inf.id}.remedies", r.source) for r in inf.remedies if r.source]
        found += [
            (f"{inf.id}.remedies.deadline", r.deadline.source)
            for r in inf.remedies
            if r.deadline and r.deadline.source
        ]
    return found


def test_every_source_string_is_in_the_source_verbatim() -> None:
    text = source_text()
    strings = every_source_string()
    assert len(strings) > 33 * 2
    assert [(where, s) for where, s in strings if s not in text] == []


def test_every_remedy_of_the_source_is_encoded() -> None:
    # Each → item of an infraction is a remedy's source, or the source of a deadline it sets.
    arrows = [a.strip() for a in re.findall(r"\s{2,}(→[^●○]+)", source_text())]
    assert len(arrows) == 16
    encoded = {s for _, s in every_source_string()}
    deadlines = {
        r.deadline.source
        for inf in G.infractions
        for r in [*inf.remedies, *(r for s in inf.ladder for r in s.remedies)]
        if r.deadline
    }
    assert [a for a in arrows if a not in encoded and a.removeprefix("→") not in deadlines] == []


def source_items() -> list[str]:
    """The ● and ○ items of the source, each with its mark, as written."""
    parts = re.split(r"(?=[●○])", source_text())
    assert parts[0].startswith("◎")
    return [p.strip() for p in parts[1:]]


def test_every_line_of_the_source_is_encoded_exactly_once() -> None:
    sources = [c.source for c in G.categories] + [r.source for r in G.general_rules]
    sources += [i.source for i in G.infractions]
    items = source_items()
    assert len(items) == 2 + 7 + 33
    for item in items:
        assert sources.count(item) == 1, item
    assert sorted(sources) == sorted(items)


# --- the ladders, step by step, against the catalog's 1) 2) 3) columns


SPECIAL = {"draft.standard", "pregame.tardiness"}


@pytest.mark.parametrize("rule", [i.id for i in G.infractions if i.id not in SPECIAL])
def test_ladder_penalties_are_the_catalogs(rule: str) -> None:
    row = catalog().rows[rule]
    inf = INFRACTIONS[rule]
    first = row.columns[0]
    if first.startswith("all:"):
        assert inf.all_offenses
        assert [c for c in row.columns[1:] if c] == []
        columns = [first.removeprefix("all:").strip()]
    else:
        assert not inf.all_offenses
        columns = [c for c in row.columns if c and c != "—"]
    assert len(inf.ladder) == len(columns)
    for step, cell in zip(inf.ladder, columns, strict=True):
        penalties, effects = split_codes(cell)
        assert step.penalties == penalties, (rule, cell)
        # An effect the catalog gives in the notes column (slow play's time_extension after
        # the 1st) may sit on the step; any other effect must be in the cell itself.
        in_notes = set(re.findall(r"`([a-z_]+)`", row.notes))
        assert set(effects) <= set(step.effects) <= set(effects) | in_notes, (rule, cell)
        assert step.if_same_as_previous == []


def test_ladder_of_standard_draft_violations() -> None:
    row = catalog().rows["draft.standard"]
    assert row.columns == (
        "draft_warning",
        "draft_warning, + draft_exclusion if the same kind as before",
        "draft_warning + draft_exclusion",
    )
    inf = INFRACTIONS["draft.standard"]
    assert [(s.penalties, s.if_same_as_previous) for s in inf.ladder] == [
        (["draft_warning"], []),
        (["draft_warning"], ["draft_exclusion"]),
        (["draft_warning", "draft_exclusion"], []),
    ]
    assert inf.counting.value == "draft"
    assert inf.kinds == ["talking", "noise", "too-fast", "too-slow", "other"]


def test_ladder_of_tardiness() -> None:
    row = catalog().rows["pregame.tardiness"]
    assert row.columns[0] == "all: at once warning1 + duel_loss; at 10 minutes + duel_loss"
    inf = INFRACTIONS["pregame.tardiness"]
    assert inf.all_offenses
    assert [s.penalties for s in inf.ladder] == [["warning1", "duel_loss"]]
    deadlines = [r.deadline for r in inf.remedies if r.deadline]
    assert [(d.when.value, d.minutes) for d in deadlines] == [("minutes", 10), ("end_of_match", None)]
    assert [(d.on_miss.penalties, d.on_miss.effects) for d in deadlines if d.on_miss] == [
        (["duel_loss"], []),
        ([], ["withdrawn"]),
    ]


def test_marked_cards_without_a_pattern_cost_nothing_but_a_match_loss_after_10_minutes() -> None:
    assert catalog().rows["cards.marked-no-pattern"].columns[0] == "all: none"
    inf = INFRACTIONS["cards.marked-no-pattern"]
    assert [s.penalties for s in inf.ladder] == [[]]
    (deadline,) = [r.deadline for r in inf.remedies if r.deadline]
    assert (deadline.minutes, deadline.on_miss and deadline.on_miss.penalties) == (10, ["match_loss"])


def every_code_of(inf: Infraction) -> set[str]:
    codes = set(inf.effects)
    remedies = list(inf.remedies)
    for step in inf.ladder:
        codes |= {*step.penalties, *step.effects, *step.if_same_as_previous}
        remedies += step.remedies
    for remedy in remedies:
        if remedy.deadline and remedy.deadline.on_miss:
            codes |= {*remedy.deadline.on_miss.penalties, *remedy.deadline.on_miss.effects}
    return codes


@pytest.mark.parametrize("rule", [i.id for i in G.infractions])
def test_every_code_in_the_catalogs_notes_is_encoded(rule: str) -> None:
    row = catalog().rows[rule]
    named = {c for c in re.findall(r"`([a-z_]+)`", row.notes)}
    named |= set(re.findall(r"\{([a-z_]+)\}", row.notes))
    named -= {"venue_removal"}  # D8: the engine gives it to a non-participant advisor's ruling
    assert named <= every_code_of(INFRACTIONS[rule])


def test_remedy_deadlines_are_the_readmes_in_order() -> None:
    with_consequence = [
        (inf.id, r.deadline.when.value, r.deadline.minutes)
        for inf in G.infractions
        for r in [*inf.remedies, *(r for s in inf.ladder for r in s.remedies)]
        if r.deadline and r.deadline.on_miss
    ]
    assert with_consequence == [
        ("players.no-life-record", "minutes", 2),
        ("cards.marked-no-pattern", "minutes", 10),
        ("pregame.tardiness", "minutes", 10),
        ("pregame.tardiness", "end_of_match", None),
        ("ingame.early-withdrawal", "end_of_round", None),
    ]


def test_several_subjects_are_the_catalogs_d8_items() -> None:
    subjects = {i.id: [s.value for s in i.subjects] for i in G.infractions if i.subjects}
    assert subjects == {
        "deck.decklist-recording": ["recorded_by"],
        "deck.lost-or-mixed-cards": ["mixed_into"],
        "players.advice": ["advisor"],
    }


def test_general_rules_say_what_the_catalog_says() -> None:
    unrelated = next(r for r in G.general_rules if r.kind == "unrelated_warnings")
    assert (unrelated.penalties, unrelated.threshold, unrelated.counted_component) == (
        ["warning1", "duel_loss"],
        3,
        "warning1",
    )
    uncategorized = next(r for r in G.general_rules if r.kind == "uncategorized")
    assert uncategorized.penalties == []
    assert G.confirmation_threshold == "warning1"


def test_discretion_is_marked_where_the_source_leaves_it_to_the_judge() -> None:
    steps = [(i.id, n) for i in G.infractions for n, s in enumerate(i.ladder, 1) if s.discretion]
    assert steps == [("severe.unsporting-conduct", 2)]
    assert [e.code for e in G.effects if e.discretionary] == ["time_extension"]


def test_every_infraction_has_english_and_a_reading() -> None:
    for inf in G.infractions:
        assert inf.name.en and inf.reading, inf.id
        assert re.fullmatch(r"[ぁ-ゖー・/0-9 ]+", inf.reading), (inf.id, inf.reading)
