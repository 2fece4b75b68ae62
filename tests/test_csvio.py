"""shinpan.files.csvio: the player and pairing CSV files organisers really have."""

import codecs
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from shinpan.files.csvio import (
    MAX_BYTES,
    CsvError,
    CsvProblem,
    PairingRow,
    PlayerRow,
    decode,
    parse_pairings,
    parse_players,
)

Parser = Callable[[bytes], object]


def csv_bytes(*lines: str, encoding: str = "utf-8", newline: str = "\n") -> bytes:
    return (newline.join(lines) + newline).encode(encoding)


def problems_of(parse: Parser, data: bytes) -> list[CsvProblem]:
    with pytest.raises(CsvError) as raised:
        parse(data)
    return raised.value.problems


def only_problem(parse: Parser, data: bytes) -> CsvProblem:
    problems = problems_of(parse, data)
    assert len(problems) == 1, problems
    return problems[0]


def decode_problem(data: bytes) -> CsvProblem:
    with pytest.raises(CsvError) as raised:
        decode(data)
    assert len(raised.value.problems) == 1
    return raised.value.problems[0]


# --- encodings ----------------------------------------------------------------------------------


def test_utf8_with_bom_file_from_excel(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_bytes(
        codecs.BOM_UTF8 + csv_bytes("番号,名前,フリガナ,所属", "1,山田 太郎,やまだ たろう,秋葉原店")
    )
    data = path.read_bytes()
    text, encoding = decode(data)
    assert encoding == "utf-8-sig"
    assert text.startswith("番号,")  # BOM gone, so the first column is still recognised
    assert parse_players(data) == [PlayerRow("1", "山田 太郎", "やまだ たろう", "秋葉原店")]


def test_utf8_without_bom() -> None:
    data = csv_bytes("id,name,reading", "7,Ａｌｉｃｅ,アリス")
    assert decode(data) == ("id,name,reading\n7,Ａｌｉｃｅ,アリス\n", "utf-8")
    assert parse_players(data) == [PlayerRow("7", "Ａｌｉｃｅ", "アリス", None)]


def test_cp932_file_from_japanese_excel(tmp_path: Path) -> None:
    lines = [
        "参加者番号,氏名,フリガナ,ショップ",
        "1,髙橋 一郎,タカハシ イチロウ,①号店",
        "2,渡邉 花子,ﾜﾀﾅﾍﾞ ﾊﾅｺ,",
    ]
    with pytest.raises(UnicodeEncodeError):
        "髙橋".encode("shift_jis")  # the point: plain Shift_JIS cannot, Excel's cp932 can
    path = tmp_path / "players_sjis.csv"
    path.write_bytes(csv_bytes(*lines, encoding="cp932", newline="\r\n"))
    data = path.read_bytes()
    assert decode(data)[1] == "cp932"
    assert parse_players(data) == [
        PlayerRow("1", "髙橋 一郎", "タカハシ イチロウ", "①号店"),  # name and club kept as written
        PlayerRow("2", "渡邉 花子", "ワタナベ ハナコ", None),  # half-width kana reading NFKC'd
    ]


def test_crlf_line_endings_and_english_headers() -> None:
    data = csv_bytes("Player ID,Name,Kana,Club", "101,Bob,ボブ,Team X", "102,Carol,,", newline="\r\n")
    assert parse_players(data) == [
        PlayerRow("101", "Bob", "ボブ", "Team X"),
        PlayerRow("102", "Carol", "", None),
    ]


def test_nul_bytes_are_refused_up_front() -> None:
    problem = decode_problem(b"id,name\n1,a\x00b\n")
    assert problem.line is None
    assert "NUL" in problem.message_en and "NUL" in problem.message_ja


def test_utf16_and_excel_workbooks_are_refused_with_advice() -> None:
    utf16 = decode_problem("id,name\n".encode("utf-16"))
    assert "UTF-16" in utf16.message_en and "CSV UTF-8" in utf16.message_en
    xlsx = decode_problem(b"PK\x03\x04\x14\x00\x06\x00rest-of-a-zip")
    assert "Excel workbook" in xlsx.message_en and "Excel" in xlsx.message_ja


def test_undecodable_bytes_name_their_line() -> None:
    problem = decode_problem(b"id,name\n1,ok\n2,\x82\xff\n")
    assert problem.line == 3
    assert "neither UTF-8 nor Shift_JIS" in problem.message_en


def test_utf8_cut_inside_a_character_is_truncation_not_shift_jis() -> None:
    whole = csv_bytes("番号,名前", "1,山田")
    problem = decode_problem(whole[:-2])  # drops "\n" and the last byte of 田
    assert problem.line == 2
    assert "middle of a character" in problem.message_en


def test_control_characters_mean_not_a_text_file() -> None:
    problem = decode_problem(b"id,name\n1,a\x07b\n")
    assert problem.line == 2
    assert problem.message_en.startswith("Unexpected character U+0007")
    assert decode_problem(b"id,name\n1,\xfd\n").line == 2  # valid cp932, but no real text has it


def test_ten_megabytes_of_random_garbage_fails_fast() -> None:
    garbage = random.Random(20240601).randbytes(10 * 1024 * 1024)
    started = time.perf_counter()
    nul = only_problem(parse_players, garbage)
    no_nul = only_problem(parse_players, garbage.replace(b"\x00", b"\x01"))
    assert time.perf_counter() - started < 2.0
    assert "NUL" in nul.message_en
    assert "neither UTF-8 nor Shift_JIS" in no_nul.message_en


def test_ten_megabytes_of_readable_garbage_stops_early_with_a_capped_list() -> None:
    data = b"id,name\n" + b"x\n" * (5 * 1024 * 1024)  # 5 million bad rows, each too short
    started = time.perf_counter()
    with pytest.raises(CsvError) as raised:
        parse_players(data)
    assert time.perf_counter() - started < 2.0
    error = raised.value
    assert error.total == 1000
    assert len(error.problems) == 52  # 50 listed, "…and 950 more", "checking stopped"
    assert (error.problems[0].line, error.problems[49].line) == (2, 51)
    assert error.problems[50].message_en == "…and 950 more problems."
    assert error.problems[51].message_en == "…too many problems: checking stopped at line 1002."


def test_oversized_file_is_refused_before_reading() -> None:
    problem = decode_problem(b"a" * (MAX_BYTES + 1))
    assert "too large" in problem.message_en and "20 MB" in problem.message_en


# --- the shape of the file ----------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"\n\r\n  \n", codecs.BOM_UTF8, b",,,\n,,\n"])
def test_empty_file(data: bytes) -> None:
    problem = only_problem(parse_players, data)
    assert problem == CsvProblem(None, None, "ファイルが空です。", "The file is empty.")


def test_header_only_means_no_players() -> None:
    problem = only_problem(parse_players, csv_bytes("番号,名前"))
    assert (problem.line, problem.column) == (None, None)
    assert problem.message_en == "There are no players: the file has only a header row."


def test_blank_lines_are_skipped_and_line_numbers_stay_physical() -> None:
    data = csv_bytes("", "番号,名前", "", "1,山田", "", "2,", "", "")
    problem = only_problem(parse_players, data)
    assert (problem.line, problem.column) == (6, "名前")


def test_quoted_line_breaks_are_refused_and_keep_later_line_numbers_physical() -> None:
    data = csv_bytes("番号,名前,所属", '1,山田,"本店', '二階"', "2,,")
    problems = problems_of(parse_players, data)
    assert [(p.line, p.column) for p in problems] == [(2, "所属"), (4, "名前")]
    assert problems[0].message_en == "the value contains a line break or tab."


def test_tab_separated_file() -> None:
    data = csv_bytes("番号\t名前\tよみ", "1\t佐藤\tさとう")
    assert parse_players(data) == [PlayerRow("1", "佐藤", "さとう", None)]


def test_truncated_file_cut_inside_a_quoted_field() -> None:
    whole = csv_bytes("番号,名前,所属", "1,山田,本店", '2,鈴木,"渋谷, 二号店"', "3,田中,本店")
    cut = whole[: whole.index("二号店".encode())]
    problem = only_problem(parse_players, cut)
    assert (problem.line, problem.column) == (3, None)
    assert "never closed" in problem.message_en and "cut short" in problem.message_en
    assert "引用符" in problem.message_ja


def test_truncated_file_cut_mid_row() -> None:
    whole = csv_bytes("番号,名前,フリガナ", "1,山田,やまだ", "2,鈴木,すずき")
    problem = only_problem(parse_players, whole[: whole.index("鈴木".encode())])
    assert (problem.line, problem.column) == (3, None)
    assert problem.message_en == "too few fields (2; the header has 3); is the row cut short?"
    assert (
        problem.text("ja")
        == "3行目: 列が足りません（2列、見出しは3列）。行が途中で切れていないか確認してください。"
    )


def test_misplaced_quote() -> None:
    problem = only_problem(parse_players, csv_bytes("番号,名前", '1,"山田"太郎'))
    assert problem.line == 2
    assert "misplaced" in problem.message_en


def test_too_few_and_too_many_fields_are_reported_per_line() -> None:
    data = csv_bytes("番号,名前,所属", "1,山田", "2,鈴木,本店,余分", "3,田中,本店,,", "4,佐藤,本店")
    problems = problems_of(parse_players, data)
    assert [(p.line, p.column) for p in problems] == [(2, None), (3, None)]
    assert problems[0].message_en == "too few fields (2; the header has 3); is the row cut short?"
    assert problems[1].message_en == "field 4 has a value ('余分') but no column heading; a stray comma?"


# --- headers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "id,name,reading,club",
        "ID,NAME,READING,CLUB",
        "ＩＤ,Ｎａｍｅ,ｆｕｒｉｇａｎａ,ｃｌｕｂ",  # full-width
        " Player ID , Player Name ,Kana, Team ",
        "event_id,full-name,name kana,shop",
        "プレイヤーID,プレイヤー名,ﾌﾘｶﾞﾅ,チーム",  # half-width katakana
        "参加者番号,氏名,ふりがな,所属",
        "登録番号,名前,よみがな,クラブ",
        "ID番号,名前,読み,ショップ",
        "番号,名前,よみ,所属",
    ],
)
def test_player_headers_in_japanese_or_english(header: str) -> None:
    data = csv_bytes(header, "　12　,　山田　太郎　,ヤマダ　タロウ,本店")  # full-width spaces trimmed
    assert parse_players(data) == [PlayerRow("12", "山田　太郎", "ヤマダ タロウ", "本店")]


