"""Reports: the penalty report, disqualification reports, a player's history, statistics, slips.

One demo event (64 players, three rounds) in a fresh database for the module, plus what
makes reports worth reading: a cheating disqualification with statements and an appeal,
a deviation, a void, a missed deadline and a draft warning. Reports only read, so every
test shares it; every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import BACKENDS, new_backend, run_cli
from shinpan import reports
from shinpan.errors import InvalidInput
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.reports.charts import bar_chart
from shinpan.reports.common import STATE_WORDS
from shinpan.reports.formats import HEAD_COLUMNS
from shinpan.reports.penalties import csv_header
from shinpan.services import appeals, corrections, deadlines, events, recording
from shinpan.services.demo import FLOOR_JUDGE, HEAD_JUDGE, SCOREKEEPER, load_demo
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import sign_in

BOOK = Rulebook(default_guideline())
NOW = datetime(2026, 2, 1, 15, 0, tzinfo=UTC)
DEVIATION = "状況を考慮して通告に軽減"
VOID = "別の選手と取り違えた"
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Scenario:
    db: Database
    url: str
    event: int
    dq: int  # the disqualification
    dq_player: str
    deviated: int
    voided: int
    caution: int
    draft_warning: int
    missed_follow_up: int


def demo_with_a_disqualification(db: Database) -> Scenario:
    """The demo, then: cheating (DQ) with statements and a decided appeal, a deviation, a void,
    a draft warning and a missed deadline, all through the services."""
    event = load_demo(db, now=NOW).event_id
    floor = FLOOR_JUDGE[0]
    feed = {r["number"]: r for r in recording_feed(db, event)}
    suspect = next(r["player"] for r in feed.values() if r["state"] == "pending")
    inp = recording.RecordInput(player=suspect, infraction="severe.cheating", note="デッキの下から引いた")
    dq = recording.record(db, event, inp, judge=floor).rulings[0]["number"]
    for author, role, text in (
        ("本人", "player", "わざとではありません。"),
        ("対戦相手", "opponent", "デッキの下から引くのを二度見ました。"),
        ("隣の選手", "witness", "同じ動きを見ました。"),
    ):
        appeals.add_statement(db, event, author, role, text, ruling=dq, judge=floor)
    corrections.confirm(db, event, [dq])
    appeal = appeals.file_appeal(db, event, dq, suspect, "故意ではない", judge=floor)
    appeals.decide_appeal(db, event, appeal, "upheld", "目撃者の陳述が一致する")
    caution = next(n for n, r in feed.items() if r["penalties"] == ["caution"])
    warned = [n for n, r in sorted(feed.items()) if r["penalties"] == ["warning1"]]
    corrections.deviate(db, event, warned[0], ["notice"], DEVIATION)
    corrections.void(db, event, warned[-1], VOID)
    marked = next(n for n, r in feed.items() if r["rule"] == "cards.marked-no-pattern")
    follow_up = deadlines.mark_missed(db, event, marked, judge=floor)[0]["number"]
    drafted = recording.RecordInput(
        player="1001", infraction="draft.standard", draft="D1", facts={"kind": "talking"}
    )
    draft_warning = recording.record(db, event, drafted, judge=floor).rulings[0]["number"]
    return Scenario(db, db.url, event, dq, suspect, warned[0], warned[-1], caution, draft_warning, follow_up)


def recording_feed(db: Database, event: int) -> list[dict[str, Any]]:
    from shinpan.services.queries import rulings_feed

    return rulings_feed(db, event, limit=1000)


@pytest.fixture(scope="module", params=BACKENDS)
def scenario(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    for backend in new_backend(request.param, tmp_path_factory.mktemp("reports")):
        db = Database(backend.url)
        try:
            yield demo_with_a_disqualification(db)
        finally:
            db.close()


def expected_numbers(db: Database, event: int) -> set[int]:
    """What the guideline says the report lists, straight from the rulings table."""
    listed = set()
    with db.read() as conn:
        found = Statement("SELECT number, penalties, guideline_penalties FROM rulings WHERE event_id = :e")
        for number, penalties, guideline_penalties in found.all(conn, {"e": event}):
            codes = json.loads(penalties) + json.loads(guideline_penalties)
            if any(c in BOOK.components and BOOK.components[c].reported for c in codes):
                listed.add(number)
    return listed


def pdf_text(pdf: bytes) -> str:
    """The PDF's text (pdftotext), without any spaces or line breaks."""
    assert pdf.startswith(b"%PDF")
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True)
    return "".join(done.stdout.decode("utf-8").split())


