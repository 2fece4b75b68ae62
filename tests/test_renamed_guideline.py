"""An event runs under the guideline it declares (D15), and what its components do is what
the file declares (``acts_as``), never their codes; what its infractions do besides their
ladders is what the file declares (``role``, a deadline's ``clock``), never their ids: a whole
event run on a guideline with every component, effect, category and rule id renamed
(``tests/fixtures/renamed_guideline.yaml``: disqualification → ``expulsion``, warning1 →
``caution1``, ``pregame.tardiness`` → ``before.tardiness-r``, ``draft.exclusion`` →
``drafting.exclusion-r``…) gives, code for code and id for id, the rulings (the draft
exclusion D6 triggers, the judge's own penalties of D4), deadlines (tardiness's from the
round's start and on the table's time, D21, D23, and the player's arrival), results,
statuses, standings and reports of the same event on the shipped file: through the JSON API,
the CLI and the head judge's desk, on SQLite and PostgreSQL. A broken guideline file is
refused with every problem, and nothing is written."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import SHINPAN
from fixtures.make_renamed_guideline import CATEGORIES, RENAMED, RENAMED_IDS
from fixtures.make_renamed_guideline import ID as RENAMED_ID
from shinpan.errors import Refused
from shinpan.files import guidelines
from shinpan.files.csvio import parse_pairings, parse_players
from shinpan.files.guidelines import add_guideline, held_guideline, held_guidelines, shipped_guideline
from shinpan.guideline import Guideline
from shinpan.services import accounts, events
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import HEAD_JUDGE, database_url, pairings_csv, player_table, players_csv, sign_in

FIXTURE = Path(__file__).parent / "fixtures" / "renamed_guideline.yaml"
# The renamed file's codes, rule ids and categories → the shipped one's.
SHIPPED_CODE = {
    **{new: old for old, new in RENAMED.items()},
    **{new: old for old, new in RENAMED_IDS.items()},
    **{new: old for old, new in CATEGORIES.items()},
}
PLAYERS = player_table(8)
NUMBERS = [n for n, _, _ in PLAYERS]  # P001…P008: tables 1–4 in round 1

# What the head judge records, in order: (player, infraction); the ladder climbs for repeats.
RECORDS = [
    ("P001", "ingame.slow-play"),  # warning
    ("P001", "ingame.slow-play"),  # warning + duel loss: lands on table 1
    ("P003", "deck.illegal-deck"),  # warning 2 + match loss: table 2's match
    ("P005", "severe.cheating"),  # warning 3 + disqualification: waits for the head judge
    ("P007", "severe.unsporting-conduct"),  # warning
    ("P007", "severe.unsporting-conduct"),  # warning 2 + ejection: waits, then is confirmed
    ("P008", "pregame.tardiness"),  # a duel loss; 10 minutes from the round's start; the table's time
    ("P004", "draft.excessive"),  # warning + duel loss
    ("P004", "draft.excessive"),  # draft exclusion: triggers the draft exclusion's ruling (D6)
    ("P002", "general.uncategorized"),  # the judge's own penalty (D4): a caution
]
CHOSEN = {"general.uncategorized": ["caution"]}  # the penalties the judge chose, by infraction


def shipped(value: Any) -> Any:
    """``value`` with every code of the renamed file said as the shipped file says it."""
    if isinstance(value, dict):
        return {k: shipped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(shipped(v) for v in value)
    if isinstance(value, str):
        return _IDS_IN_TEXT.sub(lambda m: SHIPPED_CODE[m.group(0)], SHIPPED_CODE.get(value, value))
    return value


# A renamed rule id inside a text (an explanation names it): each ends in -r, so none is a
# part of another word.
_IDS_IN_TEXT = re.compile(
    "|".join(re.escape(new) for new in sorted(RENAMED_IDS.values(), key=len, reverse=True))
)


def cli(url: str, *args: str) -> str:
    done = subprocess.run([SHINPAN, *args, "--db", url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _api(client: Any, method: str, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
    found = client.post(path, json=body) if method == "POST" else client.get(path)
    assert found.status_code == status, found.text
    return found.json()


def _ruling(r: dict[str, Any]) -> tuple[Any, ...]:
    return (
        r["player"],
        r["rule"],
        r["offense"],
        r["penalties"],
        r["guideline_penalties"],
        r["effects"],
        r["state"],
        r["awaiting_status"],
        r["round"],
        r["table"],
        r["explanation_ja"],
        r["explanation_en"],
    )


_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?Z?|\d\d:\d\d(:\d\d)?")


def _text(html: str) -> str:
    """A page's words, without its markup, tokens and times (they differ between two runs)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    words = re.sub(r"<[^>]+>", " ", body)
    return " ".join(_TIME.sub("<time>", words).split())


