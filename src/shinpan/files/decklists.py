"""Read the decklist files players and organisers really have (T13), and the deck rules' name files.

Pure: bytes in, lists out. Formats, each detected from the file itself (``detect``) or named:

* ``text``: ``4 カード名`` / ``4x Name`` lines; section headers such as メイン/サイド/エクストラ,
  Main/Sideboard/Extra (a trailing colon or a count in brackets is fine); without headers, a
  blank line after the main's cards starts the sideboard. ``#`` and ``//`` begin comments.
* ``dek``: MTGO's ``.dek`` XML (``<Cards Quantity="4" Sideboard="false" Name="…"/>``), read
  with defusedxml (no entity expansion, no DTD, no external resources).
* ``arena``: Magic Arena's export (``Deck``/``Sideboard`` headers, ``4 Lightning Bolt (M10) 146``).
* ``ptcgl``: Pokémon TCG Live's text (``Pokémon: 12`` category lines, ``4 Arceus V BRS 122``);
  the categories are all the main deck.
* a CSV of many players (player, section, count, name), UTF-8 or Shift_JIS as
  :mod:`shinpan.files.csvio` reads it (:func:`parse_batch`).

The encoding is read as csvio does. A count of 0 or over :data:`MAX_COUNT`, a line in no known
shape, a file in no known format: every problem by line, in Japanese then English, raised once
as :class:`DecklistError`; nothing is returned when any line is bad.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import unicodedata
from collections.abc import Sequence
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from shinpan.errors import InvalidInput
from shinpan.files.csvio import CsvError, decode
from shinpan.tournament.decks import MAX_COUNT, Card, Decklist, Problem, normalise

FORMATS = ("text", "dek", "arena", "ptcgl")
MAX_BYTES = 1024 * 1024  # one player's list; a batch CSV has csvio's limit
MAX_NAME_CHARS = 200

_HEADERS = {
    "main": ("main", "maindeck", "deck", "メイン", "メインデッキ", "デッキ", "本体"),
    "side": ("side", "sideboard", "sidedeck", "サイド", "サイドデッキ", "サイドボード"),
    "extra": ("extra", "extradeck", "エクストラ", "エクストラデッキ"),
}
_HEADER_OF = {normalise(name): section for section, names in _HEADERS.items() for name in names}
_IGNORED_HEADERS = {normalise(n) for n in ("commander", "companion", "about", "total cards")}
_PTCGL_CATEGORIES = ("pokemon", "pokémon", "trainer", "energy", "ポケモン", "トレーナーズ", "エネルギー")
_LINE = re.compile(r"^([0-9０-９]+)\s*[xX×ｘＸ]?\s+|^([0-9０-９]+)[xX×ｘＸ]")
_ARENA = re.compile(r"^(\d+)\s+(\S.*?)\s+\(([A-Za-z0-9_]{2,6})\)\s+(\S+)\s*$")
_PTCGL = re.compile(r"^(\d+)\s+(\S.*?)\s+([A-Z][A-Z0-9-]{1,5})\s+(\d+[a-zA-Z]?)\s*$")
_HEADER = re.compile(r"^\s*([^\d:：(（]+?)\s*(?:[(（]\s*\d+\s*[)）])?\s*[:：]?\s*(?:\d+)?\s*$")


class DecklistError(InvalidInput, ValueError):
    """A decklist file that cannot be read: every problem by line. ``str()`` is English;
    :meth:`text` gives Japanese first."""

    def __init__(self, problems: Sequence[Problem], source: str = "") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__(self.text("en"), field="file")

    def render(self, translate: Any = None) -> str:
        """English alone; with a translation (the CLI's and the web's Japanese), Japanese."""
        return self.text("en") if translate is None else self.text("ja")

    def text(self, lang: str = "ja") -> str:
        where = f"{self.source}: " if self.source else ""
        if lang == "ja":
            head = f"{where}デッキリストを読めません（{len(self.problems)}件の問題）:"
        else:
            head = f"{where}the decklist cannot be read ({len(self.problems)} problem(s)):"
        return "\n".join([head, *(f"  {p.text(lang)}" for p in self.problems)])


def digest(data: bytes) -> str:
    """The text's hash as the ledger keeps it."""
    return hashlib.sha256(data).hexdigest()


