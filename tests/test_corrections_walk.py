"""Corrections say what they change (issue 31): a correction to the result that already
stands is refused as changing nothing, on every path (the rule, the service, the CLI)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from conftest import EventSetup, run_cli
from shinpan.errors import InvalidInput
from shinpan.services import rounds
from shinpan.services.results import Wanted, report_result
from shinpan.tournament.results import MatchReport, ScoreReport, Verdict, parse_score
from test_interpretations_results import ask, table
from web_support import World, worlds


def test_t11_a_correction_to_the_result_that_stands_changes_nothing() -> None:
    stands = table("a", "b", "a", result="a")
    assert ask(stands, ScoreReport(parse_score("2-1")), replaces="2-1", reason="x") is Verdict.unchanged
    assert ask(stands, ScoreReport(parse_score("1-2")), replaces="2-1", reason="x") is Verdict.correction
    assert ask(table(result="a"), MatchReport("a"), replaces="a", reason="x") is Verdict.unchanged


def test_the_same_score_again_is_refused_as_no_change(ev: EventSetup, db_url: str) -> None:
    rounds.start_round(ev.db, ev.id)
    report_result(ev.db, ev.id, 1, 1, Wanted(score="2-1"))
    with pytest.raises(InvalidInput, match="changes nothing"):
        report_result(ev.db, ev.id, 1, 1, Wanted(score="2-1", replaces="2-1", reason="見直し"))
    said = run_cli(
        "result", "--event", str(ev.id), "--round", "1", "--table", "1", "--score", "2-1",
        "--replaces", "2-1", "--reason", "見直し", db=db_url,
    )  # fmt: skip
    assert said.returncode != 0 and "この訂正では何も変わりません" in said.stderr


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=2, spare=0)


def test_printing_penalty_slips_with_nothing_chosen_is_a_clear_page(world: World) -> None:
    hj = world.clients["head_judge"]
    url = f"/api/events/{world.event}/reports/penalty-slips?format=pdf"
    api = hj.get(url)  # a script: JSON, as before
    assert api.status_code == 422 and api.json()["field"] == "rulings"
    page = hj.get(url, headers={"Sec-Fetch-Mode": "navigate", "Accept": "text/html"})  # the desk's form
    assert page.status_code == 422 and page.headers["content-type"].startswith("text/html")
    assert "印刷するペナルティ通知を、ラウンドか裁定番号で指定してください" in page.text
    assert '{"detail"' not in page.text


def test_a_deviation_on_the_cli_names_the_rulings_it_voided(ev: EventSetup, db_url: str) -> None:
    from shinpan.services import queries

    for infraction in ("ingame.slow-play", "pregame.shuffle-cut", "ingame.extra-cards-drawn"):
        ev.record("P001", infraction)  # the third unrelated warning brings an additional ruling (D3)
    added = [r["number"] for r in queries.player_history(ev.db, ev.id, "P001")["rulings"]][3:]
    assert added, "the third unrelated warning adds a ruling"
    said = run_cli(
        "deviate", "1", "--event", str(ev.id), "--penalty", "notice", "--reason", "初めての大会", db=db_url
    )
    assert said.returncode == 0, said.stderr
    assert "裁定 1: 通" in said.stdout
    for n in added:  # what the correction undid is named, not left to be found
        assert f"この訂正で取り消された裁定: 裁定 {n} 選手 1(P001)" in said.stdout, said.stdout


def test_the_json_api_names_the_rulings_a_deviation_and_a_void_voided_or_added(world: World) -> None:
    w, hj = world, world.clients["head_judge"]
    player = "P002"  # its own player: the other tests of the module leave it alone
    first = w.record(player, "ingame.slow-play")
    for infraction in ("pregame.shuffle-cut", "ingame.extra-cards-drawn"):
        w.record(player, infraction)  # the third unrelated warning brings an additional ruling (D3)
    extra = w.rulings_of(player)[-1]
    assert extra["rule"] == "general.unrelated-warnings"
    url = f"/api/events/{w.event}/rulings/{first}"
    answer = hj.post(
        f"{url}/deviate", json={"penalties": ["notice"], "reason": "初めての大会", "command_id": w.cid("dev")}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["penalties"] == ["notice"]  # the keys it had are kept
    (gone,) = body["rederived"]["voided"]
    assert (gone["number"], gone["player"], gone["rule"]) == (extra["number"], player, extra["rule"])
    assert gone["player_name"] and body["rederived"]["added"] == []
    back = hj.post(
        f"{url}/deviate", json={"penalties": ["warning1"], "reason": "見直し", "command_id": w.cid("dev2")}
    ).json()
    (again,) = back["rederived"]["added"]  # the warning back: the additional ruling comes again
    assert again["rule"] == "general.unrelated-warnings" and again["player"] == player
    voided = hj.post(f"{url}/void", json={"reason": "記録の誤り", "command_id": w.cid("void")}).json()
    assert voided["voided"] == [first]
    assert [r["number"] for r in voided["rederived"]["voided"]] == [again["number"]]


def test_the_desk_says_which_rulings_a_deviation_voided(world: World) -> None:
    w, hj = world, world.clients["head_judge"]
    player = "P001"
    first = w.record(player, "ingame.slow-play")
    for infraction in ("pregame.shuffle-cut", "ingame.extra-cards-drawn"):
        w.record(player, infraction)
    extra = w.rulings_of(player)[-1]["number"]
    answer = hj.post(
        f"/events/{w.event}/desk/deviate/{first}",
        data={"penalties": "notice", "reason": "初めての大会", "command_id": w.cid("desk-dev")},
    )
    assert answer.status_code == 200, answer.text
    (said,) = re.findall(r'<div class="flash ok rederived"[^>]*>(.*?)</div>', answer.text, re.S)
    assert "この訂正で取り消された裁定" in said and f"#{extra}" in said and "関連しない単一警告" in said, said
