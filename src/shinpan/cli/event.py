"""``shinpan event|judge|players|pairings``: setting up and running an event (rounds:
:mod:`shinpan.cli.rounds`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from shinpan.cli.common import (
    FORMAT_JA,
    ROLE_JA,
    TIME_OUT_JA,
    Acting,
    command_group,
    handled,
    open_db,
    recording,
    say_claim_code,
)
from shinpan.cli.options import (
    DbOption,
    EventOption,
    JsonOption,
    RoundOption,
    number_option,
)
from shinpan.cli.output import both, fail, heading, print_json, print_table, tell
from shinpan.engine.event_rules import Role

AccountOption = Annotated[
    str | None,
    typer.Option(
        "--account", help="The account (its sign-in name) that holds the seat; without it, a claim code."
    ),
]


FormatOption = Annotated[
    str | None, typer.Option("--format", help="bo3 (best of three, the default) or bo1 (best of one).")
]
TimeOutOption = Annotated[
    str | None,
    typer.Option("--time-out", help="A match at time: duels (decided by duels, the default) or both-lose."),
]
TiebreakersOption = Annotated[
    str | None,
    typer.Option(
        "--tiebreakers",
        help="After points, in order: omw, gw, ogw, oomw, seeded (default omw,gw,ogw), or a preset: "
        "standard, both-lose (omw,oomw,seeded).",
    ),
]


def _holder(database: Any, account: str | None) -> Any:
    """The account named on the command line, which must exist."""
    from shinpan.services import accounts  # start-up

    if account is None:
        return None
    found = accounts.account_named(database, account)
    if found is None:
        fail(
            both(
                f"「{account}」という名前のアカウントはありません。`shinpan user add` で作るか、--account を外してください",
                f"no account named {account!r}: make it with `shinpan user add`, or leave --account out",
            ),
            1,
        )
    return found


def _say_claim(seat: str, code: str | None) -> None:
    if code is None:
        return
    say_claim_code(seat.strip(), code)


def _parse(kind: str, path: Path) -> list[Any]:
    """Read and check a CSV file of ``players`` or ``pairings``; every problem is listed and
    nothing is imported."""
    from shinpan.files.csvio import MAX_BYTES, CsvError, parse_pairings, parse_players  # start-up

    parse: Callable[[bytes], list[Any]] = parse_players if kind == "players" else parse_pairings
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)  # one byte over the limit: the parser refuses it whole
    except OSError as e:
        fail(both(f"{path} を読めません: {e.strerror}", f"cannot read {path}: {e.strerror}"), 1)
    try:
        return parse(data)
    except CsvError as e:
        told = (both(p.text("ja"), p.text("en")) for p in e.problems)  # Japanese first, as on the web
        fail(f"{path}: {both('何も取り込みませんでした', 'nothing imported:')}\n" + "\n".join(told), 1)


def create(
    name: Annotated[str, typer.Option("--name", help="The event's name.")],
    head_judge: Annotated[str, typer.Option("--head-judge", help="The head judge's name.")] = "",
    head_judge_level: Annotated[
        int | None,
        number_option("--head-judge-level", help="The head judge's certification level (D15).", lowest=0),
    ] = None,
    date: Annotated[str | None, typer.Option("--date", help="First day, YYYY-MM-DD.")] = None,
    end_date: Annotated[str | None, typer.Option("--end-date", help="Last day, YYYY-MM-DD.")] = None,
    venue: Annotated[str | None, typer.Option("--venue")] = None,
    rel: Annotated[int, number_option("--rel", help="Rules Enforcement Level.")] = 3,
    round_minutes: Annotated[
        int | None, number_option("--round-minutes", help="A round's length in minutes (default 50).")
    ] = None,
    confirm_from: Annotated[
        str | None,
        typer.Option(
            "--confirm-from", help="Lightest penalty that waits for the head judge (default warning1)."
        ),
    ] = None,
    time_zone: Annotated[
        str | None,
        typer.Option("--time-zone", help="The zone every time is shown in (default Asia/Tokyo)."),
    ] = None,
    match_format: FormatOption = None,
    time_out: TimeOutOption = None,
    tiebreakers: TiebreakersOption = None,
    account: AccountOption = None,
    guideline: Annotated[
        Path | None,
        typer.Option(
            "--guideline",
            help="The event's guideline file (default: the shipped one); it is checked and kept.",
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create an event; prints its id. REL 3 needs a head judge certified level 2+ (D15).
    The head judge's seat goes to the account named with --account, or waits for the
    one-time claim code printed here (shown once)."""
    from shinpan.cli.guideline import hold  # start-up
    from shinpan.services import accounts, events  # start-up

    held = hold(guideline) if guideline is not None else None  # a broken file: refused, nothing written
    database = open_db(db)
    with handled():
        holder = _holder(database, account)
        seat = head_judge or (holder.name if holder else "")
        level = head_judge_level if head_judge_level is not None else (holder.level if holder else None)
        event_id = events.create_event(
            database,
            name=name,
            head_judge=seat,
            head_judge_level=level,
            head_judge_account=holder.uid if holder else None,
            starts_on=date,
            ends_on=end_date,
            venue=venue,
            rel=rel,
            confirmation_threshold=confirm_from,
            round_minutes=round_minutes,
            time_zone=time_zone,
            match_format=match_format,
            time_out=time_out,
            tiebreakers=tiebreakers,
            guideline=held,
        )
        code = None if holder else accounts.claim_code(database, event_id, seat.strip())
    if as_json:
        print_json({"event": event_id, "claim_code": code})
        return
    typer.echo(event_id)
    _say_claim(seat, code)


