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

from shinpan.web import desk
from web_support import HEAD_JUDGE, World, in_english, sign_in, worlds


@pytest.fixture(params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


def command_ids(html: str) -> list[str]:
    return re.findall(r'name="command_id" value="([^"]+)"', html)


def test_desks_asking_at_once_share_one_rendering_and_keep_their_own_tokens(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[Any] = []
    real = desk.render_shared
    monkeypatch.setattr(
        desk, "render_shared", lambda *a, **kw: rendered.append(kw["shown"]) or real(*a, **kw)
    )
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