def test_missing_name_column_is_named() -> None:
    problems = problems_of(parse_players, csv_bytes("番号,フリガナ", "1,やまだ"))
    assert (problems[0].line, problems[0].column) == (1, "名前")
    assert problems[0].message_en == "required column is missing; add it."
    assert problems[0].text("ja") == "1行目 「名前」: 必要な列がありません。列を追加してください。"
    assert problems[1].line is None and "氏名" in problems[1].message_ja  # the list of names
    english = problems_of(parse_players, csv_bytes("id,kana", "1,やまだ"))
    assert english[0].column == "name"
    assert english[0].text("en") == "line 1, column 'name': required column is missing; add it."


def test_unknown_column_is_rejected_with_the_recognised_names() -> None:
    with pytest.raises(CsvError) as raised:
        parse_players(csv_bytes("番号,名前,フリガナ（カナ）", "1,山田,やまだ"))
    error = raised.value
    assert error.total == 1
    unknown, listing = error.problems
    assert (unknown.line, unknown.column) == (1, "フリガナ（カナ）")  # as the file writes it
    assert unknown.message_en == "unknown column; rename it or delete the column."
    assert listing.message_en.startswith("Recognised column names: number: 番号, 参加者番号")
    assert "reading (optional): フリガナ" in listing.message_en
    assert "フリガナ（省略可）: フリガナ、ふりがな" in listing.message_ja


