"""The penalty report of a large event as PDF, drawn line by line.

Above :data:`~shinpan.reports.formats.COMPACT_ABOVE` rulings the report is one line per
ruling (``templates/penalties.html``, ``compact``). WeasyPrint took 40 s to lay out the
20,000 rulings of a large event (every line broken and shaped by Pango, every glyph drawn
from Python); this draws the same page with fpdf2 in a few seconds: A4 landscape, the
document's head (title, event, the ledger's head with its QR code), the summary and the
legend, then each group under its heading and each ruling on its line, wrapped where it is
long (never inside a Latin word, never before 、。」 nor after 「), a ruling never split
across two pages nor a heading left alone at the foot of one, and every page's foot with
shinpan, the ledger head's short form and "page / pages". The text is Noto Sans CJK JP
(Debian's ``fonts-noto-cjk``, the font of the other reports), embedded as a subset with its
text extractable (what ``pdftotext`` reads).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shinpan.engine.event_rules import RulingState
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import bulk, local_time, zone_words
from shinpan.reports.fpdf_fonts import embed_cff_once, encode_once, keep_bounds
from shinpan.reports.pdf_lines import (
    ACCENT,
    ASCENT,
    BOTTOM,
    EN,
    FAINT,
    FOOT,
    FOOT_BASELINE,
    H1,
    H2,
    INK,
    META,
    MUTED,
    PAGE_H,
    PAGE_W,
    PT,
    RULE_GREY,
    SHORT,
    SIDE,
    SMALL,
    TOP,
    WIDTH,
    Measure,
    Progress,
    Row,
    Run,
    font_file,
    rows_of,
)
from shinpan.reports.penalties import PenaltyReport
from shinpan.reports.rulings import ReportedRuling

if TYPE_CHECKING:  # fpdf2 loads for this report's PDF only
    from fpdf import FPDF


# -- what the report says, as runs ----------------------------------------------------------


def en(text: str, lang: str, size: float = SMALL, style: str = "") -> list[Run]:
    """English beside the Japanese, smaller and grey (left off a Japanese-only page)."""
    return [] if lang == "ja" else [Run(" " + text, size, EN, style)]


def where(r: ReportedRuling) -> str:
    return (f"R{r.round}" if r.round is not None else "") + (f"/{r.table}" if r.table is not None else "")


def ruling_line(r: ReportedRuling, zone: str, lang: str) -> str:
    """One ruling as the compact page says it (``templates/penalties.html``)."""
    offense = "—" if r.offense is None else str(r.offense)
    text = (
        f"#{r.number} {where(r)} · {r.player} {r.player_name} · {r.infraction_ja}"
        + ("" if lang == "ja" else f" {r.infraction_en}")
        + f" ({offense}{' 期限超過' if r.follow_up else ''}) · {r.penalty_abbr or '罰則なし'}"
        + (f" · {r.remedy_ja}" if r.remedy_ja else "")
        + f" · 記録 {r.judge} {local_time(r.recorded_at, zone, style='short')} · 確認 "
    )
    if r.confirmation:
        text += f"{r.confirmation.judge} {local_time(r.confirmation.at, zone, style='short')}"
    else:
        text += "確認待ち" if r.state is RulingState.pending else "—"
    for d in r.deviations:
        text += f" · 逸脱 {d.penalties_ja} 理由「{d.reason}」({d.judge})"
    if r.void:
        text += (
            f" · 取消 理由「{r.void.reason}」 ({r.void.judge} {local_time(r.void.at, zone, style='short')})"
        )
    return text


def head_lines(report: PenaltyReport, lang: str) -> list[list[Run]]:
    """The document's head under its title: the event, who made it when."""
    e, zone = report.event, report.time_zone
    meta = " · ".join(p for p in (e.name, e.dates, e.venue or "") if p)
    judge = [
        Run("ヘッドジャッジ", color=META),
        *en("head judge", lang),
        Run(f" {e.head_judge} · ルール適用レベル{e.rel}", color=META),
        *en(f"REL {e.rel}", lang),
        Run(f" · ガイドライン 第{e.guideline_version}版", color=META),
        *en(e.guideline_id, lang),
    ]
    zone_ja, zone_en = zone_words(zone)
    made = [
        Run("作成", color=MUTED),
        *en("generated", lang),
        Run(f" {local_time(report.generated_at, zone)} ({zone_ja}", color=MUTED),
        *en(zone_en, lang),
        Run(")", color=MUTED),
    ]
    return [[Run(meta, color=META)], judge, made]


