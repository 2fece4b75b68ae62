"""Decklists and the event's deck rules (T13): what a legal list is, and each of its problems
named by line.

The rules, in the order the code applies them:

- names are compared after NFKC normalisation, ignoring case, letter width, spaces, 「・」 and
  the difference between katakana and hiragana (:func:`normalise`);
- each section's size lies within its bounds (by default main at least 60, side 0–15); a
  section the rules do not name holds no card;
- a banned name (0) may not appear, a restricted name (1) at most once, counted across the
  whole list; a name any number of which may be played (basic lands and the like) has no
  limit; every other name at most the copy limit (4 by default), per section, or across all
  sections where the event says so.

Every problem names the line of the list it is about (the first line of the name, or the
section's header) in Japanese, then in English. Pure: no I/O, no clock, no database.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_COPIES = 4
MAX_COUNT = 999  # copies of one name on one line; 10,000 is a typing error, not a deck
SECTION_NAMES_JA = {"main": "メイン", "side": "サイド", "extra": "エクストラ"}

_KATAKANA = {k: k - 0x60 for k in range(ord("ァ"), ord("ヶ") + 1)}
_IGNORED = re.compile(r"[\s・]+")


def normalise(name: str) -> str:
    """The name as T13 compares it: NFKC, case folded, without spaces or 「・」, katakana read
    as hiragana. Idempotent: ``normalise(normalise(n)) == normalise(n)``."""
    text = name
    for _ in range(8):  # removing a space may let NFKC compose again: repeat to a fixed point
        folded = _IGNORED.sub("", unicodedata.normalize("NFKC", text).casefold().translate(_KATAKANA))
        if folded == text:
            break
        text = folded
    return text


def section_label(section: str) -> str:
    """A section's name as a Japanese judge says it (メイン, サイド, エクストラ, or as written)."""
    return SECTION_NAMES_JA.get(section, section)


@dataclass(frozen=True)
class Bounds:
    """How many cards a section holds: at least ``low``, at most ``high`` (None: no upper bound)."""

    low: int
    high: int | None

    def holds(self, size: int) -> bool:
        return size >= self.low and (self.high is None or size <= self.high)

    def text(self) -> str:
        return f"{self.low}-" if self.high is None else f"{self.low}-{self.high}"


DEFAULT_SECTIONS: tuple[tuple[str, Bounds], ...] = (("main", Bounds(60, None)), ("side", Bounds(0, 15)))


class RulesError(ValueError):
    """Deck rules that cannot be used, said in Japanese then English."""

    def __init__(self, ja: str, en: str) -> None:
        self.ja, self.en = ja, en
        super().__init__(f"{ja} / {en}")


def parse_sections(text: str) -> tuple[tuple[str, Bounds], ...]:
    """``main:60-,side:0-15`` (or ``main:40-60,extra:0-15,side:0-15``) as the sections in order."""
    sections: list[tuple[str, Bounds]] = []
    for part in (p.strip() for p in text.split(",")):
        match = re.fullmatch(r"([a-z][a-z0-9_-]{0,19}):(\d{1,4})-(\d{1,4})?", part)
        if match is None:
            raise RulesError(
                f"セクションの書き方が正しくありません（「{part}」）。例: main:60-,side:0-15",
                f"a section is written name:low-high, e.g. main:60-,side:0-15 (not {part!r})",
            )
        name, low, high = match.group(1), int(match.group(2)), match.group(3)
        bounds = Bounds(low, None if high is None else int(high))
        if bounds.high is not None and bounds.high < bounds.low:
            raise RulesError(
                f"「{part}」の上限が下限より小さくなっています。",
                f"{part!r}: the upper bound is below the lower",
            )
        if any(name == n for n, _ in sections):
            raise RulesError(f"セクション「{name}」が2回あります。", f"section {name!r} is named twice")
        sections.append((name, bounds))
    return tuple(sections)


def sections_text(sections: Sequence[tuple[str, Bounds]]) -> str:
    return ",".join(f"{name}:{b.text()}" for name, b in sections)


@dataclass(frozen=True)
class DeckRules:
    """An event's deck rules (T13). ``limits`` maps a normalised name to 0 (banned) or 1
    (restricted); ``unlimited`` holds the normalised names any number of which may be played.
    ``lock`` is ``round1`` or an ISO time."""

    required: bool = True
    sections: tuple[tuple[str, Bounds], ...] = DEFAULT_SECTIONS
    copies: int = DEFAULT_COPIES
    across: bool = False
    limits: Mapping[str, int] = field(default_factory=dict)
    unlimited: frozenset[str] = frozenset()
    lock: str = "round1"

    def bounds(self, section: str) -> Bounds | None:
        return next((b for n, b in self.sections if n == section), None)

    def limit_of(self, key: str) -> int | None:
        """How many copies of the normalised name ``key`` may be played (None: any number)."""
        if key in self.limits:
            return self.limits[key]
        return None if key in self.unlimited else self.copies


@dataclass(frozen=True)
class Card:
    """A line of a list: how many copies of a name, as written, on which line of the file."""

    count: int
    name: str
    line: int | None = None

    @property
    def key(self) -> str:
        return normalise(self.name)