_NO_FORMAT = Problem(
    None,
    "このファイルはデッキリストの形式（テキスト、MTGOの.dek、Arenaのエクスポート、ポケモンTCG Liveのテキスト）ではありません。",
    "this file is in no known decklist format (text, MTGO .dek, Arena export, Pokémon TCG Live text).",
)


def read_text(data: bytes) -> str:
    if b"\x00" in data or data.startswith((b"PK\x03\x04", b"%PDF", b"\x89PNG", b"\xff\xd8")):
        raise DecklistError([_NO_FORMAT])
    if len(data) > MAX_BYTES:
        raise DecklistError([Problem(None, "ファイルが大きすぎます（上限1 MB）。", "the file is over 1 MB.")])
    try:
        text, _ = decode(data)
    except CsvError as e:
        raise DecklistError([Problem(p.line, p.message_ja, p.message_en) for p in e.problems]) from None
    return text


def _count(raw: str, line: int, problems: list[Problem]) -> int | None:
    count = int(unicodedata.normalize("NFKC", raw))
    if count < 1 or count > MAX_COUNT:
        problems.append(
            Problem(
                line,
                f"枚数{count}は使えません（1〜{MAX_COUNT}枚）。",
                f"a count of {count} is not possible (1 to {MAX_COUNT}).",
            )
        )
        return None
    return count


def _name(raw: str, line: int, problems: list[Problem]) -> str | None:
    name = raw.strip()
    if len(name) > MAX_NAME_CHARS:
        problems.append(
            Problem(
                line,
                f"カード名が長すぎます（{MAX_NAME_CHARS}文字まで）。",
                f"the name is too long (at most {MAX_NAME_CHARS}).",
            )
        )
        return None
    return name


class _Builder:
    def __init__(self) -> None:
        self.sections: dict[str, list[Card]] = {}
        self.headers: dict[str, int] = {}
        self.current = "main"
        self.explicit = False
        self.problems: list[Problem] = []
        self.sideboard_after_blank = True

    def header(self, section: str, line: int) -> None:
        self.current, self.explicit = section, True
        self.headers.setdefault(section, line)
        self.sections.setdefault(section, [])

    def blank(self, line: int) -> None:
        if (
            self.sideboard_after_blank
            and not self.explicit
            and self.current == "main"
            and self.sections.get("main")
        ):
            self.current = "side"
            self.headers.setdefault("side", line + 1)

    def card(self, count_raw: str, name_raw: str, line: int) -> None:
        count, name = _count(count_raw, line, self.problems), _name(name_raw, line, self.problems)
        if count is not None and name:
            self.sections.setdefault(self.current, []).append(Card(count, name, line))

    def result(self, source: str) -> Decklist:
        if not self.problems and not any(self.sections.values()):
            self.problems.append(Problem(None, "カードが1枚もありません。", "the list has no cards."))
        if self.problems:
            raise DecklistError(self.problems, source)
        return Decklist({s: tuple(c) for s, c in self.sections.items() if c}, dict(self.headers))


def _section_of(line: str) -> str | bool | None:
    """The section a header line names; False when it is a header to skip; None when no header."""
    match = _HEADER.match(line)
    if match is None:
        return None
    key = normalise(match.group(1))
    if key in _HEADER_OF:
        return _HEADER_OF[key]
    if key in _IGNORED_HEADERS or key in {normalise(c) for c in _PTCGL_CATEGORIES}:
        return False
    return None


def _unreadable(line: int, text: str) -> Problem:
    shown = text if len(text) <= 40 else text[:40] + "…"
    return Problem(
        line,
        f"この行は読めません（「{shown}」）。「4 カード名」のように枚数とカード名を書いてください。",
        f"this line cannot be read ({shown!r}); write the count and the name, e.g. '4 Lightning Bolt'.",
    )