def ledger_lines(report: PenaltyReport, h: LedgerHead, lang: str) -> list[list[Run]]:
    """The ledger's head as the partial ``_ledger_head.html`` says it."""
    several = len(report.heads) > 1
    first = [Run("台帳ヘッド", color=META), *en("ledger head", lang)]
    if several:
        first += [Run(" (大会", color=META), *en("event", lang), Run(f" {h.event_id})", color=META)]
    first += [Run(": ", color=META), Run(h.short, SHORT, INK, "B")]
    second = [Run(f"第{h.position}項の時点", color=META), *en(f"as of entry {h.position}", lang)]
    if lang != "ja":
        second += [
            Run(" · 照合", color=META),
            *en("check", lang),
            Run(f": shinpan verify --head {h.short}", color=META),
        ]
    lines = [first, second]
    if h.seal:
        s = h.seal
        seal = [
            Run("封印済み", style="B", color=META),
            *en("sealed", lang),
            Run(f": 第{s.position}項", color=META),
            *en(f"entry {s.position}", lang),
        ]
        if s.position + 1 < h.position:
            later = h.position - s.position - 1
            seal += [
                Run(f" (その後の{later}項は封印の外", color=META),
                *en(f"{later} later entries not sealed", lang),
                Run(")", color=META),
            ]
        seal += [
            Run(f" · {local_time(s.sealed_at, report.time_zone)} · 鍵", color=META),
            *en("key", lang),
            Run(f" {s.fingerprint}", color=META),
        ]
        lines += [seal, [Run("署名", 5.5, EN), *en("signature", lang, 5.5), Run(f" {s.signature}", 5.5, EN)]]
    if h.reopened:
        r = h.reopened
        lines.append(
            [
                Run("封印の解除", style="B", color=META),
                *en("reopened", lang),
                Run(f": 第{r.position}項", color=META),
                *en(f"entry {r.position}", lang),
                Run(f" · {local_time(r.reopened_at, report.time_zone)} · {r.by} · 理由", color=META),
                *en("reason", lang),
                Run(f": {r.reason}", color=META),
            ]
        )
    if h.imported and h.imported.unsealed:
        i = h.imported
        lines.append(
            [
                Run("封印のない取り込み", style="B", color=META),
                *en("unsealed import", lang),
                Run(
                    f": 取り込んだファイルの{i.entries}項のうち{i.unsealed}項は封印されていません", color=META
                ),
                *en(f"{i.unsealed} of the imported file's {i.entries} entries were not sealed", lang),
            ]
        )
    elif h.imported:
        lines.append(
            [
                Run("封印されたファイルから取り込み", color=META),
                *en("imported from a sealed file", lang),
                Run(f" · 鍵 {h.imported.fingerprint}", color=META),
            ]
        )
    return lines


def summary_runs(report: PenaltyReport, lang: str) -> list[Run]:
    by = {"round": ("ラウンド", "round"), "player": ("選手", "player"), "infraction": ("違反", "infraction")}
    by_ja, by_en = by[report.group_by]
    zone_ja, zone_en = zone_words(report.time_zone)
    gap = Run("   ")
    return [
        Run("掲載"),
        *en("listed", lang),
        Run(f" {len(report.rulings)}", style="B"),
        gap,
        Run("うち取消"),
        *en("voided", lang),
        Run(f" {report.voided}", style="B"),
        gap,
        Run("非掲載(注意・ドラフト警告・罰則なし)"),
        *en("left out: cautions, draft warnings, no penalty", lang),
        Run(f" {report.left_out}", style="B"),
        gap,
        Run("並び"),
        *en("grouped by", lang),
        Run(f" {by_ja}"),
        *en(by_en, lang),
        gap,
        Run("時刻"),
        *en("times", lang),
        Run(f" {zone_ja}"),
        *en(zone_en, lang),
    ]