def test_duplicated_column() -> None:
    problems = problems_of(parse_players, csv_bytes("番号,名前,氏名", "1,山田,山田"))
    assert (problems[0].line, problems[0].column) == (1, "氏名")
    assert problems[0].message_en == "the same column as '名前' (name) appears twice; delete one."


def test_data_without_a_header_row() -> None:
    problems = problems_of(parse_players, csv_bytes("1,山田,やまだ", "2,鈴木,すずき"))
    assert (problems[0].line, problems[0].column) == (1, None)
    assert problems[0].message_en.startswith("No header row")


def test_header_problems_stop_before_rows_are_checked() -> None:
    problems = problems_of(parse_players, csv_bytes("番号,名前,謎", "1,", "1,"))
    assert [(p.line, p.column) for p in problems] == [(1, "謎"), (None, None)]


def test_blank_headed_columns_are_ignored_when_empty() -> None:
    assert parse_players(csv_bytes("番号,,名前,", "1,,山田,")) == [PlayerRow("1", "山田", "", None)]


# --- player rows --------------------------------------------------------------------------------


def test_duplicate_ids_name_the_first_line() -> None:
    data = csv_bytes("番号,名前", "1,山田", "2,鈴木", "1,田中", "１,佐藤")  # full-width １ is 1
    problems = problems_of(parse_players, data)
    assert [(p.line, p.column) for p in problems] == [(4, "番号"), (5, "番号")]
    assert problems[0].message_en == "'1' already appears on line 2."
    assert problems[1].text("ja") == "5行目 「番号」: 「1」は2行目にもあります。重複しています。"


