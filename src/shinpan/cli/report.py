"""``shinpan report penalties|dq|player|stats|slip|penalty-slips|slips|pairings|standings|bracket``:
reports as CSV, JSON, HTML or PDF."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shinpan.cli.common import command_group, given_as, handled, open_db
from shinpan.cli.options import DbOption, EventOption, number_option
from shinpan.cli.output import both, errors, fail

if TYPE_CHECKING:
    from shinpan.reports import Output, Report
    from shinpan.store.db import Database


class Format(StrEnum):
    csv = "csv"
    json = "json"
    html = "html"
    pdf = "pdf"


class Lang(StrEnum):
    both = "both"
    ja = "ja"


class Order(StrEnum):
    table = "table"
    name = "name"


RoundOption = Annotated[int | None, number_option("--round", help="The round (default: the current one).")]


class Grouping(StrEnum):
    round = "round"
    player = "player"
    infraction = "infraction"


FormatOption = Annotated[Format, typer.Option("--format", "-f", help="csv, json, html or pdf.")]
LangOption = Annotated[
    Lang | None,
    typer.Option(
        "--lang",
        help="ja(日本語のみ)または both(日本語と英語)。既定: 大会の言語(日本の大会は日本語のみ)。"
        "ja (Japanese only) or both (Japanese with English beside it); default: the event's language.",
    ),
]
QrCodesAddress = Annotated[str, typer.Option("--base-url", help="The web app's address, for the QR codes.")]
OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="The file to write (default: standard output).")
]
STEPS = {
    "layout": both("ページを組んでいます", "laying out pages"),
    "write": both("PDFを書き出しています", "writing the PDF"),
    "done": both("完了", "done"),
}


def _language(report: Report, lang: Lang | None) -> str:
    """The language asked, else the event's: Japanese only for an event held in Japan."""
    from shinpan.reports.common import paper_language  # start-up

    return lang.value if lang is not None else paper_language(report.time_zone)


def _render_with_progress(make: Callable[[], Report], fmt: Format, lang: Lang | None) -> Output:
    """Gather and render; a PDF shows a progress bar on stderr while WeasyPrint works."""
    from shinpan.reports import render  # start-up

    if fmt is not Format.pdf:
        report = make()
        return render(report, fmt.value, lang=_language(report, lang))
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn  # start-up

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=errors(),
        transient=True,
    ) as progress:
        task = progress.add_task(both("台帳を読んでいます", "reading the ledger"), total=len(STEPS) + 1)
        report = make()

        def step(name: str) -> None:
            progress.update(task, advance=1, description=STEPS.get(name, name))

        return render(report, fmt.value, progress=step, lang=_language(report, lang))


