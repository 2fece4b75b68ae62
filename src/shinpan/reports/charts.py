"""Bar charts drawn on the server as SVG (matplotlib, Agg), readable without JavaScript.

Text is drawn as paths (``svg.fonttype = path``) in Noto Sans CJK JP when it is installed,
so Japanese labels look the same in every browser and in the PDF. Each bar carries an id
that says what it counts: ``bar-category-deck-3`` is the bar of category ``deck``, count 3.
Styles become SVG presentation attributes, so the charts render under the web app's
content security policy (no inline styles) when embedded in a page.
"""

from __future__ import annotations

import io
import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any, cast

import matplotlib

matplotlib.use("Agg")

from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from shinpan.reports.stats import Statistics, Tally

CJK_FONT = "Noto Sans CJK JP"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
COLOURS = {"category": "#b3261e", "infraction": "#3b5b92", "round": "#1e7d32", "judge": "#a15c00"}
HORIZONTAL = {"category", "infraction", "judge"}
_DRAWING = threading.Lock()  # matplotlib's state is shared: one chart at a time
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def _font_families() -> list[str]:
    try:
        font_manager.findfont(CJK_FONT, fallback_to_default=False)
    except ValueError:
        return ["DejaVu Sans"]
    return [CJK_FONT, "DejaVu Sans"]


_SETTINGS: dict[str, Any] = {
    "svg.fonttype": "path",
    "svg.hashsalt": "shinpan",
    "font.family": _font_families(),
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def bar_id(kind: str, tally: Tally) -> str:
    """The bar's id: what it counts and how many (spaces in keys become ``_``)."""
    key = re.sub(r"\s+", "_", tally.key.strip())
    return f"bar-{kind}-{key}-{tally.count}"


def bar_chart(kind: str, tallies: Sequence[Tally], lang: str = "ja") -> str:
    """One bar per tally, labelled in ``lang``; an inline ``<svg>`` element as text."""
    labels = [_shorten(t.label(lang)) for t in tallies]
    counts = [t.count for t in tallies]
    horizontal = kind in HORIZONTAL
    height = max(1.3, 0.3 * len(tallies) + 0.7) if horizontal else 2.8
    with _DRAWING, matplotlib.rc_context(cast(Any, _SETTINGS)):
        figure = Figure(figsize=(7.2, height), layout="constrained")
        ax = figure.subplots()
        colour = COLOURS.get(kind, "#444444")
        if horizontal:
            bars = ax.barh(range(len(tallies)), counts, height=0.65, color=colour)
            ax.set_yticks(range(len(tallies)), labels)
            ax.set_ylim(max(len(tallies), 2) - 0.5, -0.5)  # first on top; one bar is not a wall
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            bars = ax.bar(range(len(tallies)), counts, width=0.6, color=colour)
            ax.set_xticks(range(len(tallies)), labels)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        for bar, tally in zip(bars, tallies, strict=True):
            bar.set_gid(bar_id(kind, tally))
        ax.bar_label(bars, padding=2)
        if not tallies:
            ax.text(0.5, 0.5, "—", transform=ax.transAxes, ha="center")
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return inline_svg(buffer.getvalue(), prefix=f"chart-{kind}-")


def charts(stats: Statistics, lang: str = "ja") -> dict[str, str]:
    """The four charts of a statistics report, by name."""
    return {kind: bar_chart(kind, tallies, lang) for kind, tallies in stats.tallies.items()}


def _shorten(label: str, limit: int = 28) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


_STYLE_PROPERTY = re.compile(r"\s*([a-z-]+)\s*:\s*([^;]+?)\s*(?:;|$)")


def inline_svg(svg: str, *, prefix: str) -> str:
    """An SVG document as an element to put in a page: no prolog, no metadata, styles as
    attributes, ids (but the bars') prefixed so several charts can share a page."""
    root = ET.fromstring(svg)
    for parent in root.iter():
        for child in list(parent):
            if child.tag in (f"{{{SVG}}}metadata", f"{{{SVG}}}style"):
                parent.remove(child)
    root.set("stroke-linejoin", "round")
    root.set("stroke-linecap", "butt")
    renamed: dict[str, str] = {}
    for element in root.iter():
        style = element.attrib.pop("style", None)
        if style:
            for name, value in _STYLE_PROPERTY.findall(style):
                element.set(name, value)
        ident = element.get("id")
        if ident and not ident.startswith("bar-"):
            renamed[ident] = prefix + ident
            element.set("id", prefix + ident)
    href = f"{{{XLINK}}}href"
    for element in root.iter():
        for attribute, value in list(element.attrib.items()):
            if attribute == href and value.startswith("#") and value[1:] in renamed:
                element.set(attribute, "#" + renamed[value[1:]])
            elif value.startswith("url(#") and value[5:-1] in renamed:
                element.set(attribute, f"url(#{renamed[value[5:-1]]})")
    root.set("width", "100%")
    root.attrib.pop("height", None)
    root.set("class", "chart")
    root.set("role", "img")
    return ET.tostring(root, encoding="unicode")
