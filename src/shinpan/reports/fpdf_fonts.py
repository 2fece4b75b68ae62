"""What the PDF drawn with fpdf2 (:mod:`shinpan.reports.penalties_pdf`) asks of its fonts,
done once: fpdf2 loads in this report's PDF only, so nothing here imports it."""

from __future__ import annotations

from functools import cache
from typing import Any
from weakref import WeakKeyDictionary


def encode_once(font: Any) -> None:
    """fpdf2 writes a text by mapping each of its characters through the font's subset, one
    call after another (``TTFFont.encode_text``): 0.2–0.5 s of this report's CPU, for the
    same few hundred characters over and over. The same mapping, each character picked once
    (in the order fpdf2 would pick it, so the PDF is the same bytes) and each text mapped by
    ``str.translate``: the font becomes a :func:`once_font` (the same object, its class
    swapped: fpdf2's fonts have slots and no room for a method of their own)."""
    if getattr(font, "is_symbol", True) or not hasattr(font, "subset"):
        return  # a symbol font remaps characters first: left to fpdf2
    font.__class__ = once_font(font.__class__)


def keep_bounds(font: Any) -> None:
    """The embedded subset keeps the whole font's bounding boxes: fontTools would otherwise
    draw every glyph of the subset twice to measure them again (when fpdf2 saves the font,
    then when it compiles the CFF it embeds), a third of the time of writing this PDF. A box
    larger than the glyphs drawn changes nothing on the page (the PDF's font descriptor
    carries fpdf2's own box either way)."""
    ttfont = getattr(font, "ttfont", None)
    if ttfont is not None:
        ttfont.recalcBBoxes = False


def embed_cff_once(font: Any) -> None:
    """fpdf2 embeds a CID-keyed CFF font (Noto Sans CJK) as its CFF table alone, compiled on
    its own (``ttfont["CFF "].compile``), after it has saved the whole subset font and thrown
    that away: the font's ``TTFont`` becomes a :func:`cff_only` one (the same object, its
    class swapped), whose ``save`` writes nothing for fpdf2 to throw away. The CFF embedded
    is the same bytes."""
    ttfont = getattr(font, "ttfont", None)
    if ttfont is None or not (getattr(font, "is_cff", False) and getattr(font, "is_cid_keyed", False)):
        return
    if "CFF " in ttfont:
        ttfont.__class__ = cff_only(ttfont.__class__)


@cache
def cff_only(base: Any) -> type:
    """A subclass of fontTools' ``TTFont`` (``base``) whose ``save`` writes nothing (see
    :func:`embed_cff_once`)."""

    def save(self: Any, file: Any, reorderTables: Any = True) -> None:
        return None

    return type(base.__name__, (base,), {"save": save})


@cache
def once_font(base: Any) -> type:
    """A subclass of fpdf2's ``TTFFont`` (``base``) whose ``encode_text`` picks each character
    once (see :func:`encode_once`); what it has picked is kept beside the font's subset."""
    picked: WeakKeyDictionary[Any, tuple[dict[int, int | None], set[str]]] = WeakKeyDictionary()

    def encode_text(self: Any, text: str) -> str:
        subset = self.subset
        known = picked.get(subset)
        if known is None:
            known = picked[subset] = ({}, set())
        table, seen = known  # a character → its place in the subset (None: no glyph)
        new = set(text).difference(seen)
        if new:
            for ch in dict.fromkeys(text):
                if ch in new:
                    table[ord(ch)] = subset.pick(ord(ch))
            seen.update(new)
        return f"({self.escape_text(text.translate(table))}) Tj"

    return type(base.__name__, (base,), {"__slots__": (), "encode_text": encode_text})
