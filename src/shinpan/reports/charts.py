"""Bar charts drawn on the server as SVG, readable without JavaScript.

Written out directly (a few rectangles, lines and labels): a statistics page with its four
charts is ready in milliseconds, where a plotting library took most of a second. Labels
are text in Noto Sans CJK JP (the reports' font, Debian's ``fonts-noto-cjk``), so they are
searchable in the PDF and read out by screen readers; their widths are reckoned from the
characters (a full-width character is one em) to leave each label its room. Each bar
carries an id that says what it counts: ``bar-category-deck-3`` is the bar of category
``deck``, count 3. Every style is a presentation attribute, so the charts render under
the web app's content security policy (no inline styles) when embedded in a page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from shinpan.reports.stats import Statistics, Tally

FONT = "'Noto Sans CJK JP', 'Noto Sans JP', 'Hiragino Sans', sans-serif"
SIZE = 12  # the labels' font size, in the drawing's units (px)
WIDTH = 720
ROW = 22  # a horizontal bar's row
TALL = 280  # the vertical chart's height
COLOURS = {
    "category": "#b3261e",
    "infraction": "#3b5b92",
    "round": "#1e7d32",
    "judge": "#a15c00",
    "calls": "#6a3d9a",
}
HORIZONTAL = {"category", "infraction", "judge"}
AXIS, GRID, INK = "#333333", "#dddddd", "#111111"


def bar_id(kind: str, tally: Tally) -> str:
    """The bar's id: what it counts and how many (spaces in keys become ``_``)."""
    key = re.sub(r"\s+", "_", tally.key.strip())
    return f"bar-{kind}-{key}-{tally.count}"


def text_width(text: str, size: float = SIZE) -> float:
    """About how wide ``text`` is drawn: a full-width character one em, others ~0.6 em."""
    ems = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text)
    return ems * size


def ticks(highest: int) -> list[int]:
    """Whole-number ticks from 0 up past ``highest``, at most seven, 1, 2 or 5 × 10ⁿ apart."""
    highest, magnitude = max(highest, 1), 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if highest <= 6 * step:
                return list(range(0, -(-highest // step) * step + 1, step))
        magnitude *= 10


def _text(
    x: float, y: float, content: str, *, anchor: str = "start", size: int = SIZE, fill: str = INK
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family={quoteattr(FONT)} font-size="{size}" '
        f'text-anchor="{anchor}" fill="{fill}">{escape(content)}</text>'
    )


def _svg(kind: str, height: float, parts: list[str]) -> str:
    body = "".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" width="100%" '
        f'class="chart" role="img" id="chart-{kind}" stroke-linecap="butt">{body}</svg>'
    )


def _horizontal(kind: str, tallies: Sequence[Tally], labels: list[str]) -> str:
    colour = COLOURS.get(kind, "#444444")
    left = min(300.0, max([text_width(label) for label in labels] + [24.0])) + 12
    scale = ticks(max([t.count for t in tallies] + [1]))
    span = WIDTH - left - 44
    per = span / scale[-1]
    top, rows = 6.0, max(len(tallies), 1)
    bottom = top + rows * ROW
    parts = []
    for tick in scale:
        x = left + tick * per
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom:.1f}" stroke="{GRID}" stroke-width="1"/>'
        )
        parts.append(_text(x, bottom + 15, str(tick), anchor="middle", size=SIZE - 1, fill=AXIS))
    for n, (tally, label) in enumerate(zip(tallies, labels, strict=True)):
        y = top + n * ROW
        length = tally.count * per
        parts.append(
            f'<rect id="{bar_id(kind, tally)}" x="{left:.1f}" y="{y + 3:.1f}" width="{length:.1f}" '
            f'height="{ROW - 6}" fill="{colour}"/>'
        )
        parts.append(_text(left - 6, y + ROW / 2 + SIZE * 0.35, label, anchor="end"))
        parts.append(_text(left + length + 4, y + ROW / 2 + SIZE * 0.35, str(tally.count)))
    if not tallies:
        parts.append(_text(left + span / 2, top + ROW / 2 + 4, "—", anchor="middle"))
    parts.append(
        f'<line x1="{left:.1f}" y1="{top}" x2="{left:.1f}" y2="{bottom:.1f}" stroke="{AXIS}" stroke-width="1"/>'
    )
    return _svg(kind, bottom + 22, parts)


def _vertical(kind: str, tallies: Sequence[Tally], labels: list[str]) -> str:
    colour = COLOURS.get(kind, "#444444")
    scale = ticks(max([t.count for t in tallies] + [1]))
    left = text_width(str(scale[-1]), SIZE - 1) + 14
    top, bottom = 18.0, TALL - 30.0
    per = (bottom - top) / scale[-1]
    slot = (WIDTH - left - 8) / max(len(tallies), 1)
    parts = []
    for tick in scale:
        y = bottom - tick * per
        parts.append(
            f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{WIDTH - 8}" y2="{y:.1f}" stroke="{GRID}" stroke-width="1"/>'
        )
        parts.append(_text(left - 5, y + 4, str(tick), anchor="end", size=SIZE - 1, fill=AXIS))
    for n, (tally, label) in enumerate(zip(tallies, labels, strict=True)):
        x = left + n * slot + slot * 0.2
        height = tally.count * per
        parts.append(
            f'<rect id="{bar_id(kind, tally)}" x="{x:.1f}" y="{bottom - height:.1f}" '
            f'width="{slot * 0.6:.1f}" height="{height:.1f}" fill="{colour}"/>'
        )
        parts.append(_text(x + slot * 0.3, bottom - height - 4, str(tally.count), anchor="middle"))
        parts.append(_text(x + slot * 0.3, bottom + 17, label, anchor="middle"))
    if not tallies:
        parts.append(_text(WIDTH / 2, (top + bottom) / 2, "—", anchor="middle"))
    parts.append(
        f'<line x1="{left:.1f}" y1="{bottom:.1f}" x2="{WIDTH - 8}" y2="{bottom:.1f}" stroke="{AXIS}" stroke-width="1"/>'
    )
    return _svg(kind, TALL, parts)


def bar_chart(kind: str, tallies: Sequence[Tally], lang: str = "ja") -> str:
    """One bar per tally, labelled in ``lang``; an inline ``<svg>`` element as text."""
    labels = [_shorten(t.label(lang)) for t in tallies]
    return (_horizontal if kind in HORIZONTAL else _vertical)(kind, tallies, labels)


def charts(stats: Statistics, lang: str = "ja") -> dict[str, str]:
    """The four charts of a statistics report, by name."""
    return {kind: bar_chart(kind, tallies, lang) for kind, tallies in stats.tallies.items()}


def _shorten(label: str, limit: int = 28) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def calls_chart(stats: Statistics, lang: str = "ja") -> str:
    """Judge calls per round (T14), drawn as the rulings per round are."""
    rounds = stats.calls.by_round if stats.calls is not None else ()
    tallies = [Tally(str(r.round), f"第{r.round}ラウンド", f"R{r.round}", r.calls) for r in rounds]
    return bar_chart("calls", tallies, lang)
