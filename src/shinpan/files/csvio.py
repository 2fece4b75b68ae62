"""Read the player and pairing CSV files tournament organisers really have.

Pure: bytes in, rows out. Standard library only; no database, no files.

Choices, for the organiser reading an error and for the next engineer:

* The encoding is detected, never asked: UTF-8 (with or without BOM) first, then CP932 (Japanese
  Excel's "Shift_JIS", a superset that also has 髙, ①, …). Files over 20 MB, Excel workbooks,
  UTF-16, NUL bytes and control characters are refused before any parsing.
* The header is the first non-blank line. Column names are matched after NFKC, case folding and
  dropping spaces, "_", "-" and ".", so "Player ID", "ＰＬＡＹＥＲ＿ＩＤ" and "playerid" are one name.
* Unknown columns are REJECTED, with the list of recognised names: silently ignoring a column the
  organiser believes we read (say "フリガナ（カナ）") is worse than asking them to rename it.
  Columns with a blank heading are ignored, but must then be empty.
* A header problem stops there: rows are not checked against a header we do not understand.
* Every row problem is collected, then raised once as CsvError; nothing is returned when any row is
  bad. At most 50 problems are listed, then "…and N more".
* A broken quote (typically a truncated file) ends reading: what follows it cannot be split into
  fields. A row must have the header's number of fields; extra trailing fields are allowed only
  when empty (Excel writes those).
* Comma separated, or tab separated when the header line has more tabs than commas.
* Blank lines are skipped anywhere; line numbers are physical lines, header = line 1.
* Player numbers and readings are NFKC-normalised ("１２" == "12", "ﾀﾅｶ" -> "タナカ"); names and
  clubs are only trimmed, so "①" and "髙" survive as written.
"""

import codecs
import csv
import io
import math
import re
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from shinpan.engine.participants import direction_controls, hidden_characters
from shinpan.errors import InvalidInput, TooLarge
from shinpan.files.csv_messages import MESSAGES

MAX_BYTES = 20 * 1024 * 1024  # the one limit on a CSV file, wherever it comes from
MAX_PROBLEMS = 50  # listed in a CsvError
STOP_AFTER = 1000  # problems; reading stops there, so garbage text fails fast
MAX_TEXT_CHARS = 100
MAX_NUMBER_CHARS = 64  # D18


@dataclass(frozen=True)
class CsvProblem:
    """One thing wrong with the file, for a person to fix."""

    line: int | None  # physical line, header = 1; None for the whole file
    column: str | None  # as the file writes it, or the expected name when missing
    message_ja: str
    message_en: str

    @classmethod
    def of(cls, line: int | None, column: str | None, key: str, **values: object) -> "CsvProblem":
        ja, en = MESSAGES[key]
        return cls(line, column, ja.format(**values), en.format(**values))

    def text(self, lang: str = "ja") -> str:
        if lang == "ja":
            where = [] if self.line is None else [f"{self.line}行目"]
            where += [] if self.column is None else [f"「{self.column}」"]
            return f"{' '.join(where)}: {self.message_ja}" if where else self.message_ja
        where = [] if self.line is None else [f"line {self.line}"]
        where += [] if self.column is None else [f"column '{self.column}'"]
        return f"{', '.join(where)}: {self.message_en}" if where else self.message_en


class CsvError(InvalidInput, ValueError):
    """Everything wrong with one file: .problems; str() lists them in English, .text() in Japanese."""

    def __init__(
        self, problems: Sequence[CsvProblem], total: int | None = None, stopped_at: int | None = None
    ) -> None:
        self.total = len(problems) if total is None else total
        self.problems: list[CsvProblem] = list(problems[:MAX_PROBLEMS])
        if self.total > len(self.problems):
            self.problems.append(CsvProblem.of(None, None, "more", n=self.total - len(self.problems)))
        if stopped_at is not None:
            self.problems.append(CsvProblem.of(None, None, "stopped", at=stopped_at))
        super().__init__(self.text("en").replace("{", "{{").replace("}", "}}"), field="file")

    def text(self, lang: str = "ja") -> str:
        if lang == "ja":
            head = f"CSVファイルに{self.total}件の問題があります:"
        else:
            head = f"The CSV file has {self.total} problem{'' if self.total == 1 else 's'}:"
        return "\n".join([head, *(f"  {p.text(lang)}" for p in self.problems)])


@dataclass(frozen=True)
class PlayerRow:
    number: str  # NFKC-normalised
    name: str
    reading: str  # NFKC-normalised kana, "" when not given
    club: str | None
    handle: str | None = None  # the name the player goes by on the players' pages (T12)