@recording(command_id=False)
def settings(
    event: EventOption,
    match_format: FormatOption = None,
    time_out: TimeOutOption = None,
    tiebreakers: TiebreakersOption = None,
    *,
    acting: Acting,
) -> None:
    """The event's format (T7–T9); with options, the head judge changes it before round 1 is paired."""
    from shinpan.services import formats  # start-up

    database = acting.database()
    with handled():
        if match_format or time_out or tiebreakers:
            chosen = formats.set_format(
                database,
                event,
                match_format=match_format,
                time_out=time_out,
                tiebreakers=tiebreakers,
                actor=acting.judge,
            )
        else:
            with database.read() as conn:
                chosen = formats.read_format(conn, event)
    found = formats.format_json(chosen)
    acting.answer(
        found,
        f"試合形式 {FORMAT_JA.get(found['format'], found['format'])}、"
        f"時間切れのマッチ: {TIME_OUT_JA.get(found['time_out'], found['time_out'])}、"
        f"マッチポイントの次のタイブレーク: {'・'.join(t.upper() for t in found['tiebreakers'])}",
        f"format {found['format']}, a match at time: {found['time_out']}, "
        f"tiebreakers after points: {', '.join(found['tiebreakers'])}",
    )


@recording(command_id=False)
def publish(
    event: EventOption,
    names: Annotated[
        str | None,
        typer.Option("--names", help="What the players' pages show: names (with readings) or handles."),
    ] = None,
    off: Annotated[
        bool, typer.Option("--off", help="Unpublish: the players' address answers nothing.")
    ] = False,
    winner_report: Annotated[
        bool | None,
        typer.Option(
            "--winner-report/--no-winner-report",
            help="Let the winner report the score with the code on the table's slip, "
            "for the scorekeeper to confirm (left out: as it was).",
        ),
    ] = None,
    *,
    acting: Acting,
) -> None:
    """The head judge publishes the event to its players (T12) and prints the players' URL
    (the path under the server's address); --off unpublishes it; --winner-report lets
    winners report their results there (T11)."""
    from shinpan.services import publish as publishing  # start-up

    database = acting.database()
    with handled():
        found = publishing.publish(
            database, event, names=names, off=off, winner_report=winner_report, actor=acting.judge
        )
    if acting.as_json:
        print_json(publishing.publication_json(found))
    elif found.token is None:
        tell(
            "公開していません: プレイヤー向けページには何も表示されません",
            "not published: the players' pages answer nothing",
        )
    else:
        typer.echo(publishing.players_url(found.token))