def squeeze(text: str) -> str:
    return "".join(text.split())


# -- the penalty report -----------------------------------------------------------------------


def test_the_penalty_report_lists_what_the_guideline_reports(scenario: Scenario) -> None:
    report = reports.penalty_report(scenario.db, scenario.event)
    numbers = [r.number for r in report.rulings]
    assert set(numbers) == expected_numbers(scenario.db, scenario.event)
    assert len(numbers) == len(set(numbers))
    assert scenario.caution not in numbers, "cautions stay out of the official report"
    assert scenario.draft_warning not in numbers, "draft warnings stay out of the official report"
    assert {scenario.dq, scenario.deviated, scenario.voided, scenario.missed_follow_up} <= set(numbers)
    assert report.left_out >= 2


def test_voids_and_deviations_are_in_the_report_with_their_reasons(scenario: Scenario) -> None:
    by_number = {r.number: r for r in reports.penalty_report(scenario.db, scenario.event).rulings}
    voided = by_number[scenario.voided]
    assert voided.voided and voided.void is not None
    assert (voided.void.reason, voided.void.judge) == (VOID, HEAD_JUDGE[0])
    deviated = by_number[scenario.deviated]
    assert [d.reason for d in deviated.deviations] == [DEVIATION]
    assert deviated.penalties == ("notice",) and deviated.guideline_penalties == ("warning1",)
    dq = by_number[scenario.dq]
    assert dq.confirmation is not None and dq.confirmation.judge == HEAD_JUDGE[0]
    assert dq.penalty_abbr == "警3+失" and dq.infraction_ja == "イカサマ" and dq.infraction_en == "Cheating"
    assert by_number[scenario.missed_follow_up].remedy_ja.startswith("期限内に実行されず")


def test_the_csv_starts_with_a_bom_and_parses_back_to_the_same_rulings(scenario: Scenario) -> None:
    report = reports.penalty_report(scenario.db, scenario.event)
    content = reports.render(report, "csv").content
    assert content.startswith(BOM)
    header, *rows = list(csv.reader(io.StringIO(content[len(BOM) :].decode("utf-8"))))
    assert header == csv_header("Asia/Tokyo") + HEAD_COLUMNS  # every line ends with the ledger's head
    column = {name.split(" / ")[1]: n for n, name in enumerate(header)}
    assert len(rows) == len(report.rulings)
    for row, r in zip(rows, report.rulings, strict=True):
        assert int(row[column["ruling"]]) == r.number
        assert row[-2:] == [str(report.heads[0].position), report.heads[0].short]
        assert row[column["player id"]] == r.player and row[column["player name"]] == r.player_name
        assert row[column["infraction (Japanese)"]] == r.infraction_ja
        assert row[column["penalty (abbreviation)"]] == r.penalty_abbr
        assert row[column["guideline penalty (abbreviation)"]] == r.guideline_abbr
        assert r.rule not in row and "+".join(r.penalties) not in row, (
            "no ids or codes in the organiser's CSV"
        )
        assert row[column["state"]] == STATE_WORDS[r.state]  # Japanese, then English
        assert row[column["state"]].endswith(f" / {r.state}")
        assert row[column["void reason"]] == (r.void.reason if r.void else "")
        for d in r.deviations:
            assert d.reason in row[column["deviations and reasons"]]


@pytest.mark.parametrize("group", ["round", "player", "infraction"])
def test_the_report_is_grouped_the_way_an_organiser_reads_it(scenario: Scenario, group: str) -> None:
    report = reports.penalty_report(scenario.db, scenario.event, group)
    keys = [g.key for g in report.groups]
    assert len(keys) == len(set(keys)), "each round, player or infraction is one group"
    flat = report.rulings
    if group == "round":
        assert [(r.round or 99, r.table or 0) for r in flat] == sorted(
            (r.round or 99, r.table or 0) for r in flat
        )
    elif group == "player":
        assert keys == sorted(keys, key=int)
    else:
        order = BOOK.rule_ids()
        assert keys == sorted(keys, key=order.index)
    assert {r.number for r in flat} == expected_numbers(scenario.db, scenario.event)


