"""T9: every view of the standings shows the event's own tiebreaker chain — its keys, named
and valued, in the chain's order, ``seeded`` as a number — and names the chain: the
scorekeeper's Matches page, the players' standings, the wall's PDF, HTML and CSV, and the CLI.
An event ranked by OMW, OOMW then the seeded order shows those, not OMW / GW / OGW."""

from __future__ import annotations

import csv
import io
import re
import subprocess
from collections.abc import Iterator

import pytest

from conftest import run_cli
from shinpan.files.csvio import PlayerRow
from shinpan.reports.formats import render
from shinpan.reports.venue import venue_standings
from shinpan.services import accounts, events, formats, publish, rounds, swiss
from shinpan.services.results import Wanted, report_result
from shinpan.services.scoresheet import round_sheet
from shinpan.views.standings import event_standings
from web_support import HEAD_JUDGE, World, worlds


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=2, spare=0)


def played_event(w: World, tiebreakers: str | None) -> int:
    """Eight players, round 1 played (tables 1 and 3 won by seat a, 2 and 4 by b) and ended."""
    hj = accounts.account_named(w.db, HEAD_JUDGE[0])
    assert hj is not None
    e = events.create_event(
        w.db, name="タイブレーク大会", head_judge=HEAD_JUDGE[0], head_judge_level=HEAD_JUDGE[2],
        head_judge_account=hj.uid,
    )  # fmt: skip
    if tiebreakers:
        formats.set_format(w.db, e, match_format="bo1", time_out="both-lose", tiebreakers=tiebreakers)
    events.import_players(w.db, e, [PlayerRow(f"{3000 + i}", f"選手{i}", "せんしゅ", None) for i in range(8)])
    swiss.pair_next_round(w.db, e, seed=4)
    rounds.start_round(w.db, e)
    for row in round_sheet(w.db, e, 1).rows:
        report_result(w.db, e, 1, row.table, Wanted(match="a" if row.table % 2 else "b"))
    events.end_round(w.db, e)
    return e


def keys_in(html: str) -> list[str]:
    return re.findall(r'<th class="[^"]*tiebreaker[^"]*" data-key="(\w+)"', html)


def test_an_event_ranked_by_omw_oomw_then_seeded_shows_that_chain_everywhere(world: World) -> None:
    w = world
    e = played_event(w, "omw,oomw,seeded")
    table = event_standings(w.db, e, 1)
    seeded = {s.player: str(s.seeded) for s in table.rows}
    assert sorted(seeded.values(), key=int) == [str(n) for n in range(1, 9)]

    # The scorekeeper's Matches page.
    page = w.clients["head_judge"].get(f"/events/{e}/scorekeeper").text
    assert keys_in(page) == ["omw", "oomw", "seeded"]
    assert "OMW → OOMW → シード順" in page
    for player, place in seeded.items():
        row = re.search(rf'<tr class="status-active">.*?>{player}<.*?</tr>', page, re.S)
        assert row is not None and f'data-key="seeded">{place}</td>' in row.group(0), player

    # The players' standings.
    token = publish.publish(w.db, e).token
    public = w.clients["signed_out"].get(f"/p/{token}/standings").text
    assert keys_in(public) == ["omw", "oomw", "seeded"] and "OMW → OOMW → シード順" in public

    # The wall: CSV, HTML, PDF.
    sheet = venue_standings(w.db, e, 1)
    header, *rows = list(csv.reader(io.StringIO(render(sheet, "csv").content.decode("utf-8-sig"))))
    assert header[8:11] == ["対戦相手のマッチ勝率 / OMW", "対戦相手の平均OMW / OOMW", "シード順 / seeded"]
    assert {r[1]: r[10] for r in rows} == seeded
    html = render(sheet, "html").content.decode("utf-8")
    assert (
        "OOMW" in html
        and "OGW" not in html
        and "タイブレーク: 対戦相手のマッチ勝率 → 対戦相手の平均OMW → シード順" in html
    )
    pdf = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=render(sheet, "pdf").content, capture_output=True, timeout=60,
        check=True,
    ).stdout.decode("utf-8")  # fmt: skip
    assert "シード順" in pdf and "OGW" not in pdf

    # The CLI.
    shown = run_cli("standings", "--event", str(e), db=str(w.db.url))
    assert shown.returncode == 0, shown.stderr
    head = next(line for line in shown.stdout.splitlines() if "rank" in line)  # the headings' last line
    assert head.index(" OMW") < head.index("OOMW") < head.index("seeded") and "OGW" not in shown.stdout
    assert "マッチポイント、OMW・OOMW・シード順の順" in shown.stdout


def test_the_default_chain_shows_omw_gw_ogw(world: World) -> None:
    w = world
    e = played_event(w, None)
    page = w.clients["head_judge"].get(f"/events/{e}/scorekeeper").text
    assert keys_in(page) == ["omw", "gw", "ogw"] and "OMW → GW → OGW" in page
    header = next(
        csv.reader(io.StringIO(render(venue_standings(w.db, e, 1), "csv").content.decode("utf-8-sig")))
    )
    assert [h.split(" / ")[1] for h in header[8:11]] == ["OMW", "GW", "OGW"]