def list_(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every event in the database."""
    from rich.table import Table  # start-up

    from shinpan.views.events import list_events  # start-up

    database = open_db(db)
    with handled():
        found = list_events(database)
    if as_json:
        print_json([e.__dict__ for e in found])
        return
    table = Table(
        "id",
        heading("大会名", "name"),
        heading("日付", "date"),
        "REL",
        heading("ヘッドジャッジ", "head judge"),
        heading("プレイヤー", "players"),
        heading("裁定", "rulings"),
        heading("ラウンド", "round"),
    )
    for e in found:
        table.add_row(
            str(e.id),
            e.name,
            e.starts_on or "",
            str(e.rel),
            e.head_judge,
            str(e.players),
            str(e.rulings),
            str(e.current_round),
        )
    print_table(table)


@recording(command_id=False)
def seal(
    event: EventOption,
    yes: Annotated[bool, typer.Option("--yes", help="Seal without asking.")] = False,
    *,
    acting: Acting,
) -> None:
    """Seal the event at its end: the installation's signature of the ledger's head,
    appended to the ledger and shown on the reports printed after it."""
    from shinpan.ledger_head import LedgerHead  # start-up
    from shinpan.services import seal as sealing  # start-up

    if not yes and not typer.confirm(
        f"大会 {event} の台帳をいまのヘッドで封印しますか? / Seal event {event}'s ledger at its head now?"
    ):
        raise SystemExit(1)
    database = acting.database()
    with handled():
        done = sealing.seal_event(database, event, actor=acting.judge)
    head = LedgerHead(event, done["position"], done["head"])
    if acting.as_json:
        print_json({**done, "short": head.short, "key_dir": str(sealing.key_dir(database))})
        return
    position = done["position"]
    tell(f"封印しました: 大会 {event}、第{position}項", f"sealed: event {event}, entry {position}")
    tell("  台帳ヘッド", f"head: {head.short}")
    tell("  鍵", f"key: {done['fingerprint']}")


@recording(command_id=False)
def reopen(
    event: EventOption,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the sealed event is reopened (on every later report).")
    ],
    acting: Acting,
) -> None:
    """Reopen a sealed event, with a reason: it takes records again until it is sealed anew
    (the head judge only; the reopening is in the ledger and on every later report)."""
    from shinpan.services import reopen as reopening  # start-up

    database = acting.database()
    with handled():
        done = reopening.reopen_event(database, event, reason, actor=acting.judge)
    if acting.as_json:
        print_json(done)
        return
    tell(
        f"封印を解除しました: 大会 {event}、第{done['seq']}項(第{done['seal']}項の封印)",
        f"reopened: event {event}, entry {done['seq']} (the seal at entry {done['seal']})",
    )
    tell(f"  理由: {done['reason']}", f"reason: {done['reason']}")


@recording(command_id=False)
def judge_add(
    event: EventOption,
    name: Annotated[str, typer.Option("--name")],
    role: Annotated[Role, typer.Option("--role")] = Role.floor_judge,
    level: Annotated[int | None, number_option("--level", help="Certification level.", lowest=0)] = None,
    account: AccountOption = None,
    *,
    acting: Acting,
) -> None:
    """Add a floor judge, scorekeeper or viewer to the event. The seat goes to the account
    named with --account, or waits for the one-time claim code printed here (shown once)."""
    from shinpan.services import accounts, events  # start-up

    database = acting.database()
    with handled():
        holder = _holder(database, account)
        events.add_judge(
            database,
            event,
            name=name,
            level=level,
            role=role,
            actor=acting.judge,
            account=holder.uid if holder else None,
        )
        code = None if holder else accounts.claim_code(database, event, name.strip())
    if acting.as_json:
        print_json({"added": name.strip(), "role": role.value, "claim_code": code})
        return
    tell(f"{name}を{ROLE_JA[role.value]}として加えました", f"added {name} ({role.value})")
    _say_claim(name, code)


@recording()
def players_import(
    file: Annotated[Path, typer.Argument(help="CSV: id, name, reading (kana), club; UTF-8 or Shift_JIS.")],
    event: EventOption,
    acting: Acting,
) -> None:
    """Import players from CSV; nothing is imported when any row is wrong."""
    from shinpan.services import events  # start-up

    rows = _parse("players", file)
    database = acting.database()
    with handled():
        n = events.import_players(database, event, rows, actor=acting.judge, command_id=acting.command_id)
    acting.answer({"imported": n}, f"{n}人の選手を取り込みました", f"imported {n} players")


@recording()
def players_drop(
    event: EventOption,
    player: Annotated[str, typer.Option("--player", help="The player's id.")],
    acting: Acting,
) -> None:
    """A player drops between rounds: never paired again; their results stay."""
    from shinpan.services.swiss import drop_player  # start-up

    database = acting.database()
    with handled():
        done = drop_player(database, event, player, actor=acting.judge, command_id=acting.command_id)
    acting.answer(
        done,
        f"{done['player']}は第{done['round']}回戦の後にドロップしました",
        f"{done['player']} dropped after round {done['round']}",
    )


@recording()
def pairings_import(
    file: Annotated[Path, typer.Argument(help="CSV: table, player a, player b (empty or bye for a bye).")],
    event: EventOption,
    round_no: RoundOption,
    acting: Acting,
) -> None:
    """Pair a round from CSV; ejected, disqualified and withdrawn players are refused (D14)."""
    from shinpan.services import events  # start-up

    rows = _parse("pairings", file)
    database = acting.database()
    with handled():
        n = events.import_pairings(
            database, event, round_no, rows, actor=acting.judge, command_id=acting.command_id
        )
    acting.answer({"paired": n}, f"第{round_no}回戦: {n}マッチ", f"round {round_no}: {n} matches")


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "event",
        "大会を作る・一覧する / Create and list events.",
        create,
        settings,
        publish,
        list_,
        seal,
        reopen,
        words={"list_": "list"},
    )
    command_group(
        app, "judge", "大会のジャッジ / The judges of an event.", judge_add, words={"judge_add": "add"}
    )
    command_group(
        app,
        "players",
        "大会のプレイヤー / The players of an event.",
        players_import,
        players_drop,
        words={"players_import": "import", "players_drop": "drop"},
    )
    command_group(
        app,
        "pairings",
        "ラウンドの対戦組み合わせ / Pairings of a round.",
        pairings_import,
        words={"pairings_import": "import"},
    )
