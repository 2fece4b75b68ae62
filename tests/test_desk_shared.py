"""A dozen desks on one event: a change reaches them all at once, and they all ask for the
panels it touched. Those are read and rendered once for everyone who sees them alike (one
ledger entry, one language, one role), and each desk still gets its own CSRF token and
fresh command ids in its forms. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shinpan.web import desk, render
from web_support import HEAD_JUDGE, World, in_english, sign_in, worlds


@pytest.fixture(params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


def command_ids(html: str) -> list[str]:
    return re.findall(r'name="command_id" value="([^"]+)"', html)


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The panels of every shared rendering, in order."""
    shown: list[Any] = []
    real = desk.render_shared
    monkeypatch.setattr(desk, "render_shared", lambda *a, **kw: shown.append(kw["shown"]) or real(*a, **kw))
    return shown


def test_desks_asking_at_once_share_one_rendering_and_keep_their_own_tokens(
    world: World, rendered: list[Any]
) -> None:
    desks = [world.clients["head_judge"]]
    for _ in range(2):
        http = TestClient(world.app, raise_server_exceptions=False)
        desks.append(sign_in(http, HEAD_JUDGE[0], HEAD_JUDGE[1]))
    cheating = world.record(world.players[0], "severe.cheating")  # waits for the head judge
    path = f"/events/{world.event}/desk/panels?only=queue,feed,dq"

    pages = [d.get(path) for d in desks]
    assert [p.status_code for p in pages] == [200, 200, 200]
    assert rendered == [("queue", "feed", "dq")], "read and rendered once for the three desks"
    for d, page in zip(desks, pages, strict=True):
        assert f'id="ruling-{cheating}"' in page.text
        assert "\x00" not in page.text
        assert set(re.findall(r'name="csrf_token" value="([^"]+)"', page.text)) == {d.csrf}
    # A statement's command is new each time a form is drawn; a confirmation's is the
    # ruling's own (two desks confirming it are one command).
    fresh = [[i for i in command_ids(p.text) if not i.startswith("confirm-")] for p in pages]
    assert all(fresh) and len({i for each in fresh for i in each}) == sum(len(each) for each in fresh)

    with in_english(desks[1]) as english:  # another language is another rendering
        assert "Confirm" in english.get(path).text
    assert len(rendered) == 2
    world.record(world.players[1], "ingame.cards-off-table")  # a new entry: drawn again
    assert f"#{cheating + 1}" in desks[2].get(path).text
    assert len(rendered) == 3


def row(html: str, number: int) -> str:
    found = re.search(rf'<tr class="[^"]*" id="ruling-{number}">.*?</tr>', html, re.S)
    assert found, f"ruling {number} is in the feed"
    return found.group(0)


def test_a_rulings_row_is_drawn_again_only_when_what_it_shows_changes(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows of the queue and the feed are kept from one drawing to the next: a new
    ruling draws its own row, not the hundred waiting before it. A ruling voided, another
    language or a floor judge's desk (no confirming there) is another row."""
    from shinpan.services import corrections

    first, second = (world.record(p, "severe.cheating") for p in world.players[:2])  # they wait
    head = world.clients["head_judge"]
    path = f"/events/{world.event}/desk/panels?only=queue,feed"
    before = head.get(path).text
    assert f'id="queue-{first}"' in before

    drawn: list[str] = []
    real_get = render._PIECES.get
    monkeypatch.setattr(
        render._PIECES, "get", lambda key, draw: real_get(key, lambda: drawn.append(key[0]) or draw())
    )
    third = world.record(world.players[2], "severe.cheating")
    after = head.get(path).text
    assert sorted(drawn) == ["feed", "queue"], "only the new ruling's rows were drawn"
    assert row(after, first) == row(before, first)

    corrections.void(world.db, world.event, first, "記録の誤り", command_id=world.cid("void"))
    voided = head.get(path).text
    assert "state-voided" in row(voided, first) and "state-voided" not in row(after, first)
    assert f'id="queue-{first}"' not in voided and f'id="queue-{second}"' in voided
    with in_english(head) as english:
        assert "Confirm" in english.get(path).text and "確認" not in english.get(path).text
    floor = world.clients["floor_judge"].get(f"/events/{world.event}/desk/panels?only=queue")
    assert floor.status_code == 200  # a floor judge may read the desk, not confirm from it
    assert f'id="queue-{third}"' in floor.text and "/desk/confirm/" not in floor.text


def test_a_desk_that_heard_of_an_entry_takes_panels_drawn_at_it_or_later(
    world: World, rendered: list[Any]
) -> None:
    first = world.record(world.players[0], "ingame.cards-off-table")
    head = world.clients["head_judge"]
    entry = int(
        re.findall(r'data-head="(\d+)"', head.get(f"/events/{world.event}/desk/panels?only=feed").text)[0]
    )
    assert len(rendered) == 1
    world.record(world.players[1], "ingame.cards-off-table")
    # A desk that heard only of the first ruling's entry: the drawing at it will do.
    assert f"#{first + 1}" not in head.get(f"/events/{world.event}/desk/panels?only=feed&since={entry}").text
    assert len(rendered) == 1
    # One that heard of the newer entry: drawn again, with the newer ruling.
    newer = head.get(f"/events/{world.event}/desk/panels?only=feed&since={entry + 1}").text
    assert f'id="ruling-{first + 1}"' in newer and len(rendered) == 2
