"""What a judge must not do by accident, on the pages (SQLite; the engine's part is in
``test_accidents``, on both databases): a deviation that changes nothing is refused in
Japanese; what a correction re-derived (D16) is named, with the correction's reason shown
as the correction's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from shinpan.services import corrections
from test_japanese_screens import shown
from web_support import World, build_world, csrf_in, database_url

SLOW, EXTRA, FACTS = "ingame.slow-play", "ingame.extra-cards-drawn", "ingame.disagreement-on-facts"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with database_url("sqlite", tmp_path_factory.mktemp("accidents")) as url:
        w = build_world(url, players=8, spare=0)
        try:
            yield w
        finally:
            w.close()


def page(world: World, path: str) -> str:
    r = world.clients["head_judge"].get(path)
    assert r.status_code == 200, r.text[:300]
    return shown(r.text)


def test_a_deviation_to_the_guidelines_penalties_is_refused_on_the_ruling_page(world: World) -> None:
    n = world.record("P001", "ingame.cards-off-table")  # 通
    hj = world.clients["head_judge"]
    token = csrf_in(hj.get(f"/events/{world.event}/rulings/{n}").text)
    for attempt in range(2):  # twice in a row: refused each time
        r = hj.post(f"/events/{world.event}/rulings/{n}/deviate", csrf=False,
                    data={"csrf_token": token, "command_id": world.cid(), "penalties": ["notice"],
                          "reason": "ガイドラインどおり"})  # fmt: skip
        assert r.status_code == 422, (attempt, r.status_code)
        assert "これはガイドラインどおりの罰則です" in shown(r.text)
    assert world.rulings_of("P001")[0]["deviation_reason"] is None


def test_a_deviation_to_the_guidelines_penalties_given_when_recording_is_refused(world: World) -> None:
    hj = world.clients["head_judge"]
    body = {"player": "P003", "infraction": "ingame.cards-off-table", "command_id": world.cid(),
            "deviation": {"penalties": ["notice"], "reason": "ガイドラインどおり"}}  # fmt: skip
    r = hj.post(f"/api/events/{world.event}/rulings", json=body, headers={"Accept-Language": "ja"})
    assert r.status_code == 422, r.text
    assert "これはガイドラインどおりの罰則です" in r.text
    assert world.rulings_of("P003") == []


def test_an_additional_ruling_voided_by_a_deviation_names_it_and_its_reason(world: World) -> None:
    slow = world.record("P003", SLOW)
    world.record("P003", EXTRA)
    world.record("P003", FACTS)  # the third unrelated warning: an additional ruling (D3)
    (extra,) = [r["number"] for r in world.rulings_of("P003") if r["rule"] == "general.unrelated-warnings"]
    corrections.deviate(world.db, world.event, slow, ["caution"], "初参加のため", command_id=world.cid())
    assert next(r for r in world.rulings_of("P003") if r["number"] == extra)["state"] == "voided"

    voided = page(world, f"/events/{world.event}/rulings/{extra}")
    said = re.sub(r"\s+", " ", voided)
    assert f"裁定 #{slow} の訂正" in said or f"裁定 #{slow}の訂正" in said
    assert "訂正の理由: 「初参加のため」" in said
    assert "取り消し済み: 初参加のため" not in said  # not as its own void reason

    corrected = re.sub(r"\s+", " ", page(world, f"/events/{world.event}/rulings/{slow}"))
    assert "この訂正で取り消した追加の裁定" in corrected and f"#{extra}" in corrected

    # Deviated back: the correction adds the additional ruling again, and says whose it is.
    corrections.deviate(world.db, world.event, slow, ["warning1"], "やはり警告", command_id=world.cid())
    again = max(r["number"] for r in world.rulings_of("P003") if r["rule"] == "general.unrelated-warnings")
    assert again != extra
    added = re.sub(r"\s+", " ", page(world, f"/events/{world.event}/rulings/{again}"))
    assert f"裁定 #{slow} の訂正で追加" in added or f"裁定 #{slow}の訂正で追加" in added


def test_the_preview_says_a_disqualified_player_has_left_before_saving(world: World) -> None:
    dq = world.record("P005", "severe.cheating")
    corrections.confirm(world.db, world.event, [dq], command_id=world.cid())
    fj = world.clients["floor_judge"]
    token = csrf_in(fj.get(f"/events/{world.event}/record").text)
    r = fj.post(f"/events/{world.event}/record/preview", csrf=False,
                data={"csrf_token": token, "player": "P005", "infraction": "pregame.tardiness"})  # fmt: skip
    assert r.status_code == 200
    note = re.search(r'<p class="flash warn left-event" role="alert">([^<]+)</p>', r.text)
    assert note and "記録の時点で、このプレイヤーはすでに失格になっています" in note[1]
    other = fj.post(f"/events/{world.event}/record/preview", csrf=False,
                    data={"csrf_token": token, "player": "P007", "infraction": "pregame.tardiness"})  # fmt: skip
    assert "left-event" not in other.text