def parse_lines(text: str, fmt: str = "text", source: str = "") -> Decklist:
    """A list in the ``text``, ``arena`` or ``ptcgl`` format."""
    built = _Builder()
    built.sideboard_after_blank = fmt != "ptcgl"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0].strip() if fmt == "text" else raw.strip()
        if fmt == "text" and line.startswith("#"):
            continue
        if not line:
            built.blank(number)
            continue
        if fmt == "ptcgl" and normalise(line.split(":")[0]) in {normalise(c) for c in _PTCGL_CATEGORIES}:
            continue
        section = _section_of(line)
        if section is False:
            continue
        if isinstance(section, str):
            built.header(section, number)
            continue
        pattern = {"arena": _ARENA, "ptcgl": _PTCGL}.get(fmt)
        match = pattern.match(line) if pattern is not None else None
        if match is not None:
            built.card(match.group(1), match.group(2), number)
            continue
        plain = _LINE.match(line)
        if plain is None or not line[plain.end() :].strip():
            built.problems.append(_unreadable(number, line))
            continue
        built.card(plain.group(1) or plain.group(2), line[plain.end() :], number)
    unreadable = all(p.en.startswith("this line cannot be read") for p in built.problems)
    if not any(built.sections.values()) and built.problems and unreadable:
        raise DecklistError([_NO_FORMAT, *built.problems[:5]], source)
    return built.result(source)


def _cards_lines(text: str) -> list[int]:
    return [n for n, raw in enumerate(text.splitlines(), start=1) if "<Cards" in raw]


def parse_dek(text: str, source: str = "") -> Decklist:
    """MTGO's ``.dek`` XML."""
    try:
        root: Element = fromstring(text.encode("utf-8"), forbid_dtd=True)
    except DefusedXmlException:
        raise DecklistError(
            [
                Problem(
                    None,
                    "DTDや実体参照（ENTITY）を含むXMLは読み込みません。",
                    "an XML file with a DTD or entities is not read.",
                )
            ],
            source,
        ) from None
    except ParseError as e:
        raise DecklistError(
            [Problem(None, f".dekファイル（XML）として読めません（{e}）。", f"not a .dek (XML) file: {e}")],
            source,
        ) from None
    built = _Builder()
    lines = _cards_lines(text)
    cards = root.findall(".//Cards")
    if root.tag != "Deck":
        built.problems.append(
            Problem(1, ".dekファイルではありません（Deckがありません）。", "not a .dek file (no Deck).")
        )
    for index, card in enumerate(cards):
        number = lines[index] if index < len(lines) else index + 1
        quantity, name = card.get("Quantity", ""), card.get("Name", "")
        if not re.fullmatch(r"\d{1,6}", quantity) or not name.strip():
            built.problems.append(_unreadable(number, f"Quantity={quantity!r} Name={name!r}"))
            continue
        built.current = "side" if card.get("Sideboard", "false").lower() == "true" else "main"
        built.card(quantity, name, number)
    return built.result(source)


def detect(text: str) -> str:
    """The format the text is in: dek, arena, ptcgl or text."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("<?xml", "<Deck", "<!DOCTYPE", "<!doctype")):
        return "dek"
    cards = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip()[0].isdigit()]
    if cards and sum(bool(_ARENA.match(c)) for c in cards) * 2 > len(cards):
        return "arena"
    categories = {normalise(c) for c in _PTCGL_CATEGORIES}
    if any(normalise(ln.split(":")[0]) in categories for ln in text.splitlines() if ":" in ln):
        return "ptcgl"
    return "text"


def parse(data: bytes, fmt: str | None = None, source: str = "") -> tuple[Decklist, str]:
    """A list from a file's bytes, in the named format or the one detected; (list, format)."""
    if fmt is not None and fmt not in FORMATS:
        raise DecklistError(
            [
                Problem(
                    None,
                    f"形式「{fmt}」は使えません（{', '.join(FORMATS)}）。",
                    f"no format {fmt!r} ({', '.join(FORMATS)})",
                )
            ],
            source,
        )
    text = read_text(data)
    fmt = fmt or detect(text)
    if fmt == "dek":
        return parse_dek(text, source), fmt
    return parse_lines(text, fmt, source), fmt


# --- a CSV of many players: player, section, count, name ----------------------------------------