def legend_lines(lang: str) -> list[list[Run]]:
    first = [
        Run("一件一行(件数が多いため簡易表示, 時刻は月-日 時:分)", color=EN),
        *en("one line per ruling (a large report; times as month-day hour:minute)", lang),
    ]
    second = [
        Run("番号 · ラウンド/卓 · 選手 · 違反 (回数) · 罰則 · 追加措置 · 記録 · 確認 · 逸脱 · 取消", color=EN)
    ]
    if lang != "ja":
        second += [
            Run(" — ", color=EN),
            *en(
                "ruling · round/table · player · infraction (offence) · penalty · remedy · issued · confirmed · deviations · void",
                lang,
            ),
        ]
    return [first, second]


# -- pages ----------------------------------------------------------------------------------


@dataclass
class Block:
    """What is kept on one page: a heading with the first ruling under it, or one ruling."""

    rows: list[Row]
    rule: tuple[float, str, float] | None = None  # a line under it: width (pt), colour, gap above (mm)
    before: float = 0.0  # space above (mm)
    after: float = 0.0  # space below (mm)
    qr: tuple[str, float, float] | None = None  # a QR code at the left: its text, size and top (mm)

    @property
    def height(self) -> float:
        return self.before + sum(r.height for r in self.rows) + self.after


class Pages:
    """Blocks set down the pages, a new page when the next blocks kept together do not fit."""

    def __init__(self) -> None:
        self.pages: list[list[tuple[float, Block]]] = []
        self.y = PAGE_H  # no page yet

    def place(self, *blocks: Block) -> None:
        heights = [b.height for b in blocks]  # each worked out once: a large report has 18,000
        if not self.pages or self.y + sum(heights) > PAGE_H - BOTTOM:
            self.pages.append([])
            self.y = TOP
        page = self.pages[-1]
        for block, height in zip(blocks, heights, strict=True):
            page.append((self.y, block))
            self.y += height + (block.rule[0] * PT + block.rule[2] if block.rule else 0.0)


class Painter:
    """Draws the blocks of a page where they were set."""

    def __init__(self, pdf: FPDF) -> None:
        self.pdf = pdf
        self.style: tuple[str, float] = ("", 0.0)
        self.color = ""
        self.stroke: tuple[float, str] | None = None  # the last rule's width and colour

    def new_page(self) -> None:
        self.pdf.add_page()
        self.style, self.color = ("", 0.0), ""  # the font and colour are set again on each page

    def text(self, x: float, baseline: float, run: Run) -> None:
        pdf = self.pdf
        if (run.style, run.size) != self.style:
            pdf.set_font("jp", run.style, run.size)
            self.style = (run.style, run.size)
        if run.color != self.color:
            pdf.set_text_color(run.color)
            self.color = run.color
        pdf.text(x, baseline, run.text)

    def block(self, y: float, block: Block) -> None:
        pdf = self.pdf
        if block.qr is not None:
            text, size, top = block.qr
            draw_qr(pdf, text, SIDE, y + top, size)
        y += block.before
        for row in block.rows:
            baseline = y + (row.height - row.size * PT) / 2 + ASCENT * row.size * PT
            for x, run in row.runs:
                self.text(SIDE + x, baseline, run)
            y += row.height
        if block.rule is not None:
            width, color, gap = block.rule
            y += gap
            if (width, color) != self.stroke:  # fpdf2 writes a colour or width only when it changes
                pdf.set_draw_color(color)
                pdf.set_line_width(width * PT)
                self.stroke = (width, color)
            pdf.line(SIDE, y, PAGE_W - SIDE, y)

    def foot(self, page: int, pages: int, heads: tuple[LedgerHead, ...]) -> None:
        """Every page's foot: shinpan, the ledger head's short form, the page of pages."""
        pdf = self.pdf
        self.text(SIDE, FOOT_BASELINE, Run("shinpan 審判", FOOT, FAINT))
        if heads:
            center = f"台帳 {heads[0].short}"
            self.text((PAGE_W - pdf.get_string_width(center)) / 2, FOOT_BASELINE, Run(center, FOOT, FAINT))
        number = f"{page} / {pages}"
        self.text(PAGE_W - SIDE - pdf.get_string_width(number), FOOT_BASELINE, Run(number, FOOT, FAINT))