@dataclass(frozen=True)
class Decklist:
    """A list by section, in the order written. ``headers`` gives the line each section began."""

    sections: Mapping[str, tuple[Card, ...]]
    headers: Mapping[str, int] = field(default_factory=dict)

    def size(self, section: str) -> int:
        return sum(c.count for c in self.sections.get(section, ()))

    def sizes(self) -> dict[str, int]:
        return {name: self.size(name) for name in self.sections}

    def counted(self, section: str) -> Counter[str]:
        """The section as a multiset of normalised names."""
        found: Counter[str] = Counter()
        for card in self.sections.get(section, ()):
            found[card.key] += card.count
        return found

    def as_json(self) -> dict[str, list[dict[str, object]]]:
        return {s: [{"count": c.count, "name": c.name} for c in cards] for s, cards in self.sections.items()}

    @classmethod
    def of(cls, sections: Mapping[str, Iterable[tuple[int, str]]]) -> Decklist:
        """A list from plain (count, name) pairs per section (tests, the JSON API)."""
        return cls({s: tuple(Card(n, name) for n, name in cards) for s, cards in sections.items()})


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a list, for the player or the desk to fix."""

    line: int | None
    ja: str
    en: str

    def text(self, lang: str = "ja") -> str:
        if lang == "ja":
            return f"{self.line}行目: {self.ja}" if self.line is not None else self.ja
        return f"line {self.line}: {self.en}" if self.line is not None else self.en

    def as_json(self) -> dict[str, object]:
        return {"line": self.line, "message": self.text("ja"), "message_en": self.text("en")}


def _size_problems(rules: DeckRules, deck: Decklist) -> list[Problem]:
    problems: list[Problem] = []
    for name, bounds in rules.sections:
        size = deck.size(name)
        if not bounds.holds(size):
            label = section_label(name)
            if bounds.high is None:
                want_ja, want_en = f"{bounds.low}枚以上", f"at least {bounds.low}"
            else:
                want_ja, want_en = f"{bounds.low}〜{bounds.high}枚", f"{bounds.low} to {bounds.high}"
            problems.append(
                Problem(
                    deck.headers.get(name),
                    f"{label}は{size}枚です（{want_ja}にしてください）。",
                    f"the {name} section has {size} cards; it must have {want_en}.",
                )
            )
    for name, cards in deck.sections.items():
        if rules.bounds(name) is None and cards:
            allowed = "、".join(section_label(n) for n, _ in rules.sections)
            problems.append(
                Problem(
                    deck.headers.get(name, cards[0].line),
                    f"この大会に「{section_label(name)}」はありません（使えるのは{allowed}）。",
                    f"this event has no {name!r} section (only {sections_text(rules.sections)}).",
                )
            )
    return problems


def _limit_problems(rules: DeckRules, deck: Decklist) -> list[Problem]:
    problems: list[Problem] = []
    first: dict[tuple[str, str], Card] = {}
    per_section: Counter[tuple[str, str]] = Counter()
    total: Counter[str] = Counter()
    for section, cards in deck.sections.items():
        for card in cards:
            first.setdefault((section, card.key), card)
            first.setdefault(("", card.key), card)
            per_section[(section, card.key)] += card.count
            total[card.key] += card.count
    for key, count in total.items():
        card = first[("", key)]
        fixed = rules.limits.get(key)
        if fixed == 0:
            problems.append(
                Problem(card.line, f"「{card.name}」は禁止カードです。", f"{card.name!r} is banned.")
            )
        elif fixed is not None and count > fixed:
            problems.append(
                Problem(
                    card.line,
                    f"「{card.name}」は制限カードで{fixed}枚までです（{count}枚）。",
                    f"{card.name!r} is restricted to {fixed} (the list has {count}).",
                )
            )
        elif fixed is None and key not in rules.unlimited and rules.across and count > rules.copies:
            problems.append(
                Problem(
                    card.line,
                    f"「{card.name}」は全体で{rules.copies}枚までです（{count}枚）。",
                    f"at most {rules.copies} {card.name!r} in all sections (the list has {count}).",
                )
            )
    if not rules.across:
        for (section, key), count in per_section.items():
            if key in rules.limits or key in rules.unlimited or count <= rules.copies:
                continue
            card = first[(section, key)]
            problems.append(
                Problem(
                    card.line,
                    f"{section_label(section)}の「{card.name}」は{rules.copies}枚までです（{count}枚）。",
                    f"at most {rules.copies} {card.name!r} in the {section} section (the list has {count}).",
                )
            )
    return problems


def problems(rules: DeckRules, deck: Decklist) -> list[Problem]:
    """Everything that makes ``deck`` illegal under ``rules`` (T13 "a legal list"), by line."""
    found = _size_problems(rules, deck) + _limit_problems(rules, deck)
    return sorted(found, key=lambda p: (p.line is None, p.line or 0))


def is_legal(rules: DeckRules, deck: Decklist) -> bool:
    return not problems(rules, deck)


def list_wanted(state: str, *, required: bool) -> bool:
    """Whether a player's list, in ``state`` (missing | registered | illegal | locked), is a
    problem the desk must see (T13): a list with problems always; no list at all when the
    event requires decklists."""
    return state == "illegal" or (state == "missing" and required)
