"""Players on the web, as the head judge and the scorekeeper use the page:
a CSV file previewed (every problem by line, in Japanese) and imported whole; a late entrant;
a name or reading corrected; attendance before round 1; a drop; Matches with too few players.
Each change is one entry of the ledger; the projections stay what the entries give.

On a fresh SQLite file and a fresh PostgreSQL schema, through the app's own HTTP interface.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events, integrity, swiss
from shinpan.services.search import find_players
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import HEAD_JUDGE, SCOREKEEPER, Client, csrf_in, database_url, sign_in

GOOD_ROWS = [("1001", "田中 太郎", "タナカ タロウ", "東京"), ("1002", "髙橋 一", "たかはし はじめ", ""),
             ("1003", "①山本", "ヤマモト", "大阪")]  # fmt: skip


def excel_csv(rows: list[tuple[str, str, str, str]]) -> bytes:
    """A player list as Japanese Excel saves it: Shift_JIS (CP932), CRLF."""
    lines = ["番号,名前,フリガナ,所属", *(",".join(r) for r in rows)]
    return ("\r\n".join(lines) + "\r\n").encode("cp932")


@dataclass
class Desk:
    db: Database
    event: int
    head: Client
    scorekeeper: Client

    def entries(self, kind: str) -> list[dict[str, object]]:
        with self.db.read() as conn:
            rows = Statement("SELECT body FROM entries WHERE event_id = :e AND kind = :k ORDER BY seq").all(
                conn, {"e": self.event, "k": kind}
            )
        return [json.loads(r[0]) for r in rows]

    def count(self) -> int:
        with self.db.read() as conn:
            return int(
                Statement("SELECT count(*) FROM entries WHERE event_id = :e").scalar(conn, {"e": self.event})
            )

    def player(self, number: str) -> tuple[str, str, str | None, str]:
        with self.db.read() as conn:
            row = Statement(
                "SELECT name, reading, club, status FROM players WHERE event_id = :e AND number = :n"
            ).first(conn, {"e": self.event, "n": number})
        assert row is not None
        return (row[0], row[1], row[2], row[3])

    def post(self, client: Client, path: str, **data: str) -> str:
        """A form of the players page, sent; the page it leads to (post/redirect/get)."""
        page = client.get(f"/events/{self.event}/players")
        done = client.post(
            f"/events/{self.event}/players{path}",
            csrf=False,
            data={
                "csrf_token": csrf_in(page.text),
                "command_id": data.pop("command_id", "c-" + path + str(self.count())),
                **data,
            },
        )
        assert done.status_code in (200, 303), done.text
        return done.text


@pytest.fixture(params=["sqlite", "postgres"])
def desk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Desk]:
    with database_url(request.param, tmp_path) as url:
        db = Database(url)
        name, password, level = HEAD_JUDGE
        head = accounts.add_user(db, name, password, level)
        event = events.create_event(
            db, name="春の大会", head_judge=name, head_judge_level=level, head_judge_account=head.uid
        )
        accounts.join(db, accounts.invite(db, event, Role.scorekeeper, name), *SCOREKEEPER)
        app = create_app(db)
        clients = [
            sign_in(TestClient(app, raise_server_exceptions=False, follow_redirects=True), n, p)
            for n, p in ((name, password), SCOREKEEPER)
        ]
        try:
            yield Desk(db, event, *clients)
        finally:
            for c in clients:
                c.http.close()
            db.close()


def _preview(desk: Desk, client: Client, data: bytes) -> str:
    page = client.get(f"/events/{desk.event}/players")
    answer = client.post(
        f"/events/{desk.event}/players/preview",
        csrf=False,
        data={"csrf_token": csrf_in(page.text)},
        files={"file": ("名簿.csv", data, "text/csv")},
    )
    assert answer.status_code == 200, answer.text
    return answer.text


def test_a_shift_jis_file_with_one_bad_line_is_refused_whole_naming_the_line_in_japanese(desk: Desk) -> None:
    before = desk.count()
    bad = excel_csv([GOOD_ROWS[0], ("1002", "髙橋 一", "Takahashi", ""), GOOD_ROWS[2]])
    html = _preview(desk, desk.head, bad)
    assert "何も登録していません" in html
    assert "3行目 「フリガナ」: ひらがなかカタカナで書いてください" in html
    assert 'id="confirm-import"' not in html  # nothing to confirm
    assert desk.count() == before and desk.entries("players.imported") == []


def test_the_preview_lists_what_will_be_imported_and_writes_nothing_until_confirmed(desk: Desk) -> None:
    before = desk.count()
    html = _preview(desk, desk.head, excel_csv(GOOD_ROWS))
    assert "3人を登録します（Shift_JIS（Excel）として読み込みました）" in html
    for number, name, reading, _ in GOOD_ROWS:
        assert f"<td>{number}</td><td>{name}</td><td>{reading}</td>" in html
    assert desk.count() == before
    carried = re.search(r'name="data" value="([^"]+)"', html)
    assert carried is not None and base64.b64decode(carried[1]) == excel_csv(GOOD_ROWS)
    page = desk.post(desk.head, "/import", data=carried[1], command_id="import-once")
    assert "3人を登録しました" in page
    assert desk.count() == before + 1
    assert [p["name"] for p in desk.entries("players.imported")[0]["players"]] == [r[1] for r in GOOD_ROWS]  # type: ignore[index]
    desk.post(desk.head, "/import", data=carried[1], command_id="import-once")  # a retry: the same result
    assert desk.count() == before + 1


def test_the_preview_shows_the_handles_players_will_go_by_on_their_pages(desk: Desk) -> None:
    text = "番号,名前,フリガナ,ハンドル\n3001,佐藤 健,サトウ ケン,kenken\n3002,鈴木 花子,スズキ ハナコ,\n"
    html = _preview(desk, desk.head, b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert "ハンドル(プレイヤー向けページ)" in html  # T12: what "shown by handles" will show
    assert '<td class="handle">kenken</td>' in html and '<td class="handle"></td>' in html
    plain = _preview(desk, desk.head, excel_csv(GOOD_ROWS))  # no handles: no empty column
    assert "ハンドル(プレイヤー向けページ)" not in plain


def test_a_number_already_registered_is_a_problem_of_its_line(desk: Desk) -> None:
    desk.post(desk.head, "/add", number="1002", name="先客", reading="せんきゃく", club="")
    html = _preview(desk, desk.head, excel_csv(GOOD_ROWS))
    assert "3行目 「番号」: 「1002」はこの大会にすでに登録されています。" in html


def test_utf8_with_and_without_bom_are_read_alike(desk: Desk) -> None:
    text = "番号,名前,フリガナ\n2001,佐藤 花,サトウ ハナ\n"
    for data, said in (
        (text.encode("utf-8"), "UTF-8として"),
        (b"\xef\xbb\xbf" + text.encode("utf-8"), "BOM付き"),
    ):
        assert said in _preview(desk, desk.scorekeeper, data)


def test_a_late_entrant_is_one_entry_checked_like_a_csv_row(desk: Desk) -> None:
    refused = desk.post(desk.head, "/add", number="3001", name="遅刻 太郎", reading="Chikoku", club="")
    assert "フリガナ: ひらがなかカタカナで書いてください" in refused
    assert desk.entries("players.imported") == []
    done = desk.post(
        desk.scorekeeper, "/add", number="３００１", name="遅刻 太郎", reading="ちこく たろう", club=""
    )
    assert "遅刻 太郎（3001）を登録しました" in done
    assert desk.entries("players.imported") == [
        {"players": [{"number": "3001", "name": "遅刻 太郎", "reading": "ちこく たろう", "club": None}]}
    ]


def test_a_name_or_reading_corrected_is_an_entry_and_search_finds_the_new_name(desk: Desk) -> None:
    desk.post(desk.head, "/add", number="4001", name="高橋 一", reading="たかはし", club="")
    assert [p.number for p in find_players(desk.db, desk.event, "takahashi")] == [
        "4001"
    ]  # the index is built
    page = desk.post(desk.head, "/4001/correct", name="髙橋 一", reading="タカハシ ハジメ", club="名古屋")
    assert "4001: 髙橋 一 に修正しました" in page
    assert desk.entries("player.corrected") == [
        {"player": "4001", "name": "髙橋 一", "reading": "タカハシ ハジメ", "club": "名古屋"}
    ]
    assert desk.player("4001")[:3] == ("髙橋 一", "タカハシ ハジメ", "名古屋")
    assert [p.number for p in find_players(desk.db, desk.event, "hajime")] == ["4001"]
    assert not integrity.rebuild(desk.db, desk.event, check_only=True)  # the projection is the entries'
    again = desk.post(desk.head, "/4001/correct", name="髙橋 一", reading="タカハシ ハジメ", club="名古屋")
    assert "何も変更されていません" in again and len(desk.entries("player.corrected")) == 1


def test_an_absent_player_is_not_paired_in_round_1_and_drops_before_it(desk: Desk) -> None:
    for n in range(1, 6):
        desk.post(desk.head, "/add", number=f"50{n:02d}", name=f"選手 {n}", reading="せんしゅ", club="")
    desk.post(desk.head, "/5003/attendance", present="0")
    desk.post(desk.head, "/5004/attendance", present="0")
    page = desk.post(desk.head, "/5004/attendance", present="1")  # came after all
    assert "選手 4 (5004): 出席" in page  # named as the entry list names them
    paired = swiss.pair_next_round(desk.db, desk.event, seed=7, command_id="pair-1")
    seated = {p["a"] for p in paired.pairings} | {p["b"] for p in paired.pairings if p["b"]}
    assert seated == {"5001", "5002", "5004", "5005"}
    assert desk.player("5003")[3] == "dropped"
    assert desk.entries("player.dropped") == [{"player": "5003", "round": 0}]
    late = desk.post(desk.head, "/5005/attendance", present="0")
    assert "出欠は第1ラウンドを組む前に取ります" in late


def test_the_players_page_drops_a_player_between_rounds(desk: Desk) -> None:
    for n in range(1, 3):
        desk.post(desk.head, "/add", number=f"60{n:02d}", name=f"選手 {n}", reading="", club="")
    page = desk.post(desk.scorekeeper, "/6002/drop")
    assert "選手 2 (6002)がドロップしました" in page and desk.player("6002")[3] == "dropped"
    assert desk.entries("player.dropped") == [{"player": "6002", "round": 0}]


def test_a_floor_judge_has_no_players_page(desk: Desk, tmp_path: Path) -> None:
    from web_support import FLOOR_JUDGE

    accounts.join(
        desk.db, accounts.invite(desk.db, desk.event, Role.floor_judge, HEAD_JUDGE[0]), *FLOOR_JUDGE
    )
    floor = sign_in(TestClient(create_app(desk.db)), *FLOOR_JUDGE)
    refused = floor.get(f"/events/{desk.event}/players")
    assert (
        refused.status_code == 403 and "フロアジャッジには「参加者の管理」の権限がありません" in refused.text
    )


def test_matches_offers_no_pairing_below_two_players_and_never_says_round_0(desk: Desk) -> None:
    for number in ("7001", "7002"):  # none, then one player
        html = desk.scorekeeper.get(f"/events/{desk.event}/scorekeeper").text
        assert 'id="pair-next"' not in html and 'id="too-few-players"' in html, number
        assert "ラウンド0" not in html and "0終了" not in html
        desk.post(desk.head, "/add", number=number, name=f"選手 {number}", reading="", club="")
    html = desk.scorekeeper.get(f"/events/{desk.event}/scorekeeper").text
    assert 'id="pair-next"' in html and "ラウンド0" not in html


def test_a_corrected_name_redraws_every_panel_of_the_desk() -> None:
    from shinpan.web.live import PANELS, panels_touched

    assert panels_touched(frozenset({"player.corrected"})) == list(PANELS)


def test_an_export_with_corrections_and_attendance_is_decided_again_on_import(
    desk: Desk, tmp_path: Path
) -> None:
    from shinpan.files import transfer

    for n in range(1, 5):
        desk.post(desk.head, "/add", number=f"80{n:02d}", name=f"選手 {n}", reading="せんしゅ", club="")
    desk.post(desk.head, "/8001/correct", name="選手 一", reading="せんしゅ いち", club="京都")
    desk.post(desk.head, "/8004/attendance", present="0")
    swiss.pair_next_round(desk.db, desk.event, seed=11, command_id="pair-export")
    other = Database(f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    try:
        imported = transfer.import_event(other, transfer.export_event(desk.db, desk.event))
        copy = Desk(other, imported.event_id, desk.head, desk.scorekeeper)
        assert copy.player("8001") == ("選手 一", "せんしゅ いち", "京都", "active")
        assert copy.player("8004")[3] == "dropped"
        assert copy.entries("player.attendance") == [{"player": "8004", "present": False}]
    finally:
        other.close()
