"""A player's history across events is the organiser's.

Two events in one installation, with the same person playing in both: the head judge of
the spring event reads nothing of the winter event (API with and without ``event=``, the
history page by name and by player, its PDF); the organiser (the installation's first
account) reads both events' standing rulings, and a ruling voided in the winter event only
its head judge, who works there, sees. The organiser names another organiser on the web
and on the command line; a head judge may not.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import run_cli
from shinpan.files.csvio import PlayerRow
from shinpan.services import accounts, corrections, events, recording
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import Client, database_url, sign_in

ORGANISER = ("主催 太郎", "organiser-pass")
SPRING_HJ = ("山田 一郎", "spring-hj-pass")
WINTER_HJ = ("田中 二郎", "winter-hj-pass")
PERSON = ("佐藤 翔太", "さとう しょうた")


@dataclass
class Installation:
    db: Database
    url: str
    spring: int
    winter: int
    standing: int  # a ruling of the person in the winter event that stands
    voided: int  # one voided there
    spring_ruling: int
    clients: dict[str, Client]


def _record(db: Database, event: int, player: str, infraction: str) -> int:
    saved = recording.record(db, event, recording.RecordInput(player=player, infraction=infraction))
    return int(saved.rulings[0]["number"])


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def place(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installation]:
    with database_url(request.param, tmp_path_factory.mktemp("history")) as url:
        db = Database(url)
        accounts.add_user(db, *ORGANISER)  # the first account: the organiser
        spring_hj = accounts.add_user(db, SPRING_HJ[0], SPRING_HJ[1], 2)
        winter_hj = accounts.add_user(db, WINTER_HJ[0], WINTER_HJ[1], 2)
        winter = events.create_event(
            db,
            name="冬の大会",
            head_judge=WINTER_HJ[0],
            head_judge_level=2,
            head_judge_account=winter_hj.uid,
            starts_on="2026-01-10",
        )
        spring = events.create_event(
            db,
            name="春の大会",
            head_judge=SPRING_HJ[0],
            head_judge_level=2,
            head_judge_account=spring_hj.uid,
            starts_on="2026-04-01",
        )
        events.import_players(
            db, winter, [PlayerRow("X001", *PERSON, None), PlayerRow("X002", "鈴木 美咲", "", None)]
        )
        events.import_players(db, spring, [PlayerRow("P001", *PERSON, None)])
        standing = _record(db, winter, "X001", "ingame.cards-off-table")
        voided = _record(db, winter, "X001", "ingame.slow-play")
        corrections.void(db, winter, voided, "記録の誤り")
        spring_ruling = _record(db, spring, "P001", "ingame.cards-off-table")
        app = create_app(db)
        clients = {
            who: sign_in(TestClient(app, raise_server_exceptions=False), name, password)
            for who, (name, password) in {
                "organiser": ORGANISER,
                "spring": SPRING_HJ,
                "winter": WINTER_HJ,
            }.items()
        }
        try:
            yield Installation(db, url, spring, winter, standing, voided, spring_ruling, clients)
        finally:
            for client in clients.values():
                client.http.close()
            db.close()


def _events_read(history: dict[str, Any]) -> dict[int, list[int]]:
    """The events a history shows, with the numbers of the rulings it lists for each."""
    return {a["event"]["id"]: [r["number"] for r in a["rulings"]] for a in history["appearances"]}


def _history(client: Client, **params: Any) -> dict[str, Any]:
    got = client.get("/api/players/history", params={"name": PERSON[0], **params})
    assert got.status_code == 200, got.text
    body: dict[str, Any] = got.json()
    return body


def test_the_history_was_made_as_the_tests_need_it(place: Installation) -> None:
    """Both rulings of the winter event are ones a history lists (else the tests below prove nothing)."""
    whole = _events_read(_history(place.clients["winter"]))
    assert whole[place.winter] == [place.standing, place.voided]


def test_a_head_judge_reads_nothing_of_another_events_players(place: Installation) -> None:
    spring = place.clients["spring"]
    assert _events_read(_history(spring)) == {place.spring: [place.spring_ruling]}
    assert _events_read(_history(spring, event=place.spring)) == {place.spring: [place.spring_ruling]}
    assert (
        spring.get("/api/players/history", params={"name": PERSON[0], "event": place.winter}).status_code
        == 403
    )
    pdf = spring.get("/api/players/history", params={"name": PERSON[0], "format": "pdf"})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    text = _pdf_text(pdf.content)
    assert "春の大会" in text and "冬の大会" not in text and "X001" not in text
    for query in ({"name": PERSON[0]}, {"player": "P001"}, {"name": PERSON[1]}):
        page = spring.get(f"/events/{place.spring}/reports/history", params=query)
        assert page.status_code == 200, page.text
        assert "春の大会" in page.text and "冬の大会" not in page.text and "X001" not in page.text, query
        assert "担当大会を検索" in page.text  # the button says what it searches


def test_the_organiser_reads_every_events_standing_rulings(place: Installation) -> None:
    organiser = place.clients["organiser"]
    read = _events_read(_history(organiser))
    assert read == {place.winter: [place.standing], place.spring: [place.spring_ruling]}
    csv_file = organiser.get("/api/players/history", params={"name": PERSON[0], "format": "csv"})
    assert "冬の大会" in csv_file.text and "春の大会" in csv_file.text


def test_voided_rulings_only_where_the_reader_sees_the_events_corrections(place: Installation) -> None:
    """The winter head judge works there: they see the void; the organiser, who works at
    neither event, reads the ruling that stands and not the one voided."""
    voided = {"voided", "取り消し済み"}
    winter = _history(place.clients["winter"])
    assert [
        r["state"] for a in winter["appearances"] for r in a["rulings"] if r["number"] == place.voided
    ] == ["voided"]
    organiser = _history(place.clients["organiser"])
    states = [r["state"] for a in organiser["appearances"] for r in a["rulings"]]
    assert not voided & set(states)
    page = place.clients["organiser"].get(
        "/api/players/history", params={"name": PERSON[0], "format": "html"}
    )
    assert "取り消し" not in page.text and "記録の誤り" not in page.text


def test_someone_who_heads_no_event_reads_no_history(place: Installation) -> None:
    accounts.add_user(place.db, "判定 五郎", "no-seat-pass")
    nobody = sign_in(
        TestClient(create_app(place.db), raise_server_exceptions=False), "判定 五郎", "no-seat-pass"
    )
    try:
        assert nobody.get("/api/players/history", params={"name": PERSON[0]}).status_code == 403
    finally:
        nobody.http.close()


def test_the_organiser_names_another_organiser_who_then_reads_every_event(place: Installation) -> None:
    spring, organiser = place.clients["spring"], place.clients["organiser"]
    refused = spring.post("/organisers", data={"name": SPRING_HJ[0], "csrf_token": spring.csrf})
    assert refused.status_code == 403 and "主催者を指名できるのは主催者だけです" in refused.text
    assert set(_events_read(_history(spring))) == {place.spring}
    try:
        named = organiser.post("/organisers", data={"name": SPRING_HJ[0], "csrf_token": organiser.csrf})
        assert named.status_code == 200 and "主催者に指名しました" in named.text
        assert SPRING_HJ[0] in named.text
        assert _events_read(_history(spring)) == {
            place.winter: [place.standing],
            place.spring: [place.spring_ruling],
        }
    finally:
        organiser.post("/organisers", data={"name": SPRING_HJ[0], "off": "1", "csrf_token": organiser.csrf})
    assert set(_events_read(_history(spring))) == {place.spring}
    last = organiser.post(
        "/organisers", data={"name": ORGANISER[0], "off": "1", "csrf_token": organiser.csrf}
    )
    assert last.status_code == 403 and "ただ一人の主催者" in last.text


def test_the_command_line_names_an_organiser(place: Installation) -> None:
    done = run_cli("user", "organiser", "--name", WINTER_HJ[0], db=place.url)
    assert done.returncode == 0, done.stderr
    told, english = done.stdout.rstrip("\n").split(" / ")
    assert told.startswith(f"{WINTER_HJ[0]} を主催者に指名しました。主催者: ")  # Japanese first
    assert english.startswith(f"{WINTER_HJ[0]} is an organiser; organisers: ")
    try:
        assert set(_events_read(_history(place.clients["winter"]))) == {place.winter, place.spring}
    finally:
        off = run_cli("user", "organiser", "--name", WINTER_HJ[0], "--off", db=place.url)
        assert off.returncode == 0, off.stderr
    assert set(_events_read(_history(place.clients["winter"]))) == {place.winter}
    unknown = run_cli("user", "organiser", "--name", "だれでもない", db=place.url)
    assert unknown.returncode == 1 and "no account named" in unknown.stderr + unknown.stdout


def _pdf_text(pdf: bytes) -> str:
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True)
    return "".join(done.stdout.decode("utf-8").split())