@dataclass(frozen=True)
class PairingRow:
    table: int
    player_a: str
    player_b: str | None  # None = bye


class CsvTooLarge(CsvError, TooLarge):
    """The file is over MAX_BYTES: refused whole, before any of it is read as CSV."""

    status = TooLarge.status


def _fail(key: str, line: int | None = None, **values: object) -> CsvError:
    return CsvError([CsvProblem.of(line, None, key, **values)])


def check_size(size: int) -> None:
    """Refuse a file of ``size`` bytes over MAX_BYTES. Whoever reads a file from a stream
    reads at most MAX_BYTES + 1 bytes and passes the file's real size here: a file is
    refused whole, never cut short."""
    if size > MAX_BYTES:
        mb = math.ceil(size * 10 / 2**20) / 10  # rounded up: one byte over shows as over
        raise CsvTooLarge([CsvProblem.of(None, None, "too_large", mb=mb, limit=MAX_BYTES // 2**20)])


# --- bytes to text ----------------------------------------------------------------------------

# C0/C1 controls but tab and line ends; U+F8F0-F8F3 are what cp932 makes of bytes A0, FD-FF.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\uf8f0-\uf8f3]")


def decode(data: bytes) -> tuple[str, str]:
    """Return (text, encoding): "utf-8-sig", "utf-8" or "cp932". Anything else raises CsvError."""
    check_size(len(data))
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise _fail("workbook")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _fail("utf16")
    if b"\x00" in data:
        raise _fail("nul")
    encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as utf8_error:
        line = data.count(b"\n", 0, utf8_error.start) + 1
        if encoding == "utf-8-sig":
            raise _fail("utf8_bad", line) from None
        # Cut inside a character after real UTF-8 text: truncated, not Shift_JIS.
        if utf8_error.reason == "unexpected end of data" and not data[: utf8_error.start].isascii():
            raise _fail("utf8_cut", line) from None
        try:
            encoding, text = "cp932", data.decode("cp932")
        except UnicodeDecodeError as cp932_error:
            furthest = max(utf8_error.start, cp932_error.start)  # the likelier encoding got further
            raise _fail("undecodable", data.count(b"\n", 0, furthest) + 1) from None
    control = _CONTROL.search(text)
    if control is not None:
        line = text.count("\n", 0, control.start()) + 1
        raise _fail("control", line, code=ord(control.group()))
    return text, encoding


# --- columns ----------------------------------------------------------------------------------


def _key(name: str) -> str:
    return re.sub(r"[\s_\-.]+", "", unicodedata.normalize("NFKC", name).casefold())


@dataclass(frozen=True)
class _Field:
    key: str
    ja: str
    en: str
    synonyms: str  # "|"-separated column names
    required: bool = True

    @property
    def names(self) -> list[str]:
        return self.synonyms.split("|")


# fmt: off
_PLAYER_FIELDS = (
    _Field("number", "番号", "number",
           "番号|参加者番号|プレイヤーID|ID番号|登録番号|エントリー番号|受付番号|選手番号|プレイヤー番号"
           "|id|number|player id|event id|player number|player no|entry number|no|#"),
    _Field("name", "名前", "name",
           "名前|氏名|プレイヤー名|選手名|参加者名|お名前|name|player name|full name"),
    _Field("reading", "フリガナ", "reading",
           "フリガナ|ふりがな|よみ|読み|よみがな|読みがな|読み仮名|ヨミ|カナ|かな|氏名カナ|名前カナ"
           "|氏名フリガナ|reading|kana|furigana|name kana", required=False),
    _Field("club", "所属", "club",
           "所属|クラブ|チーム|ショップ|店舗|所属ショップ|所属店舗|所属チーム"
           "|club|team|shop|store|affiliation", required=False),
    _Field("handle", "ハンドル", "handle",
           "ハンドル|ハンドルネーム|ニックネーム|表示名|handle|handle name|nickname", required=False),
)
_PAIRING_FIELDS = (
    _Field("table", "卓番号", "table", "卓番号|卓|卓番|テーブル|テーブル番号|table|table no|table number"),
    _Field("player_a", "プレイヤーA", "player a",
           "プレイヤーA|プレイヤー1|プレイヤーA番号|プレイヤー1番号|選手A|選手1|対戦者A|対戦者1"
           "|player a|player 1|player a id|player 1 id|p1|a"),
    _Field("player_b", "プレイヤーB", "player b",
           "プレイヤーB|プレイヤー2|プレイヤーB番号|プレイヤー2番号|選手B|選手2|対戦者B|対戦者2|対戦相手"
           "|player b|player 2|player b id|player 2 id|opponent|p2|b"),
)
# fmt: on


class _Problems:
    """Counts every problem but keeps only the first MAX_PROBLEMS, so 10 MB of bad rows stays cheap."""

    def __init__(self) -> None:
        self.kept: list[CsvProblem] = []
        self.count = 0
        self.stopped_at: int | None = None

    def add(self, line: int | None, column: str | None, key: str, **values: object) -> None:
        self.count += 1
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(CsvProblem.of(line, column, key, **values))

    def raise_if_any(self) -> None:
        if self.count:
            raise CsvError(self.kept, self.count, self.stopped_at)


def _read_header(
    cells: list[str], line: int, fields: Sequence[_Field], problems: _Problems
) -> tuple[dict[str, int], dict[str, str]]:
    """Map field key -> column index, and field key -> column name as the file writes it."""
    by_key = {_key(name): field for field in fields for name in field.names}
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    unknown: list[str] = []
    for i, cell in enumerate(cells):
        name = cell.strip()
        if not name:
            continue  # a column without heading: ignored, its cells must be empty
        field = by_key.get(_key(name))
        if field is None:
            unknown.append(name)
        elif field.key in index:
            problems.add(line, name, "duplicate_column", first=names[field.key], field=field.en)
        else:
            index[field.key], names[field.key] = i, name
    if not index:
        problems.add(line, None, "no_header")
    else:
        for name in unknown:
            problems.add(line, name, "unknown_column")
        japanese = any(not name.isascii() for name in names.values())
        for field in fields:
            if field.required and field.key not in index:
                problems.add(line, field.ja if japanese else field.en, "missing_column")
    if problems.count:
        ja = " / ".join(f"{f.ja}{'' if f.required else '（省略可）'}: {'、'.join(f.names)}" for f in fields)
        en = " / ".join(f"{f.en}{'' if f.required else ' (optional)'}: {', '.join(f.names)}" for f in fields)
        problems.kept.append(CsvProblem.of(None, None, "recognised", ja=ja, en=en))  # help, not a problem
    return index, names


def _read_row(
    cells: list[str], line: int, index: dict[str, int], problems: _Problems
) -> dict[str, str] | None:
    """The row's trimmed values by field key, or None (problem reported) if it has the wrong shape."""
    width = max(index.values()) + 1
    if len(cells) < width:
        problems.add(line, None, "too_few", n=len(cells), width=width)
        return None
    used = set(index.values())
    for i, cell in enumerate(cells):
        if i not in used and cell.strip():
            problems.add(line, None, "no_heading", n=i + 1, value=cell.strip()[:20])
            return None
    return {key: cells[i].strip() for key, i in index.items()}


@dataclass(frozen=True)
class _Row:
    line: int
    values: dict[str, str]  # field key -> trimmed cell
    columns: dict[str, str]  # field key -> column name as the file writes it


def _rows(data: bytes, fields: Sequence[_Field], problems: _Problems) -> Iterator[_Row]:
    """Decode, read the header, yield the well-shaped rows in order. Header problems raise at once."""
    text, _ = decode(data)
    first = next((line for line in io.StringIO(text) if line.strip()), None)
    if first is None:
        raise _fail("empty")
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    index: dict[str, int] | None = None
    columns: dict[str, str] = {}
    line = 1  # where the row being read starts (a quoted field may span lines)
    try:
        for cells in reader:
            if problems.count >= STOP_AFTER:
                problems.stopped_at = line
                return
            if any(cell.strip() for cell in cells):
                if index is None:
                    index, columns = _read_header(cells, line, fields, problems)
                    problems.raise_if_any()
                elif (values := _read_row(cells, line, index, problems)) is not None:
                    yield _Row(line, values, columns)
            line = reader.line_num + 1
    except csv.Error as error:  # strict=True: a broken quote; the rest of the file is unreadable
        message = str(error)
        key = "unclosed_quote" if "end of data" in message else "bad_quote"
        problems.add(line, None, "long_field" if "field limit" in message else key, error=message)
    if index is None:
        problems.raise_if_any()
        raise _fail("empty")


# --- values -----------------------------------------------------------------------------------


def _nfkc(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip()


def _check_text(problems: _Problems, line: int, column: str, value: str) -> bool:
    """Checks shared by every single-line value; True when it is usable."""
    if not value:
        problems.add(line, column, "empty_value")
        return False
    if re.search(r"[\t\n\r\u2028\u2029]", value):
        problems.add(line, column, "line_break")
        return False
    if len(value) > MAX_TEXT_CHARS:
        problems.add(line, column, "too_long", n=len(value), limit=MAX_TEXT_CHARS)
        return False
    return True


def _check_id(problems: _Problems, line: int, column: str, value: str) -> bool:
    """An id holds no invisible format character (``P0\u200f02`` is not ``P002``)."""
    if chars := hidden_characters(value):
        problems.add(line, column, "hidden", chars=chars)
        return False
    return True


def _check_name(problems: _Problems, line: int, column: str, value: str) -> None:
    """A name holds no bidirectional control (it would reverse what follows it)."""
    if chars := direction_controls(value):
        problems.add(line, column, "direction", chars=chars)


def _check_unique(problems: _Problems, seen: dict[str, int], line: int, column: str, value: str) -> None:
    if value in seen:
        problems.add(line, column, "duplicate", value=value, first=seen[value])
    else:
        seen[value] = line


# --- players ----------------------------------------------------------------------------------

_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff ]")  # kana, ゛゜ー・, spaces


def parse_players(data: bytes, registered: Collection[str] = ()) -> list[PlayerRow]:
    """The player list: number (unique, and none of ``registered``), name, optional kana
    reading, optional club, optional handle."""
    problems = _Problems()
    players: list[PlayerRow] = []
    seen: dict[str, int] = {}
    for row in _rows(data, _PLAYER_FIELDS, problems):
        line, get, names = row.line, row.values.get, row.columns
        number, name = _nfkc(get("number", "")), get("name", "")
        reading, club = _nfkc(get("reading", "")), get("club", "")
        if _check_text(problems, line, names["number"], number):
            if len(number) > MAX_NUMBER_CHARS:
                problems.add(line, names["number"], "too_long", n=len(number), limit=MAX_NUMBER_CHARS)
            elif _check_id(problems, line, names["number"], number):
                _check_unique(problems, seen, line, names["number"], number)
                if number in registered:
                    problems.add(line, names["number"], "registered", value=number)
        if _check_text(problems, line, names["name"], name):
            _check_name(problems, line, names["name"], name)
        if reading and _check_text(problems, line, names["reading"], reading):
            bad = "".join(dict.fromkeys(c for c in reading if not _KANA.match(c)))
            if bad:
                problems.add(line, names["reading"], "not_kana", bad=bad[:10])
        if club and _check_text(problems, line, names["club"], club):
            _check_name(problems, line, names["club"], club)
        handle = get("handle", "")
        if handle and _check_text(problems, line, names["handle"], handle):
            _check_name(problems, line, names["handle"], handle)
        players.append(PlayerRow(number, name, reading, club or None, handle or None))
    if not players and not problems.count:
        problems.add(None, None, "no_players")
    problems.raise_if_any()
    return players


# --- pairings ---------------------------------------------------------------------------------

_BYE = frozenset({"bye", "不戦勝", "不戦", "なし", "-"})  # compared case-folded, after NFKC


def parse_pairings(data: bytes) -> list[PairingRow]:
    """One round: table (unique), player A, player B or a bye. A player appears at most once."""
    problems = _Problems()
    pairings: list[PairingRow] = []
    tables: dict[str, int] = {}
    players: dict[str, int] = {}
    for row in _rows(data, _PAIRING_FIELDS, problems):
        line, names = row.line, row.columns
        table, a, b = (_nfkc(row.values[key]) for key in ("table", "player_a", "player_b"))
        number = int(table) if re.fullmatch(r"[0-9]{1,6}", table) else 0
        if _check_text(problems, line, names["table"], table):
            if number > 0:
                _check_unique(problems, tables, line, names["table"], str(number))
            else:
                problems.add(line, names["table"], "bad_table", value=table)
        if a.casefold() in _BYE:
            problems.add(line, names["player_a"], "bye_as_a")
        elif _check_text(problems, line, names["player_a"], a) and _check_id(
            problems, line, names["player_a"], a
        ):
            _check_unique(problems, players, line, names["player_a"], a)
        opponent = None if not b or b.casefold() in _BYE else b
        if opponent is not None and opponent == a:
            problems.add(line, names["player_b"], "self_pairing", value=a)
        elif (
            opponent is not None
            and _check_text(problems, line, names["player_b"], opponent)
            and _check_id(problems, line, names["player_b"], opponent)
        ):
            _check_unique(problems, players, line, names["player_b"], opponent)
        pairings.append(PairingRow(number, a, opponent))
    if not pairings and not problems.count:
        problems.add(None, None, "no_pairings")
    problems.raise_if_any()
    return pairings