def _steady(value: Any) -> Any:
    """A report as JSON without what differs between two events of one database: the
    event's id and guideline id (compared apart), the ledger head it was made at, the times."""
    if isinstance(value, dict):
        return {
            k: _steady(v)
            for k, v in value.items()
            if k not in ("id", "event", "guideline_id", "generated_at", "head", "short")
        }
    if isinstance(value, list):
        return [_steady(v) for v in value]
    if isinstance(value, str):
        return _TIME.sub("<time>", value)
    return value


def run_event(db: Database, url: str, client: Any, guideline: str | None) -> dict[str, Any]:
    """A whole event on ``guideline`` (id@version; None: the shipped one), as every interface
    tells it once it has run."""
    made = _api(client, "POST", "/api/events", {"name": "規程の大会", "guideline": guideline}, 201)
    e = made["event"]
    events.import_players(db, e, parse_players(players_csv(PLAYERS)), command_id=f"players-{e}")
    events.import_pairings(db, e, 1, parse_pairings(pairings_csv(NUMBERS)), command_id=f"pairing-{e}")
    _api(client, "POST", f"/api/events/{e}/rounds/start", {"command_id": f"start-event-{e}"})
    code = (lambda c: c) if guideline is None else RENAMED.__getitem__
    rule = (lambda r: r) if guideline is None else RENAMED_IDS.__getitem__
    numbers = []
    for n, (player, infraction) in enumerate(RECORDS):
        body: dict[str, Any] = {
            "player": player,
            "infraction": rule(infraction),
            "command_id": f"record-{e}-{n}",
            "round": 1,
        }
        if infraction in CHOSEN:
            body["penalties"] = [code(c) for c in CHOSEN[infraction]]
        numbers += [
            r["number"] for r in _api(client, "POST", f"/api/events/{e}/rulings", body, 201)["rulings"]
        ]
    # D21, D23: the late player's deadlines, as the file declares them; then the player arrives.
    late = numbers[RECORDS.index(("P008", "pregame.tardiness"))]
    due = _deadlines(client, e)
    arrived = cli(url, "deadlines", "--event", str(e), "arrived", str(late), "--json")
    # D17, before the head judge confirms: what each interface says the pending rulings will do.
    pending = _api(client, "GET", f"/api/events/{e}/rulings?state=pending")
    waits = {
        "api": sorted((r["player"], r["awaiting_status"]) for r in pending if r["awaiting_status"]),
        "cli": sorted(
            (p, r["awaiting_status"])
            for p in ("P001", "P003", "P005", "P007")
            for r in json.loads(cli(url, "history", "--event", str(e), "--player", p, "--json"))["rulings"]
            if r["awaiting_status"]
        ),
        "desk": re.findall(r'class="tag danger awaiting">([^<]*)<', client.get(f"/events/{e}/desk").text),
    }
    # The head judge departs from the guideline for P001's first warning (a notice, as the
    # event's file calls it) through the API, and confirms the second through the CLI.
    deviation = {"penalties": [code("notice")], "reason": "初回のため", "command_id": f"deviate-{e}"}
    _api(client, "POST", f"/api/events/{e}/rulings/{numbers[0]}/deviate", deviation)
    cli(url, "confirm", str(numbers[1]), "--event", str(e), "--command-id", f"confirm-cli-{e}")
    ejection = next(r["number"] for r in pending if r["player"] == "P007")
    _api(
        client, "POST", f"/api/events/{e}/rulings/{ejection}/confirm", {"command_id": f"confirm-ejection-{e}"}
    )
    # Table 1: P002 won the duel P001 lost, and the next one; table 3 a draw; tables 2 and 4
    # were decided by the match loss and the ejection.
    for table, said in ((1, {"winner": "P002"}), (3, {"match": "draw"})):
        body = {"round": 1, "table": table, **said, "command_id": f"result-{e}-{table}"}
        _api(client, "POST", f"/api/events/{e}/results", body)
    _api(client, "POST", f"/api/events/{e}/rounds/end", {"command_id": f"end-round-{e}"})
    return {
        "waits": waits,
        "rulings": [_ruling(r) for r in _api(client, "GET", f"/api/events/{e}/rulings")],
        "players": [_api(client, "GET", f"/api/events/{e}/players/{n}")["player"] for n in NUMBERS],
        "matches": _api(client, "GET", f"/api/events/{e}/rounds/1"),
        "standings_api": _api(client, "GET", f"/api/events/{e}/standings"),
        "standings_cli": json.loads(cli(url, "standings", "--event", str(e), "--json")),
        "penalty_report_cli": _steady(
            json.loads(cli(url, "report", "penalties", "--event", str(e), "--format", "json"))
        ),
        "dq_report_cli": _steady(json.loads(cli(url, "report", "dq", "--event", str(e), "--format", "json"))),
        "penalty_report_api": _steady(_api(client, "GET", f"/api/events/{e}/reports/penalties?format=json")),
        "dq_report_api": _steady(_api(client, "GET", f"/api/events/{e}/reports/dq?format=json")),
        "desk": _text(client.get(f"/events/{e}/desk").text),
        "history_cli": [
            {k: v for k, v in r.items() if k not in ("recorded_at", "entry")}
            for r in json.loads(cli(url, "history", "--event", str(e), "--player", "P005", "--json"))[
                "rulings"
            ]
        ],
        "history_cli_text": [
            _text(cli(url, "history", "--event", str(e), "--player", p, "--lang", lang))
            for p in ("P001", "P005")
            for lang in ("ja", "en")
        ],
        "numbers": numbers,
        "deadlines": due,
        "arrived": json.loads(arrived),
        "deadlines_after": _deadlines(client, e),
    }


