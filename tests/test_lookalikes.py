"""Look-alikes are refused where ids and names come in.

An invisible format character (Unicode category Cf) made ``P0\\u200f02`` another player beside
``P002`` that reads the same; a right-to-left override in a name reversed it on the desk, in
the reports and in the CSV. An id now holds no format character, a name no bidirectional
control: refused with a message that names the character, in Japanese and in English, from
a CSV file, the API, the web's forms and the command line. SQLite and PostgreSQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from shinpan.cli import app as cli
from shinpan.engine.replay import ScenarioError, replay
from shinpan.errors import NotFound
from shinpan.files.csvio import CsvError, parse_pairings, parse_players
from shinpan.services.queries import player_history
from support import BOOK, scenario
from web_support import World, csrf_in, in_english, ledger_size, players_csv, sign_in, worlds

RLM = "\u200f"  # right-to-left mark: invisible, a format character
RLO = "\u202e"  # right-to-left override: reverses what follows it
LOOKALIKE = f"P0{RLM}02"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


# -- CSV files, read line by line --------------------------------------------------------


def test_a_player_id_with_an_invisible_character_beside_its_look_alike_is_refused_on_its_line() -> None:
    data = players_csv([("P002", "佐藤 翔太", "さとう しょうた"), (LOOKALIKE, "鈴木 美咲", "すずき みさき")])
    with pytest.raises(CsvError) as refused:
        parse_players(data)
    ja, en = refused.value.text("ja"), refused.value.text("en")
    assert "3行目 「番号」" in ja and "見えない文字（U+200F）" in ja
    assert "line 3, column '番号'" in en and "invisible characters (U+200F)" in en
    for hidden in ("\u200b", "\ufeff", "\u2060", "\u00ad"):  # zero width space, BOM, word joiner, soft hyphen
        with pytest.raises(CsvError, match=f"U\\+{ord(hidden):04X}"):
            parse_players(players_csv([(f"P{hidden}003", "高橋 大輔", "たかはし だいすけ")]))


def test_a_name_or_club_with_a_direction_control_is_refused_and_other_names_are_kept() -> None:
    rows = "番号,名前,フリガナ,所属\nP001,佐藤 翔太,,\nP002,{RLO}太翔 藤佐,,\nP003,鈴木 美咲,,ABC{PDI}\n"
    data = rows.replace("{RLO}", RLO).replace("{PDI}", "\u2069").encode()
    with pytest.raises(CsvError) as refused:
        parse_players(data)
    ja = refused.value.text("ja")
    assert "3行目 「名前」: 文字の向きを変える制御文字（U+202E）" in ja
    assert "4行目 「所属」" in ja and "U+2069" in ja
    assert refused.value.total == 2
    # A name may hold other format characters (a zero width joiner in a name, as typed)
    kept = parse_players("番号,名前\nP001,佐藤\u200d翔太\n".encode())
    assert kept[0].name == "佐藤\u200d翔太"


def test_a_pairing_naming_a_look_alike_id_is_refused() -> None:
    with pytest.raises(CsvError, match="U\\+200F"):
        parse_pairings(f"卓番号,プレイヤーA,プレイヤーB\n1,P001,{LOOKALIKE}\n".encode())


def test_a_scenario_listing_a_look_alike_participant_is_refused() -> None:
    with pytest.raises(ScenarioError, match="U\\+200F"):
        replay(BOOK, scenario("P002: ingame.slow-play", players=("P002", LOOKALIKE)))


# -- the web: the API, the forms ---------------------------------------------------------


def test_an_uploaded_player_list_with_a_look_alike_is_refused_whole_in_the_users_language(
    world: World,
) -> None:
    head = world.clients["head_judge"]
    before = ledger_size(world)
    csv = players_csv([("R001", "伊藤 健", "いとう けん"), ("R002", f"{RLO}愛 田中", "たなか あい")])
    upload = {"file": ("players.csv", csv, "text/csv")}
    r = head.post(f"/api/events/{world.event}/players", files=upload, data={"command_id": world.cid()})
    assert r.status_code == 422
    assert "文字の向きを変える制御文字（U+202E）" in r.json()["detail"]
    with in_english(head):
        lookalike = players_csv([(LOOKALIKE, "伊藤 健", "いとう けん")])
        r = head.post(
            f"/api/events/{world.event}/players",
            files={"file": ("players.csv", lookalike, "text/csv")},
            data={"command_id": world.cid()},
        )
    assert r.status_code == 422 and "invisible characters (U+200F)" in r.json()["detail"]
    assert ledger_size(world) == before  # nothing imported, not even the good row
    with pytest.raises(NotFound):
        player_history(world.db, world.event, "R001")


def test_an_event_named_with_a_direction_control_is_refused_by_the_api_and_the_form(world: World) -> None:
    head = world.clients["head_judge"]
    before = ledger_size(world)
    r = head.post("/api/events", json={"name": f"春の大会{RLO}2026"})
    assert r.status_code == 422 and r.json()["field"] == "name"
    assert "U+202E" in r.json()["detail"] and "入力し直してください" in r.json()["detail"]
    r = head.post("/api/events", json={"name": "春の大会", "venue": f"{RLO}ホール"})
    assert r.status_code == 422 and r.json()["field"] == "venue"
    page = head.get("/")
    form = {"name": f"春の大会{RLO}", "csrf_token": csrf_in(page.text), "starts_on": "2026-03-01"}
    r = head.post("/events", data=form, csrf=False, follow_redirects=False)
    assert r.status_code == 422 and "U+202E" in r.text
    assert ledger_size(world) == before


def test_joining_under_a_reversed_or_invisibly_different_name_is_refused(world: World) -> None:
    with TestClient(world.app) as http:
        visitor = sign_in(http, None)
        from shinpan.engine.event_rules import Role
        from shinpan.services import accounts

        code = accounts.invite(world.db, world.event, Role.viewer, "山田 一郎")
        page = http.get(f"/join/{code}")
        token = csrf_in(page.text)
        for name in (f"観戦{RLO}太郎", "観戦\u200b三郎"):  # reversed; beside 観戦 三郎, invisibly other
            r = visitor.post(
                f"/join/{code}", data={"name": name, "pin": "432109", "csrf_token": token}, csrf=False
            )
            assert r.status_code == 422, r.text
            assert ("U+202E" if RLO in name else "U+200B") in r.text
        r = visitor.post(
            f"/join/{code}", data={"name": "観戦 太郎", "pin": "432109", "csrf_token": token}, csrf=False
        )
        assert r.status_code in (200, 303), r.text  # the code was not used up by the refusals


# -- the command line --------------------------------------------------------------------


def test_the_command_line_refuses_look_alikes_with_the_same_words(world: World, tmp_path: Path) -> None:
    runner = CliRunner()
    url = world.db.url
    added = runner.invoke(
        cli, ["user", "add", "--name", f"山田{RLO}二郎", "--password", "secret-pass", "--db", url]
    )
    assert added.exit_code == 1 and "change the direction of text (U+202E)" in added.output
    made = runner.invoke(
        cli,
        [
            "event",
            "create",
            "--name",
            f"大会{RLO}",
            "--head-judge",
            "山田 一郎",
            "--head-judge-level",
            "2",
            "--db",
            url,
        ],
    )
    assert made.exit_code == 1 and "U+202E" in made.output
    path = tmp_path / f"players-{uuid.uuid4().hex[:6]}.csv"
    path.write_bytes(players_csv([(LOOKALIKE, "伊藤 健", "いとう けん")]))
    imported = runner.invoke(cli, ["players", "import", str(path), "--event", str(world.event), "--db", url])
    assert imported.exit_code == 1 and "invisible characters (U+200F)" in imported.output
