"""Readings in 50-on (あいうえお) order, the way a Japanese phone book lists names.

:func:`gojuon_key` sorts in two passes, as JIS X 4061 does: first by the plain kana
(katakana read as hiragana, half-width as full-width, a voiced or small kana as its plain
one, ー as the vowel before it), then, between readings equal on that, small kana before
large, plain before voiced (゛) before half-voiced (゜), a vowel before a ー. So か < が < き,
かか < がか < かき, and カード sits with かあど. A space ends a word before any kana does
(やま だいすけ before やまだ あきら); what is not kana (Latin letters, kanji) comes after it.
"""

from __future__ import annotations

import unicodedata

_KATAKANA = {k: k - 0x60 for k in range(ord("ァ"), ord("ヶ") + 1)}
_SMALL = dict(zip("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ", strict=True))
_ROWS = ("あいうえお", "かきくけこ", "さしすせそ", "たちつてと", "なにぬねの", "はひふへほ", "まみむめも",
         "や_ゆ_よ", "らりるれろ", "わゐ_ゑを")  # fmt: skip
_VOWEL = {kana: "あいうえお"[i] for row in _ROWS for i, kana in enumerate(row) if kana != "_"}
_VOICED, _HALF_VOICED, _LONG = "\u3099", "\u309a", "ー"

# what each character adds to the second pass
_SMALL_KANA, _PLAIN, _VOICED_KANA, _HALF_VOICED_KANA, _LONG_MARK = range(5)
# what kind of character it is in the first pass
_SPACE, _KANA, _OTHER = range(3)


def gojuon_key(reading: str) -> tuple[tuple[tuple[int, str], ...], tuple[int, ...], str]:
    """A sort key that puts readings in 50-on order (see the module's docstring)."""
    text = " ".join(unicodedata.normalize("NFKC", reading).translate(_KATAKANA).split())
    first: list[tuple[int, str]] = []
    second: list[int] = []
    for ch in text:
        if ch == " ":
            first.append((_SPACE, ""))
            second.append(_PLAIN)
        elif ch == _LONG and first and first[-1][1] in _VOWEL:
            first.append((_KANA, _VOWEL[first[-1][1]]))
            second.append(_LONG_MARK)
        elif "ぁ" <= ch <= "ゖ":
            decomposed = unicodedata.normalize("NFD", ch)
            base, marks = decomposed[0], decomposed[1:]
            first.append((_KANA, _SMALL.get(base, base)))
            second.append(
                _SMALL_KANA
                if base in _SMALL
                else _VOICED_KANA
                if _VOICED in marks
                else _HALF_VOICED_KANA
                if _HALF_VOICED in marks
                else _PLAIN
            )
        else:
            first.append((_OTHER, ch.casefold()))
            second.append(_PLAIN)
    return (tuple(first), tuple(second), text)
