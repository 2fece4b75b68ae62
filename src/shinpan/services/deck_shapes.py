"""The shapes decklists and deck checks (T13) are handed out in: the CLI's ``--json`` and the
JSON API give them as they are (a stable contract)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from shinpan.entries import CheckFinding
from shinpan.entries.reading import Fields
from shinpan.store.decks import CheckRow
from shinpan.tournament.deckcheck import Findings, first_infraction


class ProblemJson(TypedDict):
    line: int | None
    message: str  # Japanese
    message_en: str


class SubmittedJson(TypedDict):
    player: str
    entry: int
    sections: dict[str, int]
    problems: list[ProblemJson]
    locked: bool


class CardJson(TypedDict):
    count: int
    name: str


class VersionJson(TypedDict):
    version: int
    entry: int
    submitted_by: str
    submitted_at: str
    reason: str | None
    digest: str


class ShownListJson(TypedDict):
    player: str
    sections: dict[str, list[CardJson]]
    problems: list[ProblemJson]
    versions: int
    entry: int
    format: str
    source: str
    digest: str
    submitted_by: str
    submitted_at: str
    reason: str | None
    history: list[VersionJson]


class ListStateJson(TypedDict):
    player: str
    state: str  # missing | registered | illegal | locked
    versions: int


class ListStatusJson(TypedDict):
    players: list[ListStateJson]
    locked: bool
    locked_at: str | None
    required: bool
    rules_set: bool
    problems: list[str]  # players whose list the desk must see to: illegal, or missing when required


class PickedJson(TypedDict):
    tables: list[int]
    round: int
    checked: dict[str, int]


class StartedJson(TypedDict):
    check: int
    round: int
    table: int
    players: list[str]
    started_at: str


class LineJson(TypedDict):
    section: str
    name: str
    count: int


ForeignJson = TypedDict("ForeignJson", {"section": str, "name": str, "count": int, "from": str})


class CountedJson(TypedDict):
    check: int
    player: str
    missing: list[LineJson]
    extra: list[LineJson]
    foreign: list[ForeignJson]
    matches: bool


class ProposalJson(TypedDict):
    infraction: str
    player: str
    facts: dict[str, str]


class FindingJson(TypedDict):
    player: str
    missing: list[LineJson]
    extra: list[LineJson]
    foreign: list[ForeignJson]
    deck_legal: bool
    list_legal: bool
    matches: bool
    recorded_by: str | None
    proposed: str | None  # the first of T13's four that applies
    proposals: list[ProposalJson]  # it, and lost-or-mixed cards for a foreign card (D8)


class EndedJson(TypedDict):
    players: list[FindingJson]
    minutes: int
    check: int
    extended: bool


class CitingJson(TypedDict):
    number: int
    player: str
    rule: str
    state: str


class CheckJson(TypedDict):
    check: int
    round: int
    table: int
    players: list[FindingJson]
    seated: list[str]
    judge: str
    started_at: str
    ended_at: str | None
    minutes: int
    extended: bool
    corrected: list[str]
    rulings: NotRequired[list[CitingJson]]
    lists: NotRequired[dict[str, dict[str, list[CardJson]]]]
    counted: NotRequired[list[str]]
    under_way: NotRequired[bool]


class DeckCorrectedJson(TypedDict):
    check: int
    player: str
    rulings: list[int]


# -- the shapes made from what a check found ---------------------------------------------------


def line_json(section: str, name: str, count: int) -> LineJson:
    return {"section": section, "name": name, "count": count}


def foreign_json(section: str, name: str, count: int, owner: str) -> ForeignJson:
    return {"section": section, "name": name, "count": count, "from": owner}


def finding_json(f: CheckFinding) -> FindingJson:
    first = first_infraction(
        Findings(f.deck_legal, f.list_legal, f.recorded_by, f.matches, tuple(x[3] for x in f.foreign))
    )
    return {
        "player": f.player,
        "missing": [line_json(s, n, c) for s, n, c in f.missing],
        "extra": [line_json(s, n, c) for s, n, c in f.extra],
        "foreign": [foreign_json(s, n, c, o) for s, n, c, o in f.foreign],
        "deck_legal": f.deck_legal,
        "list_legal": f.list_legal,
        "matches": f.matches,
        "recorded_by": f.recorded_by,
        "proposed": first,
        "proposals": [{"infraction": i, "player": p, "facts": dict(facts)} for i, p, facts in f.proposed],
    }


def ended_json(check: int, took: int, found: list[CheckFinding], extended: bool) -> EndedJson:
    return {
        "check": check,
        "players": [finding_json(f) for f in found],
        "minutes": took,
        "extended": extended,
    }


def stored_json(check: CheckRow) -> CheckJson:
    """A check as the ledger holds it (its findings once ended)."""
    findings = [CheckFinding.read(Fields(f, "deckcheck.ended")) for f in check.findings or []]
    return {
        "check": check.seq,
        "round": check.round,
        "table": check.table,
        "players": [finding_json(f) for f in findings],
        "seated": check.players,
        "judge": check.judge,
        "started_at": check.started_at,
        "ended_at": check.ended_at,
        "minutes": check.minutes or 0,
        "extended": bool(check.extended),
        "corrected": check.corrected,
    }
