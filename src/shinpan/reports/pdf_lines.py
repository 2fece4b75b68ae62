"""Setting a PDF report's text in lines (for :mod:`shinpan.reports.penalties_pdf`): the page's
measures, sizes and colours, Noto Sans CJK JP found once, every character's width asked of
the font once, and runs of text wrapped into lines no wider than the page, never inside a
Latin word, never before 、。」 nor after 「 (Japanese line breaking, simplified)."""

from __future__ import annotations

import subprocess
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # fpdf2 loads for this report's PDF only
    from fpdf import FPDF


PT = 25.4 / 72  # one point in mm
PAGE_W, PAGE_H = 297.0, 210.0  # A4 landscape, as ``@page landscape``
TOP, SIDE, BOTTOM = 10.0, 9.0, 12.0
WIDTH = PAGE_W - 2 * SIDE
FOOT_BASELINE = PAGE_H - BOTTOM / 2 + 1.0
BODY, SMALL, H1, H2, SHORT, FOOT = 7.5, 0.85 * 7.5, 15.0, 11.5, 9.0, 7.0  # sizes in pt
LEADING = 1.4  # line height, as the reports' CSS
INK, EN, MUTED, META, FAINT, RULE_GREY = "#111111", "#555555", "#666666", "#333333", "#777777", "#cccccc"
ACCENT = "#b3261e"
ASCENT = 0.88  # Noto Sans CJK's ascender, in em
FONT_NAMES = {"": "Noto Sans CJK JP:style=Regular", "B": "Noto Sans CJK JP:style=Bold"}
FONT_FILES = {"": "NotoSansCJK-Regular.ttc", "B": "NotoSansCJK-Bold.ttc"}
FONT_DIRS = (
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/noto-cjk",
    "/usr/share/fonts/google-noto-cjk",
)
# A line never starts with these, nor ends with the openers (Japanese line breaking, simplified).
NO_START = frozenset("、。，．・：；？！ー）」』】〕〉》”’)]},.:;!?%")
NO_END = frozenset("（「『【〔〈《“‘([{")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Run:
    """Text in one style: ``B`` bold; a size in pt; a colour."""

    text: str
    size: float = BODY
    color: str = INK
    style: str = ""


@dataclass(frozen=True)
class Row:
    """One printed line: its runs with their x offsets, its height (mm)."""

    runs: tuple[tuple[float, Run], ...]
    height: float
    size: float


@cache
def font_file(style: str) -> tuple[str, int]:
    """The Noto Sans CJK JP face (file, index in the collection) of a style: Debian's
    ``fonts-noto-cjk`` where it is, else where fontconfig finds it."""
    for folder in FONT_DIRS:
        path = Path(folder) / FONT_FILES[style]
        if path.is_file():
            return str(path), 0  # the collection's first face is Noto Sans CJK JP
    found = subprocess.run(
        ["fc-match", "-f", "%{file}\n%{index}\n%{family}", FONT_NAMES[style]],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    file, index, family = [*found.stdout.split("\n"), "", "", ""][:3]
    if found.returncode != 0 or "CJK JP" not in family:
        raise RuntimeError("Noto Sans CJK JP is not installed (Debian: apt-get install fonts-noto-cjk)")
    return file, int(index or 0)


class Widths(dict[str, float]):
    """Widths of characters in em in one style, asked of the font once per character."""

    def __init__(self, pdf: FPDF, style: str) -> None:
        super().__init__()
        self.pdf, self.style = pdf, style

    def __missing__(self, ch: str) -> float:
        self.pdf.set_font("jp", self.style, 10)
        width = self[ch] = self.pdf.get_string_width(ch) / (10 * PT)
        return width


class Measure:
    """Widths of text, by style."""

    def __init__(self, pdf: FPDF) -> None:
        self.widths = {style: Widths(pdf, style) for style in ("", "B")}

    def table(self, style: str) -> Widths:
        return self.widths[style]


def can_break(text: str, at: int) -> bool:
    """Whether a line may end before ``text[at]``."""
    before, after = text[at - 1], text[at]
    if after == " ":
        return False
    if before == " ":
        return True
    if after in NO_START or before in NO_END:
        return False
    return not (before.isascii() and after.isascii())


def wrap(measure: Measure, runs: list[Run], width: float) -> list[list[tuple[float, Run]]]:
    """Runs set in lines no wider than ``width``: each line its runs (pieces of them) with
    their x offsets."""
    lines: list[list[tuple[float, Run]]] = [[]]
    x = 0.0
    for run in runs:
        text = run.text
        if not text:
            continue
        scale = run.size * PT
        ems = list(accumulate(map(measure.table(run.style).__getitem__, text)))
        if ems[-1] * scale <= width - x:  # the whole run fits
            lines[-1].append((x, run))
            x += ems[-1] * scale
            continue
        ends = [e * scale for e in ems]
        start, used = 0, 0.0  # characters of the run placed, and their width
        while start < len(text):
            fits = bisect_right(ends, used + width - x, lo=start)
            if fits >= len(text):
                lines[-1].append((x, Run(text[start:], run.size, run.color, run.style)))
                x += ends[-1] - used
                break
            cut = fits
            while cut > start and not can_break(text, cut):
                cut -= 1
            if cut == start and x <= 0.0:  # a word longer than the line: cut it where it must be
                cut = max(fits, start + 1)
            if cut > start:
                piece = text[start:cut].rstrip(" ")
                lines[-1].append((x, Run(piece, run.size, run.color, run.style)))
            while cut < len(text) and text[cut] == " ":
                cut += 1
            used = ends[cut - 1] if cut > 0 else 0.0
            start = cut
            lines.append([])
            x = 0.0
    return [line for line in lines if line] or [[]]


def rows_of(measure: Measure, runs: list[Run], width: float = WIDTH) -> list[Row]:
    size = max(r.size for r in runs)
    return [Row(tuple(line), size * LEADING * PT, size) for line in wrap(measure, runs, width)]
