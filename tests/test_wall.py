"""The venue wall: pairings by table and in 50-on order of the readings, standings; CSV, HTML, PDF."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from shinpan import reports
from shinpan.kana import gojuon_key
from shinpan.tournament import Entrant, Pairing, Played, PlayerState, standings
from test_reports import pdf_text

STAMP = "2026-12-05T01:30:00Z"
PEOPLE = {
    "1001": ("山田 太郎", "ヤマダ タロウ"),
    "1002": ("秋山 花子", "あきやま はなこ"),
    "1003": ("加藤 一", "カトウ ハジメ"),
    "1004": ("後藤 健", "ゴトウ ケン"),
    "1005": ("=HYPERLINK(1)", ""),
}
PAIRINGS = [Pairing(1, "1003", "1001"), Pairing(2, "1002", "1004"), Pairing(None, "1005", None)]


def gojuon(*readings: str) -> list[str]:
    return sorted(readings, key=gojuon_key)


# --- 50-on order


def test_readings_go_in_fifty_sound_order_a_ka_ga_ki() -> None:
    assert gojuon("き", "が", "か", "あ") == ["あ", "か", "が", "き"]


def test_a_voiced_kana_sorts_after_its_plain_kana_only_when_the_rest_is_equal() -> None:
    assert gojuon("かき", "がか", "かか") == ["かか", "がか", "かき"]
    assert gojuon("ぱ", "は", "ひ", "ば") == ["は", "ば", "ぱ", "ひ"]


def test_katakana_and_half_width_katakana_sort_as_hiragana() -> None:
    assert gojuon("カトウ", "かとう", "ｲﾄｳ", "さとう", "ゴトウ") == [
        "ｲﾄｳ",
        "カトウ",
        "かとう",
        "ゴトウ",
        "さとう",
    ]


def test_small_kana_and_the_long_vowel_mark_sort_with_their_plain_vowels() -> None:
    assert gojuon("きや", "きゃ", "きあ") == ["きあ", "きゃ", "きや"]
    assert gojuon("かく", "カード", "かあ") == ["かあ", "カード", "かく"]


def test_a_family_name_that_ends_first_comes_first() -> None:
    assert gojuon("やまだ あきら", "やま だいすけ") == ["やま だいすけ", "やまだ あきら"]


def test_names_without_kana_come_after_the_kana() -> None:
    assert gojuon("Smith", "わたなべ", "ん", "Adams") == ["わたなべ", "ん", "Adams", "Smith"]


# --- pairings


def test_pairings_by_table_are_one_line_a_table_the_bye_last() -> None:
    wall = reports.pairings_by_table(
        "Spring Open", 3, reports.pairing_rows(PAIRINGS, PEOPLE), generated_at=STAMP
    )
    assert [(line.table, line.player, line.opponent) for line in wall.lines] == [
        (1, "1003", "1001"),
        (2, "1002", "1004"),
        (None, "1005", None),
    ]


def test_pairings_by_name_list_every_player_under_their_reading() -> None:
    wall = reports.pairings_by_name(
        "Spring Open", 3, reports.pairing_rows(PAIRINGS, PEOPLE), generated_at=STAMP
    )
    assert [(line.reading, line.table, line.opponent_name) for line in wall.lines] == [
        ("あきやま はなこ", 2, "後藤 健"),
        ("カトウ ハジメ", 1, "山田 太郎"),
        ("ゴトウ ケン", 2, "秋山 花子"),
        ("ヤマダ タロウ", 1, "加藤 一"),
        ("", None, ""),  # no reading: sorted by the name, which is no kana
    ]


def test_the_pairings_csv_has_both_languages_and_no_formula() -> None:
    wall = reports.pairings_by_table(
        "Spring Open", 3, reports.pairing_rows(PAIRINGS, PEOPLE), generated_at=STAMP
    )
    content = reports.render(wall, "csv").content
    assert content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["卓 / table", "プレイヤー番号 / player id", "プレイヤー / player"]
    assert rows[1][:7] == ["1", "1003", "加藤 一", "カトウ ハジメ", "1001", "山田 太郎", "ヤマダ タロウ"]
    assert rows[3][:6] == ["", "1005", "'=HYPERLINK(1)", "", "", "不戦勝 / bye"]


def test_the_pairings_print_as_html_and_pdf_with_their_japanese() -> None:
    wall = reports.pairings_by_name(
        "Spring Open", 3, reports.pairing_rows(PAIRINGS, PEOPLE), generated_at=STAMP
    )
    html = reports.render(wall, "html").content.decode("utf-8")
    assert "対戦表 第3ラウンド" in html and "名前順(五十音)" in html
    assert html.index("あきやま はなこ") < html.index("カトウ ハジメ") < html.index("ヤマダ タロウ")
    assert "=HYPERLINK(1)" in html and "<script" not in html
    text = pdf_text(reports.render(wall, "pdf").content)
    assert "対戦表" in text and "秋山花子" in text and "不戦勝" in text


def test_the_pairings_json_names_both_players() -> None:
    wall = reports.pairings_by_table(
        "Spring Open", 3, reports.pairing_rows(PAIRINGS, PEOPLE), generated_at=STAMP
    )
    data = json.loads(reports.render(wall, "json").content)
    assert data["round"] == 3 and data["order"] == "table"
    assert data["pairings"][0] == {
        "table": 1,
        "player": "1003",
        "name": "加藤 一",
        "reading": "カトウ ハジメ",
        "opponent": "1001",
        "opponent_name": "山田 太郎",
        "opponent_reading": "ヤマダ タロウ",
    }


# --- standings


def wall_standings() -> reports.WallStandings:
    entrants = [Entrant(p) for p in PEOPLE] + [Entrant("1006", PlayerState.disqualified)]
    matches = [
        Played(1, "1001", "1002", "a", ("1001", "1002", "1001")),
        Played(1, "1003", "1004", "draw", ()),
        Played(1, "1005", "1006", "a", (), by_penalty=True),
    ]
    lines = standings(entrants, matches)
    return reports.wall_standings("Spring Open", 1, reports.standing_rows(lines, PEOPLE), generated_at=STAMP)


def test_the_standings_show_rank_points_record_and_percentages() -> None:
    wall = wall_standings()
    html = reports.render(wall, "html").content.decode("utf-8")
    assert "順位表 第1ラウンド終了時" in html
    first = wall.lines[0]
    assert (first.rank, first.player, first.points) == (1, "1005", 3)
    assert first.percents() == ("33.33%", "100.00%", "33.33%")
    assert "66.67%" in html  # 1001's game-win percentage: 2 duels of 3
    assert (wall.lines[-1].rank, wall.lines[-1].status_words()) == (None, ("失格", "disqualified"))


def test_the_standings_csv_and_json_carry_fractions_to_four_decimals() -> None:
    wall = wall_standings()
    rows = list(csv.reader(io.StringIO(reports.render(wall, "csv").content.decode("utf-8-sig"))))
    assert rows[0][0] == "順位 / rank"
    by_player = {row[1]: row for row in rows[1:]}
    assert by_player["1001"][4:11] == ["3", "1", "0", "0", "0.3333", "0.6667", "0.3333"]
    assert by_player["1006"][0] == "" and by_player["1006"][-1] == "失格 / disqualified"
    data = json.loads(reports.render(wall, "json").content)
    assert data["standings"][1]["gw"] == round(float(Fraction(2, 3)), 4)


def test_the_standings_print_as_pdf() -> None:
    text = pdf_text(reports.render(wall_standings(), "pdf").content)
    assert "順位表" in text and "山田太郎" in text and "失格" in text