def test_an_unknown_grouping_is_refused(scenario: Scenario) -> None:
    with pytest.raises(InvalidInput, match="round, player or infraction"):
        reports.penalty_report(scenario.db, scenario.event, "table")


def test_the_penalty_report_data_is_the_same_on_every_database(db: Database) -> None:
    event = load_demo(db, now=NOW).event_id
    corrections.deviate(db, event, 3, ["notice"], DEVIATION)
    corrections.void(db, event, 7, VOID)
    report = reports.penalty_report(db, event)
    assert {r.number for r in report.rulings} == expected_numbers(db, event)
    by_number = {r.number: r for r in report.rulings}
    assert by_number[7].void is not None and by_number[7].void.reason == VOID
    assert by_number[3].deviations[0].reason == DEVIATION
    assert by_number[1].confirmation is not None  # the demo's head judge confirmed it
    assert json.loads(reports.render(report, "json").content)["rulings_count"] == len(report.rulings)


# -- PDFs: Japanese as text, not boxes ------------------------------------------------------


def test_every_pdf_has_japanese_names_and_infractions_as_text(scenario: Scenario) -> None:
    db, event = scenario.db, scenario.event
    penalties = reports.penalty_report(db, event)
    dq = reports.dq_report(db, event)
    made = {
        "penalties": reports.render(penalties, "pdf").content,
        "dq": reports.render(dq, "pdf").content,
        "stats": reports.render(reports.statistics(db, event), "pdf").content,
        "slip": reports.render(reports.penalty_slip(db, event, scenario.dq), "pdf").content,
    }
    texts = {name: pdf_text(pdf) for name, pdf in made.items()}
    some = penalties.rulings[:3]
    for r in some:
        assert squeeze(r.player_name) in texts["penalties"] and r.infraction_ja in texts["penalties"]
    case = dq.cases[0].ruling
    for name in ("dq", "slip"):
        assert squeeze(case.player_name) in texts[name] and "イカサマ" in texts[name]
    assert "違反報告書" in texts["penalties"] and "失格調査報告書" in texts["dq"]
    assert squeeze(VOID) in texts["penalties"] and squeeze(DEVIATION) in texts["penalties"]
    assert "デッキの下から引くのを二度見ました" in texts["dq"]
    assert "ひどく遅いプレイ" in texts["stats"] and squeeze(FLOOR_JUDGE[0]) in texts["stats"]


