"""The players' view (T12): the head judge publishes the event at an unguessable address;
players read their table, the pairings, the standings after the last ended round and the
playoff there without an account. Nothing a judge records is shown; a judge's cookie gives
nothing more; each address has a limit. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Backend, run_cli
from round_end import draws
from shinpan.entries import PlayersImported, Registration, parse
from shinpan.errors import NotFound
from shinpan.files import transfer
from shinpan.files.csvio import parse_players
from shinpan.services import corrections, events, publish, recording, rounds
from shinpan.services.queries import player_history
from shinpan.store.chain import canonical
from shinpan.store.db import Database
from shinpan.store.players import names as player_names
from shinpan.store.rounds import round_of
from shinpan.web import render
from shinpan.web.public import AddressLimit
from web_support import HEAD_JUDGE, World, worlds

CHEATING = "severe.cheating"  # a disqualification once confirmed (D17)
NOTE = "観戦者からの指摘メモ"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=2)


def public_pages(base: str) -> list[str]:
    return [base, f"{base}?q=P", f"{base}/pairings", f"{base}/standings", f"{base}/bracket", f"{base}/wall"]


def _fresh_limit(w: World, per_minute: int = 10_000) -> None:
    w.app.state.public_limit = AddressLimit(per_minute)


# -- publishing ------------------------------------------------------------------------------------


def test_the_players_address_answers_only_while_the_event_is_published(world: World) -> None:
    w, anyone = world, world.clients["signed_out"]
    _fresh_limit(w)
    publish.publish(w.db, w.event, off=True)
    with w.db.read() as conn:
        assert publish.publication(conn, w.event).token is None
    assert anyone.get("/p/never-published-token").status_code == 404

    url = publish.publish(w.db, w.event, names="names").token
    assert url is not None and len(url) >= 22  # 128 random bits
    page = anyone.get(f"/p/{url}")
    assert page.status_code == 200 and "自分の卓を探す" in page.text
    assert publish.publish(w.db, w.event, names="handles").token == url  # the QR codes stay good

    publish.publish(w.db, w.event, off=True)
    gone = anyone.get(f"/p/{url}")
    assert gone.status_code == 404 and "このアドレスでは何も公開されていません" in gone.text
    for path in [*public_pages(f"/p/{url}")[2:], f"/p/{url}/clock"]:
        assert anyone.get(path).status_code == 404, path
    again = publish.publish(w.db, w.event)
    assert again.token not in (None, url)  # published once more: a new address, the old one stays dead
    assert anyone.get(f"/p/{url}").status_code == 404
    assert anyone.get(f"/p/{again.token}").status_code == 200


def test_event_publish_on_the_command_line_prints_the_url_and_off_makes_it_404(world: World) -> None:
    w, anyone = world, world.clients["signed_out"]
    _fresh_limit(w)
    done = run_cli("event", "publish", "--event", str(w.event), "--names", "handles", db=w.db.url)
    assert done.returncode == 0, done.stderr
    path = done.stdout.strip()
    assert re.fullmatch(r"/p/[A-Za-z0-9_-]{22,}", path), path
    assert anyone.get(path).status_code == 200
    shown = run_cli("event", "publish", "--event", str(w.event), "--json", db=w.db.url)
    assert shown.stdout and '"names": "handles"' in shown.stdout and path in shown.stdout
    off = run_cli("event", "publish", "--event", str(w.event), "--off", db=w.db.url)
    assert off.returncode == 0 and "/p/" not in off.stdout
    assert anyone.get(path).status_code == 404
    wrong = run_cli("event", "publish", "--event", str(w.event), "--names", "nicknames", db=w.db.url)
    assert wrong.returncode == 1 and "names or handles" in wrong.stderr


def test_the_api_publishes_for_the_head_judge_only_and_says_so_in_openapi(world: World) -> None:
    w = world
    _fresh_limit(w)
    path = f"/api/events/{w.event}/publish"
    for role in ("floor_judge", "scorekeeper", "viewer"):
        assert w.clients[role].post(path, json={"command_id": w.cid()}).status_code == 403
    assert w.clients["signed_out"].post(path, json={"command_id": w.cid()}).status_code in (401, 403)
    hj = w.clients["head_judge"]
    made = hj.post(path, json={"command_id": w.cid(), "names": "names"})
    assert made.status_code == 200, made.text
    assert made.json()["published"] and made.json()["names"] == "names"
    assert w.clients["signed_out"].get(made.json()["url"]).status_code == 200
    assert hj.get(path).json() == made.json()
    off = hj.post(path, json={"command_id": w.cid(), "off": True}).json()
    assert off == {"published": False, "url": None, "names": "names", "winner_report": False}
    assert w.clients["signed_out"].get(made.json()["url"]).status_code == 404
    document = hj.get("/api/openapi.json").json()
    assert "post" in document["paths"]["/api/events/{event_id}/publish"]
    assert not any(p.startswith("/p/") for p in document["paths"])  # pages, not API


def test_the_head_judges_page_publishes_with_a_qr_code_and_unpublishes(world: World) -> None:
    w, hj = world, world.clients["head_judge"]
    _fresh_limit(w)
    page = hj.get(f"/events/{w.event}/publish")
    assert page.status_code == 200
    assert w.clients["floor_judge"].get(f"/events/{w.event}/publish").status_code == 403
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token is not None
    r = hj.http.post(
        f"/events/{w.event}/publish",
        data={"csrf_token": token[1], "command_id": w.cid(), "names": "names"},
        follow_redirects=True,
    )
    assert r.status_code == 200 and "公開中" in r.text and "<svg" in r.text
    url = re.search(r'id="players-url" href="[^"]*?(/p/[^"]+)"', r.text)
    assert url is not None and w.clients["signed_out"].get(url[1]).status_code == 200
    assert 'id="players-pages"' in hj.get(f"/events/{w.event}/desk").text
    r = hj.http.post(
        f"/events/{w.event}/publish",
        data={"csrf_token": token[1], "command_id": w.cid(), "off": "1"},
        follow_redirects=True,
    )
    assert "公開していません" in r.text
    assert w.clients["signed_out"].get(url[1]).status_code == 404


# -- what players see ------------------------------------------------------------------------------


def ruling_words(db: Database, event: int, player: str) -> list[str]:
    """What a judge's pages say of the player's rulings: the rule's and the penalties'
    names in both languages, the start of the explanation."""
    book = render.book()
    words = []
    for r in player_history(db, event, player)["rulings"]:
        words += [book.rule_name(r["rule"], "ja"), book.rule_name(r["rule"], "en"), r["explanation_ja"][:12]]
        words += [book.label(code, lang) for code in r["penalties"] for lang in ("ja", "en")]
    assert words
    return words


def _state(w: World) -> str:
    with w.db.read() as conn:
        found = round_of(conn, w.event, 1)
    assert found is not None
    return found.state


def _judged_event(w: World) -> tuple[str, list[str], str, str]:
    """Round 1 started, a warning with a note for one player, a confirmed disqualification
    for another, a table given time. (the published path, words of the rulings, the
    warned player's name, the disqualified player's name)"""
    if _state(w) == "paired":
        rounds.start_round(w.db, w.event, minutes=50)
    warned, cheat = w.players[0], w.players[3]
    recording.record(
        w.db, w.event, recording.RecordInput(player=warned, infraction="ingame.slow-play", note=NOTE)
    )
    saved = recording.record(w.db, w.event, recording.RecordInput(player=cheat, infraction=CHEATING))
    corrections.confirm(w.db, w.event, [int(saved.rulings[0]["number"])])
    rounds.give_time(w.db, w.event, 4, 7, "デッキチェックのため延長")
    words = [NOTE, "デッキチェックのため延長", HEAD_JUDGE[0], "警告", "失格", "罰則", "違反", "遅延行為", "Warning",
             "Disqualif", "penalt"]  # fmt: skip
    words += ruling_words(w.db, w.event, warned) + ruling_words(w.db, w.event, cheat)
    token = publish.publish(w.db, w.event, names="names").token
    with w.db.read() as conn:
        names = player_names(conn, w.event, [warned, cheat])
    return f"/p/{token}", words, names[warned], names[cheat]


def test_nothing_a_judge_records_is_on_any_players_page(world: World) -> None:
    w, anyone = world, world.clients["signed_out"]
    _fresh_limit(w)
    base, words, warned, cheat = _judged_event(w)
    for lang in ("ja", "en"):
        anyone.http.cookies.set("lang", lang)
        for path in [*public_pages(base), f"{base}?q={warned.split()[0]}", f"{base}/clock"]:
            text = anyone.get(path).text
            for word in words:
                assert word.lower() not in text.lower(), (path, word)
            assert cheat not in text, path  # disqualified: simply not listed as playing
    anyone.http.cookies.delete("lang")
    assert warned in anyone.get(f"{base}/pairings").text  # a warning changes nothing of the pairings


def test_a_judges_cookie_gives_nothing_more_on_the_players_pages(world: World) -> None:
    w = world
    _fresh_limit(w)
    base, _, _, _ = _judged_event(w)
    for path in public_pages(base):
        seen = {role: w.clients[role].get(path) for role in ("head_judge", "signed_out", "outsider")}
        texts = {re.sub(r'data-now="[^"]*"', "", r.text) for r in seen.values()}
        assert all(r.status_code == 200 for r in seen.values()), path
        assert len(texts) == 1, path  # the same page, byte for byte
        assert HEAD_JUDGE[0] not in seen["head_judge"].text


def test_the_standings_wait_for_the_first_round_to_end(world: World) -> None:
    w, anyone = world, world.clients["signed_out"]
    _fresh_limit(w)
    token = publish.publish(w.db, w.event).token
    if _state(w) != "ended":
        page = anyone.get(f"/p/{token}/standings").text
        assert "まだ終了したラウンドがありません" in page and 'id="standings"' not in page
        if _state(w) == "paired":
            rounds.start_round(w.db, w.event)
        events.end_round(w.db, w.event, 1, open_tables=draws(w.db, w.event, 1))
    page = anyone.get(f"/p/{token}/standings").text
    assert "第1回戦終了時点" in page and 'id="standings"' in page


def test_each_address_has_a_limit_a_minute_then_a_japanese_429(world: World) -> None:
    w, anyone = world, world.clients["signed_out"]
    w.app.state.public_limit = AddressLimit(5)
    token = publish.publish(w.db, w.event).token
    for _ in range(5):
        assert anyone.get(f"/p/{token}/pairings").status_code == 200
    refused = anyone.get(f"/p/{token}")
    assert refused.status_code == 429 and "アクセスが集中しています" in refused.text
    assert int(refused.headers["retry-after"]) > 0
    assert anyone.get(f"/p/{token}/clock").status_code == 429
    assert w.clients["head_judge"].get(f"/events/{w.event}/desk").status_code == 200  # judges are not limited
    _fresh_limit(w)
    assert anyone.get(f"/p/{token}").status_code == 200


# -- handles -----------------------------------------------------------------------------------------


def test_a_handle_is_an_optional_column_of_the_players_csv() -> None:
    rows = parse_players(
        "番号,名前,フリガナ,ハンドルネーム\n1,山田 太郎,ヤマダ タロウ,yamadaX\n2,佐藤 花子,,\n".encode()
    )
    assert [r.handle for r in rows] == ["yamadaX", None]
    assert parse_players(b"number,name\n1,A\n")[0].handle is None


def test_a_registration_without_a_handle_writes_the_bytes_it_always_wrote() -> None:
    old = {"players": [{"number": "1", "name": "A", "reading": None, "club": None}]}
    assert canonical(parse("players.imported", old).body()) == canonical(old)
    new = PlayersImported((Registration("2", "B", None, None, "bee"),))
    assert parse("players.imported", new.body()) == new and new.body()["players"][0]["handle"] == "bee"


# -- the playoff ---------------------------------------------------------------------------------------


def test_the_playoff_bracket_shows_who_meets_whom_and_who_went_on(db_url: str, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from shinpan.web.app import create_app
    from test_playoff_cli import Event, as_json

    ev = Event(db_url, tmp_path, 8)
    ev.swiss(3)
    token = publish.publish(db := Database(db_url), int(ev.id)).token
    anyone = TestClient(create_app(db), raise_server_exceptions=False)
    assert "決勝トーナメントは（まだ）ありません" in anyone.get(f"/p/{token}/bracket").text
    semi = as_json(ev.cli("playoff", "start", "--event", ev.id, "--size", "4", "--json"))["pairings"]
    ev.play(semi, {2: semi[1]["b"]})  # seed 3 beats seed 2
    page = anyone.get(f"/p/{token}/bracket")
    assert page.status_code == 200
    bouts = re.findall(r'<div class="bout">(.*?)</div>', page.text, re.S)
    assert len(bouts) == 2
    for bout, pairing, winner in zip(bouts, semi, (semi[0]["a"], semi[1]["b"]), strict=True):
        assert f"選手{pairing['a']}<" in bout and f"選手{pairing['b']}<" in bout
        assert re.search(rf'class="won"><span class="pname">選手{winner}<', bout)
    standings = anyone.get(f"/p/{token}/standings").text
    assert "第3回戦終了時点" in standings  # the Swiss's: the playoff ranks by its bracket
    db.close()


def test_the_players_address_survives_a_new_process_and_an_import_draws_a_new_one(
    db: Database, other_backend: Backend
) -> None:
    event = events.create_event(db, name="書き出しの大会", head_judge="山田", head_judge_level=2)
    token = publish.publish(db, event, names="handles").token
    assert token is not None
    again = Database(db.url)  # another process: nothing kept in memory
    try:
        assert publish.event_of_token(again, token) == (event, publish.Published(token, "handles"))
    finally:
        again.close()
    other = Database(other_backend.url)
    try:
        moved = transfer.import_event(other, transfer.export_event(db, event)).event_id
        with pytest.raises(
            NotFound
        ):  # an imported event is not published: its file's address is the original's
            publish.event_of_token(other, token)
        fresh = publish.publish(other, moved, names="handles").token
        assert fresh is not None and fresh != token
        assert publish.event_of_token(other, fresh) == (moved, publish.Published(fresh, "handles"))
    finally:
        other.close()