def qr_modules(text: str) -> list[list[bool]]:
    """The QR code of the ledger head's full form, as ``LedgerHead.qr_svg`` draws it."""
    import qrcode  # start-up

    code = qrcode.QRCode(border=1)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def draw_qr(pdf: FPDF, text: str, x: float, y: float, size: float) -> None:
    modules = qr_modules(text)
    box = size / len(modules)
    pdf.set_fill_color(INK)
    for j, row in enumerate(modules):
        i = 0
        while i < len(row):
            if row[i]:
                start = i
                while i < len(row) and row[i]:
                    i += 1
                pdf.rect(x + start * box, y + j * box, (i - start) * box, box, style="F")
            else:
                i += 1


def penalty_report_pdf(report: PenaltyReport, lang: str = "both", progress: Progress | None = None) -> bytes:
    """The report as the compact page shows it, drawn straight to PDF."""
    with bulk():  # the collector held off while drawing: it walked the 20,000 rulings again and again
        return draw_pdf(report, lang, progress)


def draw_pdf(report: PenaltyReport, lang: str, progress: Progress | None) -> bytes:
    from fpdf import FPDF  # start-up

    step = progress or (lambda _name: None)
    step("layout")
    pdf = FPDF(orientation="L", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(SIDE, TOP, SIDE)
    for style in ("", "B"):
        file, index = font_file(style)
        pdf.add_font("jp", style, file, collection_font_number=index)
    for font in pdf.fonts.values():
        encode_once(font)
        keep_bounds(font)
        embed_cff_once(font)
    pdf.set_lang("ja")
    pdf.set_title(f"違反報告書 — {report.event.name}")
    pdf.set_creator("shinpan")
    pages = Pages()
    for blocks in document_blocks(report, Measure(pdf), lang):
        pages.place(*blocks)
    painter = Painter(pdf)
    for number, page in enumerate(pages.pages, 1):
        painter.new_page()
        for y, block in page:
            painter.block(y, block)
        painter.foot(number, len(pages.pages), report.heads)
    step("write")
    content = bytes(pdf.output())
    step("done")
    return content


def document_blocks(report: PenaltyReport, measure: Measure, lang: str) -> Iterator[tuple[Block, ...]]:
    """The document's head, the summary and legend, then each group's rulings."""
    title = [Run("違反報告書", H1, INK, "B"), *en("Event penalty report", lang, 0.85 * H1, "B")]
    yield (Block(rows_of(measure, title), after=0.7),)
    for line in head_lines(report, lang):
        yield (Block(rows_of(measure, line)),)
    heads = report.heads
    qr = 18.0 if len(heads) == 1 else 0.0
    indent = qr + 1.5 if qr else 0.0
    for h in heads:
        rows = [
            row for line in ledger_lines(report, h, lang) for row in rows_of(measure, line, WIDTH - indent)
        ]
        rows = [Row(tuple((x + indent, run) for x, run in r.runs), r.height, r.size) for r in rows]
        spare = max(0.0, qr - sum(r.height for r in rows)) / 2
        yield (Block(rows, before=1.0 + spare, after=spare, qr=(h.full, qr, 1.0) if qr else None),)
    yield (Block([], rule=(1.5, ACCENT, 1.4), after=0.0),)
    yield (Block(rows_of(measure, summary_runs(report, lang)), before=2.1, after=2.1),)
    yield (Block([row for line in legend_lines(lang) for row in rows_of(measure, line)], after=1.06),)
    if not report.groups:
        yield (
            Block(
                rows_of(measure, [Run("報告すべき裁定はありません。"), *en("No rulings to report.", lang)])
            ),
        )
    yield from group_blocks(report, measure, report.time_zone, lang)


def group_blocks(
    report: PenaltyReport, measure: Measure, zone: str, lang: str
) -> Iterator[tuple[Block, ...]]:
    for g in report.groups:
        label = [Run(g.label_ja, H2, INK, "B")]
        if g.label_en != g.label_ja:
            label += en(g.label_en, lang, 0.85 * H2, "B")
        heading = Block(rows_of(measure, label), rule=(0.8, META, 0.0), before=3.5, after=1.4)
        for n, r in enumerate(g.rulings):
            color = MUTED if r.voided else INK
            line = Block(
                rows_of(measure, [Run(ruling_line(r, zone, lang), color=color)]),
                rule=(0.3, RULE_GREY, 0.2),
                before=0.2,
            )
            yield (heading, line) if n == 0 else (line,)
