"""Reports as files: CSV for Excel, JSON for programs, HTML to print, PDF to send.

Every report (:class:`Report`) gives its JSON and, where it is a table, its CSV; its HTML
comes from ``templates/<kind>.html``, Japanese first with English beside it, and its PDF
is that HTML laid out by WeasyPrint in Noto Sans CJK JP (Debian's ``fonts-noto-cjk``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeGuard

from shinpan.errors import InvalidInput
from shinpan.reports.common import OUTCOMES, STATE_WORDS, STATUS_WORDS, bulk, local_time, zone_words
from shinpan.reports.penalties import PenaltyReport
from shinpan.reports.result_slip import ResultSlips
from shinpan.reports.slip import PenaltySlips, Slip
from shinpan.reports.stats import Statistics

if TYPE_CHECKING:  # the templates load only for HTML and PDF
    from jinja2 import Environment
    from markupsafe import Markup

    from shinpan.ledger_head import LedgerHead

FORMATS = ("csv", "json", "html", "pdf")
LANGUAGES = ("both", "ja")
MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
}
BOM = "\ufeff"  # Excel in Japan reads a CSV as UTF-8 only when it starts with this
COMPACT_ABOVE = 1000  # rulings: above this the penalty report is one line per ruling (layout time)

Progress = Callable[[str], None]


class Report(Protocol):
    kind: ClassVar[str]

    @property
    def file_stem(self) -> str: ...

    @property
    def time_zone(self) -> str: ...

    def as_json(self) -> dict[str, Any]: ...

    def csv_table(self) -> tuple[list[str], list[list[str]]] | None: ...

    @property
    def heads(self) -> tuple[LedgerHead, ...]: ...


@dataclass(frozen=True)
class Output:
    """A rendered report: its bytes, media type and a file name to save it under."""

    content: bytes
    media_type: str
    filename: str


def render(
    report: Report,
    fmt: str,
    *,
    stylesheet: str | None = None,
    progress: Progress | None = None,
    lang: str = "both",
) -> Output:
    """The report in ``fmt`` (csv, json, html, pdf). ``stylesheet``: link the HTML's styles
    from this URL instead of writing them into the page (for pages served by the web app).
    ``lang``: ``both`` (Japanese with English beside it, as every report is made) or ``ja``
    (Japanese only: the English beside it is left off the page and the CSV's header)."""
    if fmt not in FORMATS:
        raise InvalidInput("the format is csv, json, html or pdf", field="format")
    if lang not in LANGUAGES:
        raise InvalidInput("the language is ja or both", field="lang")
    if fmt == "csv":
        content = to_csv(report, lang)
    elif fmt == "json":
        content = to_json(report)
    elif fmt == "html":
        content = to_html(report, stylesheet=stylesheet, lang=lang).encode("utf-8")
    elif compact(report):  # one line per ruling, drawn straight to PDF (WeasyPrint: 40 s for 20,000)
        from shinpan.reports.penalties_pdf import penalty_report_pdf  # start-up

        content = penalty_report_pdf(report, lang, progress)
    else:
        content = to_pdf(to_html(report, lang=lang), progress)
    return Output(content, MEDIA_TYPES[fmt], f"{report.file_stem}.{fmt}")


def compact(report: Report) -> TypeGuard[PenaltyReport]:
    """Whether the report is a penalty report so large it is one line per ruling."""
    return isinstance(report, PenaltyReport) and len(report.rulings) > COMPACT_ABOVE


def to_csv(report: Report, lang: str = "both") -> bytes:
    """The report's table as CSV (see :func:`csv_bytes`), every line ending with the ledger's
    head as it was when the report was made (:func:`head_columns`); ``ja``: its header in
    Japanese only."""
    table = report.csv_table()
    if table is None:
        raise InvalidInput(
            "the {kind} report comes as json, html or pdf, not csv", field="format", kind=report.kind
        )
    header, rows = head_columns(*table, report.heads)
    with bulk():
        return csv_bytes([japanese_header(h) for h in header] if lang == "ja" else header, rows)


HEAD_COLUMNS = ["台帳の位置 / ledger entry", "台帳ヘッド / ledger head"]


def head_columns(
    header: list[str], rows: list[list[str]], heads: tuple[LedgerHead, ...]
) -> tuple[list[str], list[list[str]]]:
    """The table with two last columns, the same on every line: the position and the short
    form of the head (of each event, for a report over several), so that any printed page
    of the CSV carries it. A table made without a ledger is left as it is."""
    if not heads:
        return header, rows
    position = " ".join(str(h.position) for h in heads)
    short = " ".join(h.short for h in heads)
    return [*header, *HEAD_COLUMNS], [[*row, position, short] for row in rows]


_BILINGUAL = re.compile(r"^(?P<ja>.*?) / [^(]*(?: \((?P<zone>[^)]+)\))?$")


def japanese_header(header: str) -> str:
    """A bilingual column header (``記録時刻 / issued at (Asia/Tokyo)``) in Japanese only
    (``記録時刻(日本時間)``)."""
    found = _BILINGUAL.match(header)
    if found is None:
        return header
    zone = found.group("zone")
    return found.group("ja") + (f"({zone_words(zone)[0]})" if zone else "")


def csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    """Every CSV shinpan writes: UTF-8 with a BOM and CRLF line ends (what Excel opens
    without asking), every cell through :func:`inert`."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([inert(cell) for cell in header])
    buffer.write("".join(_lines(rows)))
    return buffer.getvalue().encode("utf-8")


def _lines(rows: list[list[str]]) -> Iterator[str]:
    """The rows as CSV lines, each as ``csv.writer`` writes it: a row none of whose cells
    holds a comma, a quote or a line break is its cells joined by commas (C-level string
    work on the line, where the writer checks every one of half a million cells); any other
    goes through the writer."""
    starts = _FORMULA_FIRST  # inert() written out: a large report has half a million cells
    spare = io.StringIO()
    writer = csv.writer(spare, lineterminator="\r\n")
    for row in rows:
        line = ",".join(row)
        # The usual row, told by scanning its line (C-level, no cell looked at one by one): no
        # cell holds a comma (so each comma ends a cell), none starts a formula, nothing to quote.
        if (
            line.count(",") == len(row) - 1
            and line[:1] not in starts
            and not any(mark in line for mark in _UNUSUAL)
            and (line or len(row) != 1)
        ):
            yield line + "\r\n"
            continue
        cells = [("'" + c) if c[:1] in starts else c for c in row]
        line = ",".join(cells)
        plain = (
            line.count(",") == len(cells) - 1 and '"' not in line and "\n" not in line and "\r" not in line
        )
        if plain and (line or len(cells) != 1):  # a single empty cell is written quoted
            yield line + "\r\n"
            continue
        spare.seek(0)
        spare.truncate()
        writer.writerow(cells)
        yield spare.getvalue()


# A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_FIRST = frozenset(_FORMULA_STARTS)
# In a line of cells none of which holds a comma: a cell starting a formula, or a character
# the CSV writer quotes.
_UNUSUAL = (*("," + c for c in _FORMULA_STARTS), '"', "\n", "\r")


def inert(cell: str) -> str:
    """The cell as a spreadsheet shows it as text, never runs it: one that would start a
    formula (a player named ``=HYPERLINK(...)``, a table "-") gets a leading ``'``, as OWASP
    advises against CSV injection. Every such cell, whatever it holds: the rule is simple."""
    return "'" + cell if cell.startswith(_FORMULA_STARTS) else cell


def to_json(report: Report) -> bytes:
    data = report.as_json()
    if report.heads:
        data["ledger_heads"] = [h.as_json() for h in report.heads]
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


@cache
def environment() -> Environment:
    from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape  # start-up

    templates = resources.files("shinpan.reports") / "templates"
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Times in the report's zone (``tz`` in the context): the event's.
    env.filters["local"] = pass_context(lambda ctx, stamp: local_time(stamp, ctx["tz"]))
    env.filters["short"] = pass_context(lambda ctx, stamp: local_time(stamp, ctx["tz"], style="short"))
    env.globals["zone"] = pass_context(lambda ctx: bilingual(*zone_words(ctx["tz"])))
    # The words for the codes a report holds: Japanese, with English beside it.
    env.globals["state_words"] = lambda state: bilingual(*_words(STATE_WORDS, state))
    env.globals["status_words"] = lambda status: bilingual(*STATUS_WORDS.get(status, (status, status)))
    env.globals["outcome_words"] = lambda outcome: bilingual(*OUTCOMES.get(outcome, (outcome, outcome)))
    return env


def _words(table: dict[str, str], code: str) -> tuple[str, str]:
    ja, _, en = table.get(code, code).partition(" / ")
    return ja, en


def bilingual(ja: str, en: str) -> Markup:
    """Japanese with the English beside it (left off a Japanese-only page)."""
    from markupsafe import Markup, escape  # start-up

    if not en or en == ja:
        return Markup(escape(ja))
    return Markup(f'{escape(ja)} <span class="en">{escape(en)}</span>')


def to_html(report: Report, *, stylesheet: str | None = None, lang: str = "both") -> str:
    """The report as one HTML document, its styles inside (or linked from ``stylesheet``)."""
    from markupsafe import Markup  # start-up

    context: dict[str, Any] = {
        "report": report,
        "stylesheet": stylesheet,
        "tz": report.time_zone,
        "lang": lang,
    }
    if isinstance(report, Statistics):
        from shinpan.reports.charts import charts  # start-up

        context["charts"] = {kind: Markup(svg) for kind, svg in charts(report, "ja").items()}
    elif isinstance(report, Slip):
        context["qr"] = Markup(report.qr_svg)
    elif isinstance(report, PenaltySlips):
        context["qrs"] = {s.ruling.number: Markup(s.qr_svg) for s in report.slips}
    elif isinstance(report, ResultSlips):
        context["qrs"] = {s.table: Markup(s.qr_svg) for s in report.slips}
        context["call_qrs"] = {s.table: Markup(s.call_qr_svg) for s in report.slips}
    elif isinstance(report, PenaltyReport):
        context["compact"] = compact(report)
    html = environment().get_template(f"{report.kind}.html").render(**context)
    return drop_english(html) if lang == "ja" else html


_EN_OPEN = re.compile(r'[ \t]*<span class="en">')
_SPAN = re.compile(r"<span\b|</span>")


def drop_english(html: str) -> str:
    """A Japanese-only page: every ``<span class="en">`` (the English beside the Japanese) left
    out with the space before it, so no stub stays (「(日本時間 )」, 「台帳ヘッド :」)."""
    out, at = [], 0
    for found in _EN_OPEN.finditer(html):
        if found.start() < at:
            continue  # inside English already left out
        depth, end = 0, len(html)
        for tag in _SPAN.finditer(html, found.end() - len('<span class="en">')):
            depth += 1 if tag.group() != "</span>" else -1
            if depth == 0:
                end = tag.end()
                break
        out.append(html[at : found.start()])
        at = end
    out.append(html[at:])
    return "".join(out)


def print_css() -> str:
    """The reports' print styles, for pages that link them (see ``stylesheet``)."""
    return environment().get_template("_styles.html").render()


def to_pdf(html: str, progress: Progress | None = None) -> bytes:
    """Lay the HTML out in pages and write the PDF (WeasyPrint)."""
    from weasyprint import HTML  # start-up

    step = progress or (lambda _name: None)
    step("layout")
    document = HTML(string=html).render()
    step("write")
    pdf = document.write_pdf()
    step("done")
    return bytes(pdf or b"")
