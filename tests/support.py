"""What the tests share: where things are, and a way to write a scenario like the guideline.

rulings = play("A: ingame.slow-play", "A: ingame.slow-play")
rulings = play(rec("A", "draft.standard", draft="D1", kind="talking"), missed(0), void(0))
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings

from shinpan.engine import replay
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.guideline.model import Question

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the repository; scripts/mutation runs a copy of the tests one folder down.
SHARED = next(
    (p / "shared" for p in Path(__file__).resolve().parents[2:4] if (p / "shared").is_dir()),
    Path(__file__).resolve().parents[2] / "shared",
)
DATA = ROOT / "src" / "shinpan" / "guideline" / "data"
SOURCE_NAME = "000_250c4ad0458705b9.txt"
SHIPPED_YAML = DATA / "rel3-ja-1998.yaml"
VENV_BIN = ROOT / ".venv" / "bin"

BOOK = Rulebook(default_guideline())


def examples(usual: int) -> int:
    """How many examples a property test tries: ``usual``, or SHINPAN_EXAMPLES when set
    (scripts/mutation runs the pure tests against hundreds of changed rules with a few)."""
    return int(os.environ.get("SHINPAN_EXAMPLES", usual))


# Under mutation (SHINPAN_EXAMPLES set) the first failing example kills the mutant as it
# stands: shrinking it (a big event shrinks for minutes) would only spend the mutant's time
# limit, and no example is kept from one mutant for the next, so a figure does not depend
# on the order the mutants ran in.
if "SHINPAN_EXAMPLES" in os.environ:
    settings.register_profile("mutation", phases=[Phase.explicit, Phase.generate], database=None)
    settings.load_profile("mutation")


PLAYERS = ("A", "B", "C")
FACTS = {q.value for q in Question}


def shared(*parts: str) -> Path:
    """A path under ../shared; the test is skipped when that folder is not beside the repo."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is missing: the catalog and conformance cases live there")
    return SHARED.joinpath(*parts)


def rec(
    player: str,
    infraction: str,
    *,
    draft: str | None = None,
    penalties: list[str] | None = None,
    deviation: tuple[list[str], str] | None = None,
    **facts: object,
) -> dict[str, Any]:
    """An infraction event; keyword arguments named like the facts become facts."""
    unknown = set(facts) - FACTS
    assert not unknown, f"not facts: {unknown}"
    event: dict[str, Any] = {"player": player, "infraction": infraction}
    if draft is not None:
        event["draft"] = draft
    if penalties is not None:
        event["penalties"] = penalties
    if deviation is not None:
        event["deviation"] = {"penalties": deviation[0], "reason": deviation[1]}
    if facts:
        event["facts"] = facts
    return event


def missed(index: int) -> dict[str, Any]:
    return {"missed": index}


def void(index: int) -> dict[str, Any]:
    return {"void": index}


def event(item: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    match = re.fullmatch(r"(\w+): ([\w.-]+)", item)
    assert match, f"write an event as 'PLAYER: infraction.id', not {item!r}"
    return rec(match[1], match[2])


def scenario(*items: str | dict[str, Any], players: tuple[str, ...] = PLAYERS) -> dict[str, Any]:
    return {"players": list(players), "events": [event(i) for i in items]}


def play(*items: str | dict[str, Any], players: tuple[str, ...] = PLAYERS) -> list[dict[str, Any]]:
    """Replay the events with the shipped guideline; the rulings in the contract's shape."""
    return replay(BOOK, scenario(*items, players=players))


def brief(r: dict[str, Any]) -> tuple[Any, ...]:
    """A ruling as (event, player, rule, offense, penalties): what most tests compare."""
    return (r["event"], r["player"], r["rule"], r["offense"], r["penalties"])


def of(rulings: list[dict[str, Any]], **match: object) -> list[dict[str, Any]]:
    """The rulings whose fields equal every keyword given."""
    return [r for r in rulings if all(r.get(k) == v for k, v in match.items())]


def one(rulings: list[dict[str, Any]], **match: object) -> dict[str, Any]:
    found = of(rulings, **match)
    assert len(found) == 1, f"expected one ruling with {match}, got {found}"
    return found[0]
