"""Kana to romaji, and romaji however a judge types it.

:func:`to_romaji` writes a reading in Hepburn (``やまだ たろう`` → ``yamada tarou``). A judge
may type a name in Hepburn or Kunrei, with the long vowels written or not, the family name
first or last: ``Sato Shota``, ``shouta``, ``syouta``, ``shôta``, ``Shota Sato``. Both the
player's search keys (:func:`search_forms`, made once, when the player is imported) and the
words of a query (:func:`spelling`) are brought to one spelling: Kunrei's syllables, long
vowels shortened, ``n`` for the syllabic n. A search then stays a substring match.

:data:`SPELLING` is a table of regular expressions that the record screen's script applies
too, when it searches the roster it keeps for working offline: one set of rules for both.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

_BASE = {
    "あ": "a", "い": "i", "う": "u", "え": "e", "お": "o",
    "か": "ka", "き": "ki", "く": "ku", "け": "ke", "こ": "ko",
    "さ": "sa", "し": "shi", "す": "su", "せ": "se", "そ": "so",
    "た": "ta", "ち": "chi", "つ": "tsu", "て": "te", "と": "to",
    "な": "na", "に": "ni", "ぬ": "nu", "ね": "ne", "の": "no",
    "は": "ha", "ひ": "hi", "ふ": "fu", "へ": "he", "ほ": "ho",
    "ま": "ma", "み": "mi", "む": "mu", "め": "me", "も": "mo",
    "や": "ya", "ゆ": "yu", "よ": "yo",
    "ら": "ra", "り": "ri", "る": "ru", "れ": "re", "ろ": "ro",
    "わ": "wa", "ゐ": "i", "ゑ": "e", "を": "o", "ん": "n",
    "が": "ga", "ぎ": "gi", "ぐ": "gu", "げ": "ge", "ご": "go",
    "ざ": "za", "じ": "ji", "ず": "zu", "ぜ": "ze", "ぞ": "zo",
    "だ": "da", "ぢ": "ji", "づ": "zu", "で": "de", "ど": "do",
    "ば": "ba", "び": "bi", "ぶ": "bu", "べ": "be", "ぼ": "bo",
    "ぱ": "pa", "ぴ": "pi", "ぷ": "pu", "ぺ": "pe", "ぽ": "po",
    "ぁ": "a", "ぃ": "i", "ぅ": "u", "ぇ": "e", "ぉ": "o", "ゔ": "vu",
}  # fmt: skip
_SMALL_Y = {"ゃ": "a", "ゅ": "u", "ょ": "o"}
_KATAKANA = {k: k - 0x60 for k in range(ord("ァ"), ord("ヶ") + 1)}


def to_romaji(kana: str) -> str:
    """Hiragana or katakana to lower-case romaji (Hepburn); other characters pass through."""
    text = kana.translate(_KATAKANA)
    out: list[str] = []
    double = False
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch == "っ":
            double = True
            continue
        if ch in _SMALL_Y:
            continue
        if ch == "ー":
            if out and out[-1]:
                out.append(out[-1][-1])
            continue
        syllable = _BASE.get(ch, ch)
        if nxt in _SMALL_Y and syllable.endswith("i") and len(syllable) > 1:
            stem = syllable[:-1]
            syllable = (stem if stem in ("sh", "ch", "j") else stem + "y") + _SMALL_Y[nxt]
        if double and syllable and syllable[0].isalpha():
            syllable = ("t" if syllable.startswith("ch") else syllable[0]) + syllable
        double = False
        out.append(syllable)
    return "".join(out)


# One spelling for every way of writing a name in romaji, applied in this order (and again,
# until nothing changes) to lower-case romaji without accents. Plain regular expressions (no back-references), so that the record
# screen's script can apply the same table.
SPELLING: tuple[tuple[str, str], ...] = (
    ("[^a-z0-9]", ""),  # apostrophes (shin'ya), hyphens, spaces
    ("cch", "tch"), ("tchi", "tti"), ("tch", "tty"),  # matcha, maccha → mattya
    ("shi", "si"), ("shy?", "sy"),  # Hepburn shi, sha… → Kunrei si, sya…
    ("chi", "ti"), ("ch", "ty"), ("cy", "ty"),
    ("tsu", "tu"),
    ("fu", "hu"),
    ("ji", "zi"), ("jy?", "zy"),
    ("di", "zi"), ("du", "zu"), ("dy", "zy"),  # Nihon-shiki ぢ, づ
    ("wo", "o"),
    ("m(?=[bmp])", "n"),  # Hepburn's m before b, m, p (namba) is ん
    ("n{2,}", "n"),  # ん typed as nn
    ("oh(?![aeiouy])", "o"),  # Satoh, Ohno
    ("a{2,}", "a"), ("i{2,}", "i"), ("u{2,}", "u"), ("e{2,}", "e"), ("o{2,}", "o"),  # long vowels
    ("ou", "o"), ("o{2,}", "o"),  # shouta; ouou
    ("y{2,}", "y"),
)  # fmt: skip
_ROMAJI = re.compile(r"[a-z]")


@cache
def _rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """:data:`SPELLING` compiled, once it is first used (a command that writes imports this
    module, and few of them spell a name)."""
    return tuple((re.compile(pattern), replacement) for pattern, replacement in SPELLING)


def _plain(text: str) -> str:
    """Lower case, accents off: ``Shôta`` → ``shota``, ``Ōno`` → ``ono``."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def spelling(text: str) -> str:
    """``text`` in the one spelling both sides of a romaji search are compared in; any
    characters but romaji are dropped. The rules are applied until nothing changes (one rule
    can make what an earlier one spells: ``cfu`` → ``chu``)."""
    out = _plain(text)
    for _ in range(_PASSES):
        before = out
        for pattern, replacement in _rules():
            out = pattern.sub(replacement, out)
        if out == before:
            break
    return out


_PASSES = 5


def is_romaji(word: str) -> bool:
    """Whether a word of a query is worth respelling: ASCII letters (and digits) only."""
    plain = _plain(word)
    return plain.isascii() and bool(_ROMAJI.search(plain))


def search_forms(reading: str) -> list[str]:
    """A reading's romaji as people type it, in the one spelling: the family name, the given
    name, and both together in either order (``さとう しょうた`` → ``sato``, ``syota``,
    ``satosyota``, ``syotasato``). The reading gives the family name first, space-separated."""
    words = reading.split()  # any white space, the ideographic space too
    parts = [p for p in (spelling(to_romaji(w)) for w in words) if p]
    if not parts:
        return []
    forms = [*parts, spelling(to_romaji("".join(words)))]
    if len(words) > 1:
        forms.append(spelling(to_romaji("".join(words[1:] + words[:1]))))
    return list(dict.fromkeys(forms))