_COLUMNS = {
    "player": ("player", "playerid", "番号", "選手", "選手番号", "プレイヤー", "参加者", "id"),
    "section": ("section", "セクション", "区分", "デッキ"),
    "count": ("count", "quantity", "qty", "枚数", "数"),
    "name": ("name", "card", "cardname", "カード名", "カード", "名前"),
}
_COLUMN_OF = {normalise(n).replace("_", ""): c for c, names in _COLUMNS.items() for n in names}


def parse_batch(data: bytes, source: str = "") -> dict[str, Decklist]:
    """Many players' lists from one CSV (player, section, count, name), by player as written."""
    try:
        text, _ = decode(data)
    except CsvError as e:
        raise DecklistError(
            [Problem(p.line, p.message_ja, p.message_en) for p in e.problems], source
        ) from None
    rows = list(csv.reader(io.StringIO(text)))
    problems: list[Problem] = []
    header_at = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if header_at is None:
        raise DecklistError([Problem(None, "ファイルが空です。", "the file is empty.")], source)
    header = [_COLUMN_OF.get(normalise(c).replace("_", "")) for c in rows[header_at]]
    missing = [c for c in _COLUMNS if c not in header]
    if missing:
        raise DecklistError(
            [
                Problem(
                    header_at + 1,
                    f"見出しに必要な列がありません（{', '.join(missing)}）。列は player, section, count, name です。",
                    f"the header lacks {', '.join(missing)}; the columns are player, section, count, name.",
                )
            ],
            source,
        )
    at = {c: header.index(c) for c in _COLUMNS}
    built: dict[str, _Builder] = {}
    for index in range(header_at + 1, len(rows)):
        row, number = rows[index], index + 1
        if not any(c.strip() for c in row):
            continue
        if len(row) < len(header):
            problems.append(_unreadable(number, ",".join(row)))
            continue
        player = unicodedata.normalize("NFKC", row[at["player"]]).strip()
        section = _HEADER_OF.get(normalise(row[at["section"]]) or "main")
        count_raw = unicodedata.normalize("NFKC", row[at["count"]]).strip()
        if not player or section is None or not re.fullmatch(r"\d{1,6}", count_raw):
            problems.append(_unreadable(number, ",".join(row)))
            continue
        b = built.setdefault(player, _Builder())
        b.current = section
        b.card(count_raw, row[at["name"]], number)
        problems.extend(b.problems)
        b.problems = []
    if not built and not problems:
        problems.append(Problem(None, "デッキリストが1つもありません。", "the file holds no decklist."))
    if problems:
        raise DecklistError(problems, source)
    return {player: b.result(source) for player, b in built.items()}


# --- the deck rules' name files -----------------------------------------------------------------


def parse_limits(data: bytes, source: str = "") -> dict[str, tuple[int, str]]:
    """An organiser's banned/restricted file: ``0 Name`` (banned) or ``1 Name`` (restricted),
    one a line; by normalised name, (limit, name as written)."""
    text = read_text(data)
    found: dict[str, tuple[int, str]] = {}
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"([01])\s+(\S.*)", unicodedata.normalize("NFKC", line[:2]) + line[2:])
        if match is None or len(match.group(2)) > MAX_NAME_CHARS:
            problems.append(
                Problem(
                    number,
                    f"この行は読めません（「{line[:40]}」）。「0 カード名」（禁止）か「1 カード名」（制限）と書いてください。",
                    f"this line cannot be read ({line[:40]!r}); write '0 Name' (banned) or '1 Name' (restricted).",
                )
            )
            continue
        found[normalise(match.group(2))] = (int(match.group(1)), match.group(2).strip())
    if problems:
        raise DecklistError(problems, source)
    return found


def parse_names(data: bytes, source: str = "") -> dict[str, str]:
    """A file of names, one a line (the names any number of which may be played)."""
    text = read_text(data)
    found: dict[str, str] = {}
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        name = raw.strip()
        if not name or name.startswith("#"):
            continue
        if len(name) > MAX_NAME_CHARS:
            problems.append(
                Problem(
                    number, f"カード名が長すぎます（{MAX_NAME_CHARS}文字まで）。", "the name is too long."
                )
            )
            continue
        found[normalise(name)] = name
    if problems:
        raise DecklistError(problems, source)
    return found