class Printing:
    """What a report command ends with, given to it as one value: the format (``--format``),
    the language (``--lang``, else the event's), the file to write (``--output``) and the
    database (``--db``)."""

    __slots__ = ("db", "fmt", "lang", "output")

    def __init__(
        self, fmt: Format, lang: Lang | None = None, output: Path | None = None, db: str | None = None
    ) -> None:
        self.fmt, self.lang, self.output, self.db = fmt, lang, output, db

    def emit(self, make: Callable[[Database], Report]) -> None:
        """Open the database, gather the report ``make`` makes from it, and write it out."""
        database = open_db(self.db)
        fmt, output = self.fmt, self.output
        if fmt is Format.pdf and output is None and sys.stdout.isatty():
            fail(
                both(
                    "PDFは端末には出せません: -o FILE でファイルに書き出してください",
                    "a PDF is binary: write it to a file with -o FILE",
                ),
                1,
            )
        with handled():
            out = _render_with_progress(lambda: make(database), fmt, self.lang)
        if output is None:
            sys.stdout.buffer.write(out.content)
            sys.stdout.flush()
            return
        try:
            output.write_bytes(out.content)
        except OSError as e:
            fail(both(f"{output} に書き込めません: {e.strerror}", f"cannot write {output}: {e.strerror}"), 1)
        size = f"{len(out.content):,}"
        errors().print(
            both(f"{output} に書き出しました({size} バイト)", f"wrote {output} ({size} bytes)"),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def printed(
    fmt: Format, lang: Lang | None = None, *, asks_lang: bool = True, lang_after_output: bool = False
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A report command, its last parameter ``printing: Printing``: in its place Typer reads
    ``--format`` (default ``fmt``), ``--lang`` (default ``lang``; left out where the report
    has one language: ``asks_lang=False``), ``--output`` and ``--db``, in that order (``--lang``
    after ``--output`` where the command has always listed it so)."""
    options: dict[str, tuple[Any, Any]] = {
        "fmt": (FormatOption, fmt),
        "output": (OutputOption, None),
        "db": (DbOption, None),
    }
    if asks_lang:
        at = 2 if lang_after_output else 1
        listed = list(options.items())
        options = dict([*listed[:at], ("lang", (LangOption, lang)), *listed[at:]])
    return given_as("printing", options, lambda **given: Printing(**{"lang": lang, **given}))


def penalties(
    event: EventOption,
    fmt: FormatOption = Format.csv,
    lang: LangOption = None,
    group: Annotated[
        Grouping, typer.Option("--group", help="Group by round (default), player or infraction.")
    ] = Grouping.round,
    output: OutputOption = None,
    db: DbOption = None,
) -> None:
    """The event penalty report: every ruling the guideline reports (no cautions or draft warnings)."""
    from shinpan.reports import penalty_report  # start-up

    # its --group stands between --lang and --output: its options are its own, as its help lists them
    Printing(fmt, lang, output, db).emit(lambda database: penalty_report(database, event, group.value))


@printed(Format.pdf)
def dq(
    event: EventOption,
    ruling: Annotated[int | None, number_option("--ruling", help="Only this disqualification.")] = None,
    *,
    printing: Printing,
) -> None:
    """Disqualification reports: timeline, statements, the player's rulings, the decision (D14)."""
    from shinpan.reports import dq_report  # start-up

    printing.emit(lambda database: dq_report(database, event, ruling))


@printed(Format.json)
def player(
    event: Annotated[
        int | None, number_option("--event", help="The event the player is in (with --player).")
    ] = None,
    number: Annotated[str | None, typer.Option("--player", help="The player's id in that event.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Or: the player's name.")] = None,
    reading: Annotated[str, typer.Option("--reading", help="With --name: the reading, in kana.")] = "",
    *,
    printing: Printing,
) -> None:
    """A player's penalties, ejections and disqualifications across every event."""
    from shinpan.reports import history_of_player, player_history  # start-up

    if name is None and (event is None or number is None):
        fail(
            both(
                "誰の履歴か指定してください: --event ID --player N、または --name 名前 [--reading かな]",
                "say who: --event ID --player N, or --name NAME [--reading KANA]",
            ),
            1,
        )
    if name is not None:
        printing.emit(lambda database: player_history(database, name, reading))
    else:
        assert event is not None and number is not None
        printing.emit(lambda database: history_of_player(database, event, number))


@printed(Format.json)
def stats(
    event: Annotated[int | None, number_option("--event", help="One event (default: every event).")] = None,
    *,
    printing: Printing,
) -> None:
    """Statistics with charts: rulings by category, infraction, round and judge, and more."""
    from shinpan.reports import statistics  # start-up

    printing.emit(lambda database: statistics(database, event))


@printed(Format.pdf)
def slip(
    event: EventOption,
    ruling: Annotated[int, number_option("--ruling", help="The ruling's number.")],
    base_url: Annotated[
        str, typer.Option("--base-url", help="The web app's address, for the QR code.")
    ] = "http://127.0.0.1:8000",
    *,
    printing: Printing,
) -> None:
    """A penalty slip (A6) for one ruling, with a QR code linking to it in the web app."""
    from shinpan.reports import penalty_slip  # start-up

    printing.emit(lambda database: penalty_slip(database, event, ruling, base_url))


@printed(Format.pdf)
def penalty_slips(
    event: EventOption,
    round_no: Annotated[
        int | None, number_option("--round", help="Every ruling of this round that stands.")
    ] = None,
    rulings: Annotated[
        list[int] | None,
        number_option("--ruling", help="Or: these rulings (repeat --ruling for each)."),
    ] = None,
    base_url: QrCodesAddress = "http://127.0.0.1:8000",
    *,
    printing: Printing,
) -> None:
    """Penalty slips in batch, four A6 slips to an A4 page: a round's, or the rulings named."""
    from shinpan.reports import penalty_slips as make  # start-up

    if (round_no is None) == (not rulings):
        fail(
            both(
                "印刷するペナルティ通知を指定してください: --round N、または --ruling N(繰り返し可)",
                "say which slips: --round N, or --ruling N (repeated)",
            ),
            1,
        )
    printing.emit(
        lambda database: make(database, event, round_no=round_no, numbers=rulings or None, base_url=base_url)
    )


@printed(Format.pdf)
def slips(
    event: EventOption,
    round_no: RoundOption = None,
    tables: Annotated[
        list[int] | None, number_option("--table", help="Only these tables (repeat --table).")
    ] = None,
    base_url: QrCodesAddress = "http://127.0.0.1:8000",
    *,
    printing: Printing,
) -> None:
    """Result slips of a round, eight to an A4 page with cut lines: each table's players,
    boxes for the duels, signatures, and the match's code with a QR code."""
    from shinpan.reports import result_slips  # start-up

    printing.emit(lambda database: result_slips(database, event, round_no, base_url, tables=tables or None))


@printed(Format.pdf)
def pairings(
    event: EventOption,
    round_no: RoundOption = None,
    order: Annotated[
        Order, typer.Option("--by", help="table (default) or name (50-on order).")
    ] = Order.table,
    *,
    printing: Printing,
) -> None:
    """A round's pairings for the venue wall: by table, or by player name in 50-on order."""
    from shinpan.reports import venue_pairings  # start-up

    printing.emit(lambda database: venue_pairings(database, event, round_no, order.value))


@printed(Format.pdf)
def standings(
    event: EventOption,
    round_no: RoundOption = None,
    *,
    printing: Printing,
) -> None:
    """The standings for the venue wall, as they stood at the end of the round."""
    from shinpan.reports import venue_standings  # start-up

    printing.emit(lambda database: venue_standings(database, event, round_no))


@printed(Format.pdf, lang_after_output=True)
def bracket(
    event: EventOption,
    printing: Printing,
) -> None:
    """The playoff's bracket for the venue wall, with the final placings once the final is played."""
    from shinpan.reports import venue_bracket  # start-up

    printing.emit(lambda database: venue_bracket(database, event))


@printed(Format.pdf, Lang.both)
def deckchecks(
    event: EventOption,
    round_no: Annotated[int | None, number_option("--round", help="Only this round.")] = None,
    *,
    printing: Printing,
) -> None:
    """Deck checks (T13): who, when, how long, what was found, the rulings they led to."""
    from shinpan.reports.decks import deck_checks_report  # start-up

    printing.emit(lambda database: deck_checks_report(database, event, round_no))


@printed(Format.pdf, Lang.ja, asks_lang=False)
def decklist(
    event: EventOption,
    player: Annotated[str, typer.Option("--player", help="The player's id in the event.")],
    printing: Printing,
) -> None:
    """A player's decklist on A4, in Japanese, with the judges' box (T13)."""
    from shinpan.reports.decks import decklist_sheet  # start-up

    printing.emit(lambda database: decklist_sheet(database, event, player.strip()))


@printed(Format.csv, asks_lang=False)
def decklists(
    event: EventOption,
    printing: Printing,
) -> None:
    """Every player's current decklist, as CSV (a line per card) or JSON (T13)."""
    from shinpan.reports.decks import all_decklists  # start-up

    printing.emit(lambda database: all_decklists(database, event))


@printed(Format.pdf, Lang.both)
def codes(
    event: EventOption,
    base_url: Annotated[
        str, typer.Option("--base-url", help="The server's address, for the players' page.")
    ] = "",
    *,
    printing: Printing,
) -> None:
    """Each player's registration code on a slip, for their own decklist (T13)."""
    from shinpan.reports.decks import registration_slips  # start-up

    printing.emit(lambda database: registration_slips(database, event, base_url))


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "report",
        "報告書と掲示物 / "
        "Reports: the penalty report, disqualifications, a player's history, statistics, penalty "
        "slips, result slips, pairings and standings for the venue wall.",
        penalties,
        dq,
        player,
        stats,
        slip,
        penalty_slips,
        slips,
        pairings,
        standings,
        bracket,
        deckchecks,
        decklist,
        decklists,
        codes,
    )
