"""The playoff's bracket on the scorekeeper's page (T10): each round by its Japanese name,
both players with their seeds, who went on, the wall's PDF a tap away, and the final
placings once the final is played. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shinpan.services import events, playoff, queries, rounds
from web_support import HEAD_JUDGE, World, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


def _play(w: World, round_no: int) -> None:
    """Start the round, seat a wins every table, end it."""
    rounds.start_round(w.db, w.event)
    for m in queries.round_matches(w.db, w.event, round_no)["matches"]:
        if m["player_b"] and not m["result"]:
            events.report_result(w.db, w.event, round_no, m["table"], result="a")
    events.end_round(w.db, w.event, round_no)


def _bracket(w: World) -> str:
    page = w.clients["scorekeeper"].get(f"/events/{w.event}/scorekeeper")
    assert page.status_code == 200
    text = page.text
    return text[text.index('id="playoff-bracket"') :] if 'id="playoff-bracket"' in text else ""


def test_the_scorekeeper_sees_the_bracket_as_it_stands_and_the_placings_after_the_final(world: World) -> None:
    w = world
    _play(w, 1)
    assert _bracket(w) == ""  # no playoff, no bracket
    semi = playoff.start_playoff(w.db, w.event, 4, actor=HEAD_JUDGE[0])
    shown = _bracket(w)
    assert "準決勝" in shown and "決勝" in shown and "reports/bracket?format=pdf" in shown
    names = queries.player_names(w.db, w.event, [n for p in semi.pairings for n in (p["a"], p["b"])])
    for p in semi.pairings:
        assert names[p["a"]] in shown and names[p["b"]] in shown
    _play(w, semi.round)
    playoff.pair_playoff_round(w.db, w.event, actor=HEAD_JUDGE[0])
    _play(w, semi.round + 1)
    shown = _bracket(w)
    assert "最終順位" in shown and shown.count('class="tag">勝ち') >= 3
