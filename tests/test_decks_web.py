"""A player's own decklist on the players' pages (T13, T12), SQLite and PostgreSQL: sent with the
registration code until the lock, refused with a wrong code in the player's language, and never
shown back on the players' pages or the wall."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from shinpan.files import decklists as decklist_files
from shinpan.services import decklists, publish
from shinpan.services.codes import player_codes
from web_support import World, worlds

CARD = "秘密のカード名"


def listing() -> str:
    return "\n".join([f"4 {CARD}", *[f"1 Card {i}" for i in range(56)]]) + "\n\n3 Duress\n"


def first_players_list(world: World) -> None:
    """The first player's list, as the first test leaves it (sent, or corrected after the
    lock), for a test that runs without it on its worker."""
    first = world.players[0]
    states = {p["player"]: p["state"] for p in decklists.status(world.db, world.event)["players"]}
    if states[first] == "missing":
        deck = decklist_files.parse_lines(listing())
        if decklists.status(world.db, world.event)["locked"]:
            decklists.correct(world.db, world.event, first, deck, "記入ミス")
        else:
            decklists.submit(world.db, world.event, first, deck)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=4, spare=0)


def test_a_player_sends_their_own_list_with_their_code_until_the_lock(world: World) -> None:
    token = publish.publish(world.db, world.event, names="names").token
    player = world.players[0]
    with world.db.read() as conn:
        code = player_codes(world.db, conn, world.event, [player])[player]
    phone = TestClient(world.app)
    page = phone.get(f"/p/{token}/decklist")
    assert page.status_code == 200 and "登録コード" in page.text
    wrong = phone.post(
        f"/p/{token}/decklist", data={"player": player, "code": "NOPE-NOPE", "text": listing()}
    )
    assert wrong.status_code == 422 and "登録コードが違います" in wrong.text
    assert decklists.status(world.db, world.event)["players"][0]["state"] == "missing"
    sent = phone.post(f"/p/{token}/decklist", data={"player": player, "code": code, "text": listing()})
    assert sent.status_code == 200 and "受け付けました" in sent.text and CARD not in sent.text
    assert decklists.show(world.db, world.event, player)["submitted_by"] == decklists.PLAYERS_PAGE
    for path in ("", "/pairings", "/standings", "/wall"):
        shown = phone.get(f"/p/{token}{path}")
        assert CARD not in shown.text, path
    decklists.lock(world.db, world.event)
    late = phone.post(f"/p/{token}/decklist", data={"player": player, "code": code, "text": listing()})
    assert late.status_code == 422 and "確定" in late.text


def test_the_players_page_names_the_missing_lists_when_lists_are_required(world: World) -> None:
    from shinpan.services import deck_rules

    hj = world.clients["head_judge"]
    deck_rules.set_rules(world.db, world.event, required=True)
    page = hj.get(f"/events/{world.event}/players")
    missing = [
        p["player"] for p in decklists.status(world.db, world.event)["players"] if p["state"] == "missing"
    ]
    assert missing  # the other players sent none
    assert 'id="decklist-problems"' in page.text and "デッキリストの提出が必要です" in page.text
    assert all(p in page.text.split('id="decklist-problems"')[1].split("</p>")[0] for p in missing)
    deck_rules.set_rules(world.db, world.event, required=False)
    assert 'id="decklist-problems"' not in hj.get(f"/events/{world.event}/players").text


def test_the_reports_page_gives_the_deck_reports(world: World) -> None:
    from shinpan.services import deckchecks, rounds

    hj, viewer = world.clients["head_judge"], world.clients["viewer"]
    first_players_list(world)
    if not rounds.round_clock(world.db, world.event).started_at:
        rounds.start_round(world.db, world.event)
    deckchecks.start(world.db, world.event, 1, 2)
    deckchecks.end(world.db, world.event, 1, 2)
    index = hj.get(f"/events/{world.event}/reports")
    assert "report-deckchecks" in index.text and "report-codes" in index.text
    pdf = hj.get(f"/events/{world.event}/reports/deckchecks")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    listed = hj.get(f"/events/{world.event}/reports/decklists")
    assert listed.status_code == 200 and CARD in listed.content.decode("utf-8-sig")
    sheet = hj.get(f"/events/{world.event}/reports/decklist/{world.players[0]}")
    assert sheet.status_code == 200 and sheet.content.startswith(b"%PDF")
    assert hj.get(f"/events/{world.event}/reports/codes").content.startswith(b"%PDF")
    assert viewer.get(f"/events/{world.event}/reports/deckchecks").status_code == 403


def test_the_top_lists_show_on_the_players_pages_once_published(world: World) -> None:
    from shinpan.services import events
    from shinpan.tournament.rounds import OpenTable

    token = publish.publish(world.db, world.event, names="names").token
    phone = TestClient(world.app)
    first_players_list(world)
    assert phone.get(f"/p/{token}/decklists").status_code == 404  # nothing before the head judge says so
    events.end_round(world.db, world.event, 1, open_tables={1: OpenTable.draw, 2: OpenTable.draw})
    assert decklists.publish_top(world.db, world.event, 8) == [world.players[0]]
    shown = phone.get(f"/p/{token}/decklists")
    assert shown.status_code == 200, shown.text
    assert CARD in shown.text and "<h2>1. " in shown.text
