"""Kana to romaji (Hepburn), so a judge can type ``yamada`` or ``yamadataro`` for やまだ たろう."""

from __future__ import annotations

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
    """Hiragana or katakana to lower-case romaji; other characters pass through."""
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