def test_empty_names_and_numbers() -> None:
    data = csv_bytes("id,name", "1,Alice", "2,  ", ",Bob", "4,\u3000")
    problems = problems_of(parse_players, data)
    assert [(p.line, p.column) for p in problems] == [(3, "name"), (4, "id"), (5, "name")]
    assert problems[0].text("en") == "line 3, column 'name': empty; fill it in."
    assert problems[0].text() == "3行目 「name」: 空です。値を入れてください。"


def test_name_too_long() -> None:
    problem = only_problem(parse_players, csv_bytes("番号,名前", "1," + "あ" * 101))
    assert (problem.line, problem.column) == (2, "名前")
    assert problem.message_en == "too long (101 characters; at most 100)."


def test_reading_must_be_kana() -> None:
    data = csv_bytes("番号,名前,フリガナ", "1,山田,やまだ・タロー", "2,鈴木,鈴木すずき", "3,Bob,Bob")
    problems = problems_of(parse_players, data)
    assert [(p.line, p.column) for p in problems] == [(3, "フリガナ"), (4, "フリガナ")]
    assert problems[0].message_ja == "ひらがなかカタカナで書いてください（使えない文字:「鈴木」）。"
    assert problems[1].message_en == "write it in kana (hiragana or katakana); not allowed: 'Bob'."


def test_line_break_inside_a_name() -> None:
    problem = only_problem(parse_players, csv_bytes("番号,名前", '1,"山田\n太郎"'))
    assert (problem.line, problem.column) == (2, "名前")
    assert problem.message_en == "the value contains a line break or tab."


def test_every_bad_row_is_reported_in_line_order_and_nothing_is_returned() -> None:
    data = csv_bytes(
        "番号,名前,フリガナ", "1,山田,やまだ", "2,,すずき", "3,田中", "1,佐藤,さとう", "5,伊藤,ito"
    )
    with pytest.raises(CsvError) as raised:
        parse_players(data)
    assert [(p.line, p.column) for p in raised.value.problems] == [
        (3, "名前"),
        (4, None),
        (5, "番号"),
        (6, "フリガナ"),
    ]
    assert str(raised.value).splitlines()[:2] == [
        "The CSV file has 4 problems:",
        "  line 3, column '名前': empty; fill it in.",
    ]
    assert raised.value.text("ja").splitlines()[0] == "CSVファイルに4件の問題があります:"