def test_a_large_report_is_one_line_per_ruling(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    from shinpan.reports import formats

    monkeypatch.setattr(formats, "COMPACT_ABOVE", 0)
    report = reports.penalty_report(scenario.db, scenario.event)
    html = formats.to_html(report)
    assert html.count('<p class="line">') == len(report.rulings) and "<table" not in html
    text = pdf_text(reports.render(report, "pdf").content)
    assert (
        squeeze(report.rulings[0].player_name) in text
        and squeeze(VOID) in text
        and squeeze(DEVIATION) in text
    )


def test_the_slip_is_an_a6_page_with_a_qr_code_to_the_ruling(scenario: Scenario) -> None:
    slip = reports.penalty_slip(scenario.db, scenario.event, scenario.dq, "https://judge.example/")
    assert slip.url == f"https://judge.example/slip/{scenario.event}/{scenario.dq}"  # judges: the ruling
    assert slip.qr_svg.startswith("<svg") and "<path" in slip.qr_svg
    pdf = reports.render(slip, "pdf").content
    info = subprocess.run(
        ["pdfinfo", "-"], input=pdf, capture_output=True, timeout=30, check=True
    ).stdout.decode()
    assert re.search(r"Page size:\s+297\.6\d* x 419\.5\d* pts", info), "A6: 105 x 148 mm"
    assert re.search(r"Pages:\s+1\b", info)


# -- the disqualification report ------------------------------------------------------------


def test_the_dq_report_has_the_timeline_statements_rulings_and_decision(scenario: Scenario) -> None:
    report = reports.dq_report(scenario.db, scenario.event)
    (case,) = report.cases
    assert case.ruling.number == scenario.dq and case.player_status == "disqualified"
    kinds = [t.kind for t in case.timeline]
    assert kinds[0] == "ruling.recorded"
    for kind in ("player.status", "statement", "ruling.confirmed", "appeal.filed", "appeal.decided"):
        assert kind in kinds, kind
    assert [t.seq for t in case.timeline] == sorted(t.seq for t in case.timeline)
    assert [s.role for s in case.statements] == ["player", "opponent", "witness"]
    assert case.decision.outcome == "upheld" and case.decision.reason == "目撃者の陳述が一致する"
    assert scenario.dq in [r.number for r in case.player_rulings]
    assert all(r.player == scenario.dq_player for r in case.player_rulings)
    assert case.opponent is not None and case.note == "デッキの下から引いた"
    only = reports.dq_report(scenario.db, scenario.event, scenario.dq)
    assert [c.ruling.number for c in only.cases] == [scenario.dq]


# -- statistics and charts --------------------------------------------------------------------


def category_counts(db: Database, event: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    with db.read() as conn:
        for rule in Statement("SELECT rule FROM rulings WHERE event_id = :e AND state <> 'voided'").scalars(
            conn, {"e": event}
        ):
            counts[BOOK.infractions[rule].category if rule in BOOK.infractions else "general"] += 1
    return counts


def bars(svg: str, kind: str) -> dict[str, int]:
    found = re.findall(rf'id="bar-{kind}-(.+?)-(\d+)"', svg)
    return {key: int(count) for key, count in found}


def test_the_category_chart_has_one_bar_per_category_with_its_count(scenario: Scenario) -> None:
    stats = reports.statistics(scenario.db, scenario.event)
    svg = bar_chart("category", stats.by_category)
    assert bars(svg, "category") == dict(category_counts(scenario.db, scenario.event))
    assert "<style" not in svg and "style=" not in svg, (
        "styles are attributes: the page's CSP allows no inline style"
    )


def test_the_stats_document_embeds_the_charts(scenario: Scenario) -> None:
    from shinpan.reports.formats import to_html

    document = to_html(reports.statistics(scenario.db, scenario.event))
    for kind in ("category", "infraction", "round", "judge"):
        assert f'id="bar-{kind}-' in document, kind


def test_statistics_count_judges_waits_and_missed_deadlines(scenario: Scenario) -> None:
    stats = reports.statistics(scenario.db, scenario.event)
    (floor,) = [j for j in stats.judges if j.judge == FLOOR_JUDGE[0]]
    assert (floor.deviated, floor.voided) == (1, 1)
    assert stats.voided == 1 and stats.total == sum(category_counts(scenario.db, scenario.event).values())
    assert stats.waiting.confirmed >= 6 and stats.waiting.max_minutes is not None
    assert (
        stats.waiting.median_minutes is not None and stats.waiting.median_minutes <= stats.waiting.max_minutes
    )
    (missed,) = stats.missed
    assert (
        missed.rule == "cards.marked-no-pattern"
        and missed.infraction_ja == "マークドカード(規則性のないとき)"
    )
    assert sum(t.count for t in stats.by_round) == stats.total
    across = reports.statistics(scenario.db)
    assert across.scope is None and across.total >= stats.total


# -- a player's history -----------------------------------------------------------------------


def test_a_players_history_finds_the_same_person_in_every_event(scenario: Scenario) -> None:
    db = scenario.db
    from shinpan.services.queries import get_player

    with db.read() as conn:
        person = get_player(conn, scenario.event, scenario.dq_player)
    later = events.create_event(
        db, name="次の大会", head_judge=HEAD_JUDGE[0], head_judge_level=3, starts_on="2026-03-01"
    )
    from shinpan.files.csvio import PlayerRow

    reading_in_katakana = person.reading.translate({c: c + 0x60 for c in range(ord("ぁ"), ord("ゖ") + 1)})
    events.import_players(
        db,
        later,
        [
            PlayerRow("7", person.name.replace(" ", "\u3000"), reading_in_katakana, None),
            PlayerRow("8", person.name, "べつ の ひと", None),
        ],
    )
    recording.record(db, later, recording.RecordInput(player="7", infraction="severe.unsporting-conduct"))
    history = reports.history_of_player(db, scenario.event, scenario.dq_player)
    assert [(a.event.id, a.number) for a in history.appearances] == [
        (scenario.event, scenario.dq_player),
        (later, "7"),
    ]
    assert history.disqualifications == 1
    assert [r.rule for r in history.appearances[1].rulings] == ["severe.unsporting-conduct"]
    by_name = reports.player_history(db, person.name)
    assert {(a.event.id, a.number) for a in by_name.appearances} >= {(later, "7"), (later, "8")}


def test_kana_typed_in_the_name_field_finds_the_person_by_reading(scenario: Scenario) -> None:
    from shinpan.services.queries import get_player

    with scenario.db.read() as conn:
        person = get_player(conn, scenario.event, scenario.dq_player)
    katakana = person.reading.translate({c: c + 0x60 for c in range(ord("ぁ"), ord("ゖ") + 1)})
    for typed in (person.reading, katakana, person.reading.replace(" ", "")):
        found = reports.player_history(scenario.db, typed)
        assert (scenario.event, scenario.dq_player) in {(a.event.id, a.number) for a in found.appearances}, (
            typed
        )
    assert reports.player_history(scenario.db, "だれでもない").appearances == ()


# -- the command ------------------------------------------------------------------------------


def test_the_command_writes_every_report(scenario: Scenario, tmp_path: Path) -> None:
    url, event = scenario.url, str(scenario.event)
    target = tmp_path / "penalties.csv"
    done = run_cli("report", "penalties", "--event", event, "--format", "csv", "-o", str(target), db=url)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes().startswith(BOM)
    listed = json.loads(
        run_cli("report", "penalties", "--event", event, "-f", "json", "--group", "player", db=url).stdout
    )
    assert listed["group_by"] == "player" and listed["rulings_count"] == len(
        expected_numbers(scenario.db, scenario.event)
    )
    pdf = tmp_path / "dq.pdf"
    assert (
        run_cli(
            "report", "dq", "--event", event, "--ruling", str(scenario.dq), "-o", str(pdf), db=url
        ).returncode
        == 0
    )
    assert "イカサマ" in pdf_text(pdf.read_bytes())
    history = run_cli("report", "player", "--event", event, "--player", scenario.dq_player, db=url)
    assert json.loads(history.stdout)["disqualifications"] >= 1
    assert json.loads(run_cli("report", "stats", db=url).stdout)["scope"] is None
    slip = run_cli(
        "report",
        "slip",
        "--event",
        event,
        "--ruling",
        str(scenario.dq),
        "-f",
        "json",
        "--base-url",
        "http://10.0.0.5:8000",
        db=url,
    )
    assert json.loads(slip.stdout)["url"] == f"http://10.0.0.5:8000/slip/{event}/{scenario.dq}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["penalties", "--event", "999"], "no event 999"),
        (["dq", "--event", "{event}", "--ruling", "1"], "is not a disqualification"),
        (["dq", "--event", "{event}", "-f", "csv"], "not csv"),
        (["player", "--event", "{event}"], "--name NAME"),
        (["slip", "--event", "{event}", "--ruling", "1", "--base-url", "judge.local"], "http://"),
    ],
)
def test_the_command_says_what_is_wrong_without_a_traceback(
    scenario: Scenario, args: list[str], message: str
) -> None:
    done = run_cli("report", *[a.format(event=scenario.event) for a in args], db=scenario.url)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr


