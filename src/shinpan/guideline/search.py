"""Finding infractions by what a judge types: kanji, kana, English, an id or 警1."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the ledger's projector folds names with normalize(): no guideline classes
    from shinpan.guideline.model import Infraction
    from shinpan.guideline.rulebook import Rulebook

_KATAKANA = range(ord("ァ"), ord("ヶ") + 1)
_TO_HIRAGANA = {k: k - 0x60 for k in _KATAKANA}


def normalize(text: str) -> str:
    """NFKC, lower case, katakana as hiragana, no spaces: what both sides are compared in."""
    folded = unicodedata.normalize("NFKC", text).lower().translate(_TO_HIRAGANA)
    return "".join(folded.split())


def haystack(inf: Infraction) -> str:
    fields = [inf.id, inf.name.ja, inf.name.en, inf.reading, *(s.source for s in inf.ladder)]
    fields += [n.ja for n in inf.notes] + [n.en for n in inf.notes]
    return "\n".join(normalize(f) for f in fields)


def search(book: Rulebook, query: str) -> list[Infraction]:
    """Infractions matching every word of the query, in the guideline's order."""
    words = [normalize(w) for w in query.split() if w.strip()]
    if not words:
        return list(book.guideline.infractions)
    return [inf for inf in book.guideline.infractions if all(w in haystack(inf) for w in words)]
