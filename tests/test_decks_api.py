"""The JSON API of decklists and deck checks (T13) on SQLite and PostgreSQL: the same shapes as
the CLI, the roles (D11), bad input refused with a clear message in the user's language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web_support import World, worlds

SIDE = "\n".join(["3 Duress", *[f"1 Side {i}" for i in range(12)]])


def text_list(prefix: str, bolts: int = 4, extra: str = "") -> str:
    main = "\n".join([f"{bolts} 稲妻", *[f"1 {prefix} Card {i}" for i in range(56)]])
    return f"メイン\n{main}\n{extra}\nサイド\n{SIDE}\n"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=4, spare=0)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def test_lists_and_a_deck_check_through_the_api(world: World) -> None:
    hj, fj, sk = (world.clients[r] for r in ("head_judge", "floor_judge", "scorekeeper"))
    e = world.event
    rules = ok(
        hj.post(
            f"/api/events/{e}/decklists/rules", json={"command_id": world.cid(), "banned": ["Black Lotus"]}
        )
    )
    assert rules["sections"] == "main:60-,side:0-15"
    assert fj.post(f"/api/events/{e}/decklists/rules", json={"command_id": world.cid()}).status_code == 403

    p1, p2 = world.players[0], world.players[1]
    made = ok(
        sk.post(
            f"/api/events/{e}/decklists",
            json={"command_id": world.cid(), "player": p1, "text": text_list(p1)},
        ),
        201,
    )
    assert list(made) == ["player", "entry", "sections", "problems", "locked"] and made["sections"] == {
        "main": 60,
        "side": 15,
    }
    ok(
        sk.post(
            f"/api/events/{e}/decklists",
            json={"command_id": world.cid(), "player": p2, "text": text_list(p2)},
        ),
        201,
    )
    unknown = sk.post(
        f"/api/events/{e}/decklists",
        json={"command_id": world.cid(), "player": "ZZZ", "text": text_list("x")},
    )
    assert unknown.status_code == 404 and "ZZZ" in unknown.json()["detail"]
    zero = sk.post(
        f"/api/events/{e}/decklists", json={"command_id": world.cid(), "player": p1, "text": "0 稲妻\n"}
    )
    assert zero.status_code == 422 and "1行目" in zero.json()["detail"]
    assert ok(hj.get(f"/api/events/{e}/decklists/{p1}"))["versions"] == 1
    states = {p["player"]: p["state"] for p in ok(hj.get(f"/api/events/{e}/decklists"))["players"]}
    assert states[p1] == "registered" and states[world.players[2]] == "missing"
    assert world.clients["signed_out"].get(f"/api/events/{e}/decklists/{p1}").status_code == 401

    started = ok(
        fj.post(f"/api/events/{e}/deckchecks", json={"command_id": world.cid(), "round": 1, "table": 1}), 201
    )
    assert started["players"] == [p1, p2]
    again = fj.post(f"/api/events/{e}/deckchecks", json={"command_id": world.cid(), "round": 1, "table": 1})
    assert again.status_code == 409
    counted = ok(
        fj.post(
            f"/api/events/{e}/deckchecks/count",
            json={
                "command_id": world.cid(),
                "round": 1,
                "table": 1,
                "player": p1,
                "text": text_list(p1, bolts=3, extra="1 Shock"),
            },
        )
    )
    assert counted["missing"] == [{"section": "main", "name": "稲妻", "count": 1}]
    view = ok(fj.get(f"/api/events/{e}/deckchecks/1/1"))
    assert view["under_way"] and view["lists"][p1]["main"][0] == {"count": 4, "name": "稲妻"}
    ended = ok(
        fj.post(f"/api/events/{e}/deckchecks/end", json={"command_id": world.cid(), "round": 1, "table": 1})
    )
    assert ended["players"][0]["proposed"] == "deck.deck-decklist-mismatch"
    recorded = ok(
        fj.post(
            f"/api/events/{e}/rulings",
            json={
                "command_id": world.cid(),
                "player": p1,
                "infraction": "deck.deck-decklist-mismatch",
                "deck_check": ended["check"],
            },
        ),
        201,
    )
    assert recorded["rulings"][0]["penalties"] == ["warning1", "duel_loss"]
    listed = ok(hj.get(f"/api/events/{e}/deckchecks", params={"round": 1}))
    assert [r["rule"] for r in listed[0]["rulings"]] == ["deck.deck-decklist-mismatch"]
    done = ok(
        fj.post(
            f"/api/events/{e}/deckchecks/corrected",
            json={"command_id": world.cid(), "round": 1, "table": 1, "player": p1},
        )
    )
    assert done["rulings"] == [recorded["rulings"][0]["number"]]
    picked = ok(fj.get(f"/api/events/{e}/deckchecks/pick", params={"round": 1, "tables": 1, "seed": 1}))
    assert picked["tables"] and picked["checked"][p1] == 1

    ok(hj.post(f"/api/events/{e}/decklists/lock", json={"command_id": world.cid()}))
    late = sk.post(
        f"/api/events/{e}/decklists", json={"command_id": world.cid(), "player": p1, "text": text_list(p1)}
    )
    assert late.status_code == 409 and "確定" in late.json()["detail"]
    fixed = ok(
        hj.post(
            f"/api/events/{e}/decklists/correct",
            json={"command_id": world.cid(), "player": p1, "text": text_list(p1), "reason": "記入ミス"},
        )
    )
    assert fixed["player"] == p1 and ok(hj.get(f"/api/events/{e}/decklists/{p1}"))["versions"] == 2


def test_the_api_document_names_the_deck_calls(world: World) -> None:
    paths = ok(world.clients["viewer"].get("/api/openapi.json"))["paths"]
    for path in ("/api/events/{event_id}/decklists", "/api/events/{event_id}/deckchecks/end"):
        assert path in paths
    record = ok(world.clients["viewer"].get("/api/openapi.json"))["components"]["schemas"]["RecordIn"]
    assert "deck_check" in record["properties"]