# -- the web app ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(scenario: Scenario) -> Iterator[dict[str, Any]]:
    app = create_app(scenario.db)
    clients = {}
    for role, (name, secret, *_) in (
        ("head_judge", HEAD_JUDGE),
        ("floor_judge", FLOOR_JUDGE),
        ("scorekeeper", SCOREKEEPER),
    ):
        clients[role] = sign_in(TestClient(app), name, secret)
    yield clients


PAGES = [
    "/events/{e}/reports",
    "/events/{e}/reports/penalties?group=infraction",
    "/events/{e}/reports/stats",
    "/events/{e}/reports/dq",
    "/events/{e}/reports/history?player={p}",
    "/reports/stats",
]


@pytest.mark.parametrize("path", PAGES)
def test_the_pages_render_for_the_head_judge_and_refuse_a_floor_judge(
    scenario: Scenario, http: dict[str, Any], path: str
) -> None:
    url = path.format(e=scenario.event, p=scenario.dq_player)
    page = http["head_judge"].get(url)
    assert page.status_code == 200, page.text[:300]
    assert "<html" in page.text
    refused = http["floor_judge"].get(url)
    assert refused.status_code == 403


def test_the_pages_show_the_reports(scenario: Scenario, http: dict[str, Any]) -> None:
    hj, e = http["head_judge"], scenario.event
    penalties = hj.get(f"/events/{e}/reports/penalties").text
    assert VOID in penalties and DEVIATION in penalties and "イカサマ" in penalties
    stats = hj.get(f"/events/{e}/reports/stats").text
    assert bars(stats, "category") == dict(category_counts(scenario.db, e))
    assert "<svg" in stats and "<script" not in stats.split("</head>")[1]
    dq = hj.get(f"/events/{e}/reports/dq").text
    assert "デッキの下から引くのを二度見ました" in dq
    ruling = http["floor_judge"].get(f"/events/{e}/rulings/{scenario.dq}")
    assert ruling.status_code == 200 and "イカサマ" in ruling.text