def test_problem_list_is_capped() -> None:
    data = csv_bytes("番号,名前", *(f"{i}," for i in range(1, 121)))
    with pytest.raises(CsvError) as raised:
        parse_players(data)
    error = raised.value
    assert error.total == 120
    assert len(error.problems) == 51
    assert error.problems[-1] == CsvProblem(
        None, None, "…ほかに70件の問題があります。", "…and 70 more problems."
    )


def test_problem_text_formats() -> None:
    assert CsvProblem(3, "名前", "空です", "empty").text() == "3行目 「名前」: 空です"
    assert CsvProblem(3, "名前", "空です", "empty").text("en") == "line 3, column '名前': empty"
    assert CsvProblem(3, None, "x", "y").text("en") == "line 3: y"
    assert CsvProblem(None, None, "x", "y").text() == "x"


# --- pairings -----------------------------------------------------------------------------------


def test_pairings_with_byes_in_japanese() -> None:
    data = csv_bytes("卓番号,プレイヤー1,プレイヤー2", "1,101,102", "２,103,不戦勝", "3,104,", "4,105,BYE")
    assert parse_pairings(data) == [
        PairingRow(1, "101", "102"),
        PairingRow(2, "103", None),
        PairingRow(3, "104", None),
        PairingRow(4, "105", None),
    ]


@pytest.mark.parametrize(
    "header",
    [
        "table,player a,player b",
        "Table,Player1,Player2",
        "テーブル,プレイヤーA,対戦相手",
        "卓,A,B",
        "卓番号,プレイヤー1番号,プレイヤー2番号",
    ],
)
def test_pairing_headers(header: str) -> None:
    assert parse_pairings(csv_bytes(header, "7,1,bye")) == [PairingRow(7, "1", None)]


def test_duplicate_table() -> None:
    problem = only_problem(parse_pairings, csv_bytes("卓,プレイヤー1,プレイヤー2", "1,1,2", "01,3,4"))
    assert (problem.line, problem.column) == (3, "卓")
    assert problem.message_en == "'1' already appears on line 2."


def test_player_twice_names_the_first_line() -> None:
    data = csv_bytes("table,player a,player b", "1,10,11", "2,12,10", "3,11,13")
    problems = problems_of(parse_pairings, data)
    assert [(p.line, p.column) for p in problems] == [(3, "player b"), (4, "player a")]
    assert problems[0].message_en == "'10' already appears on line 2."
    assert problems[1].message_en == "'11' already appears on line 2."


def test_self_pairing() -> None:
    problem = only_problem(parse_pairings, csv_bytes("卓,プレイヤー1,プレイヤー2", "1,10,１０"))
    assert (problem.line, problem.column) == (2, "プレイヤー2")
    assert problem.text("ja") == "2行目 「プレイヤー2」: 「10」が自分自身と対戦しています。"


@pytest.mark.parametrize("table", ["A", "0", "-1", "1.5", "１卓", "1234567"])
def test_non_numeric_or_non_positive_table(table: str) -> None:
    problem = only_problem(parse_pairings, csv_bytes("table,player a,player b", f"{table},1,2"))
    assert (problem.line, problem.column) == (2, "table")
    assert problem.message_en.startswith("the table must be a whole number from 1 up")


def test_bye_and_empty_in_player_a() -> None:
    data = csv_bytes("table,player a,player b", "1,BYE,2", "2,,3")
    problems = problems_of(parse_pairings, data)
    assert [(p.line, p.column) for p in problems] == [(2, "player a"), (3, "player a")]
    assert problems[0].message_en == "a bye goes in the player B column; put the player here."
    assert problems[1].message_en == "empty; fill it in."


def test_header_only_means_no_pairings() -> None:
    problem = only_problem(parse_pairings, csv_bytes("卓,プレイヤー1,プレイヤー2"))
    assert problem.message_ja == "対戦が1つもありません（見出し行しかありません）。"


def test_pairings_missing_column() -> None:
    problems = problems_of(parse_pairings, csv_bytes("卓,プレイヤー1", "1,10"))
    assert (problems[0].line, problems[0].column) == (1, "プレイヤーB")