def _deadlines(client: Any, e: int) -> list[dict[str, Any]]:
    """The pending deadlines as the API gives them, without their times (two runs differ)."""
    return [
        {k: v for k, v in d.items() if k not in ("due_at", "seconds_left")}
        for d in _api(client, "GET", f"/api/events/{e}/deadlines")
    ]


@pytest.fixture(params=["sqlite", "postgres"])
def both(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    """The same event run on the shipped guideline and on the renamed one, in one database."""
    monkeypatch.setenv("SHINPAN_GUIDELINES", str(tmp_path / "guidelines"))
    renamed = add_guideline(FIXTURE)
    with database_url(request.param, tmp_path) as url:
        db = Database(url)
        name, password, level = HEAD_JUDGE
        accounts.add_user(db, name, password, level)
        client = sign_in(TestClient(create_app(db), raise_server_exceptions=False), name, password)
        try:
            yield {
                "shipped": run_event(db, url, client, None),
                "renamed": run_event(db, url, client, renamed.key),
                "url": url,
                "db": db,
            }
        finally:
            client.http.close()
            db.close()


def test_a_renamed_guideline_gives_the_same_event_code_for_code(both: dict[str, Any]) -> None:
    ours, theirs = both["shipped"], shipped(both["renamed"])
    # The renamed file's codes are its own: the event says expulsion, not disqualification.
    assert any("expulsion" in r[3] for r in both["renamed"]["rulings"])
    assert not any("disqualification" in r[3] for r in both["renamed"]["rulings"])
    for part in ours:
        assert theirs[part] == ours[part], part
    # Both ran: the duel loss, the match loss, the disqualification waiting, the ejection.
    assert ours["waits"]["api"] == [("P005", "disqualified"), ("P007", "ejected")] == ours["waits"]["cli"]
    assert set(ours["waits"]["desk"]) == {"失格(承認待ち)", "退場(承認待ち)"}
    first, second = sorted((r for r in ours["rulings"] if r[0] == "P001"), key=lambda r: r[2])
    assert (first[3], first[4]) == (["notice"], ["warning1"])  # the deviation, as the guideline said
    assert (second[3], second[6]) == (["warning1", "duel_loss"], "confirmed")  # through the CLI
    statuses = {p["number"]: p["status"] for p in ours["players"]}
    assert statuses["P007"] == "ejected" and statuses["P005"] == "active"
    # Every rule id is the renamed file's own (no interface names one of the shipped file's),
    # and the rules the code once knew by id still ran.
    told = json.dumps(both["renamed"], ensure_ascii=False)
    assert not [rule for rule in RENAMED_IDS if rule in told]
    assert {r[1] for r in both["renamed"]["rulings"]} <= set(RENAMED_IDS.values())
    assert any(r[1] == "drafting.exclusion-r" for r in both["renamed"]["rulings"])  # D6, declared by role
    assert any(r[0] == "P004" and r[1] == "draft.exclusion" for r in ours["rulings"])
    assert any(r[1] == "general.uncategorized" and r[3] == ["caution"] for r in ours["rulings"])  # D4
    late = [(d["due_kind"], d["clock"], d["arrival"]) for d in ours["deadlines"] if d["player"] == "P008"]
    assert late == [("minutes", "round_start", True), ("end_of_match", "table_time", True)]  # D21, D23
    assert not [d for d in ours["deadlines_after"] if d["player"] == "P008"]  # 到着 closed both


def test_the_ledger_keeps_the_guideline_and_its_hash(both: dict[str, Any]) -> None:
    exported = json.loads(cli(both["url"], "export", "--event", "2"))
    created = exported["entries"][0]["body"]["guideline"]
    held = next(h for h in held_guidelines() if h.id == RENAMED_ID)
    assert created == {"id": RENAMED_ID, "version": held.version, "sha256": held.sha256}
    first = json.loads(cli(both["url"], "export", "--event", "1"))["entries"][0]["body"]["guideline"]
    assert first["sha256"] == shipped_guideline().sha256


def test_a_broken_guideline_file_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = tmp_path / "guidelines"
    monkeypatch.setenv("SHINPAN_GUIDELINES", str(kept))
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        FIXTURE.read_text(encoding="utf-8").replace("acts_as: disqualification", "acts_as: nothing")
    )
    database = tmp_path / "event.db"
    done = subprocess.run(
        [
            SHINPAN,
            "event",
            "create",
            "--name",
            "大会",
            "--head-judge",
            "HJ",
            "--head-judge-level",
            "2",
            "--guideline",
            str(broken),
            "--db",
            str(database),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "ガイドラインファイルに問題が" in done.stderr and "nothing was written" in done.stderr
    assert "acts_as" in done.stderr  # where the problem is
    assert not database.exists() and not kept.exists()


def test_a_published_guideline_never_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHINPAN_GUIDELINES", str(tmp_path / "guidelines"))
    add_guideline(FIXTURE)
    edited = tmp_path / "edited.yaml"
    edited.write_text(FIXTURE.read_text(encoding="utf-8").replace("Draft warning", "Draft caution"))
    with pytest.raises(Refused, match="already held with other content"):
        add_guideline(edited)
    assert [h.id for h in held_guidelines()] == [shipped_guideline().id, RENAMED_ID]


def test_a_held_file_is_read_once_until_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHINPAN_GUIDELINES", str(tmp_path / "guidelines"))
    held = add_guideline(FIXTURE)
    read: list[Path] = []
    reading = guidelines.load_guideline

    def counted(path: str | Path) -> Guideline:
        read.append(Path(path))
        return reading(path)

    monkeypatch.setattr(guidelines, "load_guideline", counted)
    for _ in range(3):  # every page lists the held guidelines: the file is read the first time only
        assert [h.key for h in held_guidelines()] == [shipped_guideline().key, held.key]
    assert held_guideline(RENAMED_ID, held.version, held.sha256) == held
    assert len(read) == 1
    # The file changed on disk (here broken by hand): it is read again, and no longer held.
    read[0].write_text("version: [", encoding="utf-8")
    assert [h.key for h in held_guidelines()] == [shipped_guideline().key]
    assert len(read) == 2
    assert [h.key for h in held_guidelines()] == [shipped_guideline().key] and len(read) == 2


def test_the_web_form_offers_the_held_guidelines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHINPAN_GUIDELINES", str(tmp_path / "guidelines"))
    renamed = add_guideline(FIXTURE)
    with database_url("sqlite", tmp_path) as url:
        db = Database(url)
        name, password, level = HEAD_JUDGE
        accounts.add_user(db, name, password, level)
        client = sign_in(TestClient(create_app(db), raise_server_exceptions=False), name, password)
        try:
            page = client.get("/").text
            assert f'value="{renamed.key}"' in page and "名称変更版・試験用" in page
            form = {"name": "規程の大会", "guideline": renamed.key, "csrf_token": client.csrf}
            made = client.post("/events", data=form, follow_redirects=False)
            assert made.status_code == 303, made.text
            with db.read() as conn:
                from shinpan.services.context import load_event

                assert load_event(conn, 1).guideline_id == RENAMED_ID
            unknown = client.post("/api/events", json={"name": "大会", "guideline": "nothing-held@1"})
            assert unknown.status_code == 422 and "nothing-held@1" in unknown.text
        finally:
            client.http.close()
            db.close()