@pytest.mark.parametrize(("lang", "shown"), [("ja", "カテゴリ別の裁定"), ("en", "Rulings by category")])
def test_the_stats_page_speaks_the_users_language(
    scenario: Scenario, http: dict[str, Any], lang: str, shown: str
) -> None:
    client = http["head_judge"]
    client.http.cookies.set("lang", lang)
    try:
        assert shown in client.get(f"/events/{scenario.event}/reports/stats").text
    finally:
        client.http.cookies.set("lang", "ja")


def test_the_scorekeeper_exports_but_sees_no_dq_reports(scenario: Scenario, http: dict[str, Any]) -> None:
    sk, e = http["scorekeeper"], scenario.event
    assert sk.get(f"/events/{e}/reports/penalties").status_code == 200
    assert sk.get(f"/api/events/{e}/reports/stats").status_code == 200
    assert sk.get(f"/api/events/{e}/reports/dq").status_code == 403
    assert sk.get("/api/players/history", params={"name": "佐藤 翔太"}).status_code == 403


def as_sent(data: Any) -> Any:
    """Data as JSON carries it (tuples become lists)."""
    return json.loads(json.dumps(data, ensure_ascii=False))


def _without_time(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_time(v) for k, v in data.items() if k not in ("generated_at", "ledger_heads")}
    if isinstance(data, list):
        return [_without_time(v) for v in data]
    return data


def test_the_api_returns_the_same_data(scenario: Scenario, http: dict[str, Any]) -> None:
    hj, db, e = http["head_judge"], scenario.db, scenario.event
    same = [
        (f"/api/events/{e}/reports/penalties?format=json", reports.penalty_report(db, e)),
        (f"/api/events/{e}/reports/stats", reports.statistics(db, e)),
        (f"/api/events/{e}/reports/dq", reports.dq_report(db, e)),
    ]
    for path, report in same:
        got = hj.get(path)
        assert got.status_code == 200, got.text
        assert _without_time(got.json()) == _without_time(as_sent(report.as_json())), path
    person = reports.penalty_report(db, e).rulings[0].player_name
    history = hj.get("/api/players/history", params={"name": person, "event": e}).json()
    assert _without_time(history) == _without_time(as_sent(reports.player_history(db, person).as_json()))
    csv_file = hj.get(f"/api/events/{e}/reports/penalties?format=csv")
    assert csv_file.content.startswith(BOM) and csv_file.headers["content-type"].startswith("text/csv")
    slip = hj.get(f"/api/events/{e}/rulings/{scenario.dq}/slip")
    assert slip.headers["content-type"] == "application/pdf" and slip.content.startswith(b"%PDF")


def test_unknown_events_and_rulings_are_404(scenario: Scenario, http: dict[str, Any]) -> None:
    hj = http["head_judge"]
    assert hj.get("/api/events/999/reports/penalties").status_code == 404
    assert hj.get("/events/999/reports/stats").status_code == 404
    assert hj.get(f"/events/{scenario.event}/rulings/9999").status_code == 404
    bad = hj.get(f"/api/events/{scenario.event}/reports/penalties?format=xml")
    assert bad.status_code == 422
