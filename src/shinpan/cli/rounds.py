"""``shinpan round pair|start|end|time|edit|clock`` and ``shinpan standings``: running the
Swiss rounds of an event on their clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from shinpan.cli.common import (
    FORMAT_JA,
    RESULT_JA,
    STATUS_JA,
    TIME_OUT_JA,
    Acting,
    add_commands,
    command_group,
    handled,
    open_db,
    recording,
)
from shinpan.cli.options import CommandOption, DbOption, EventOption, JsonOption, JudgeOption, number_option
from shinpan.cli.output import both, fail, heading, print_json, print_table, tell
from shinpan.engine.event_rules import RoundState

if TYPE_CHECKING:
    from shinpan.services.rounds import RoundClock

BYE = heading("不戦勝", "bye")
OptionalRound = Annotated[int | None, number_option("--round", help="The round (default: the current one).")]
OpenTableOption = Annotated[
    list[str] | None,
    typer.Option(
        "--open-table",
        help="結果のないテーブルの扱い: 3=draw(引き分け)、3=both-lose(両者敗北)。"
        "A table without a result, and what it becomes when the round ends.",
    ),
]


def _local(stamp: str | None, zone: str) -> str:
    """A ledger time (UTC) in the event's time zone, to the minute."""
    from shinpan.reports.common import local_time  # start-up

    return local_time(stamp, zone, style="clock") if stamp else "—"


def _show_clock(clock: RoundClock, zone: str) -> None:
    if clock.state is RoundState.none:
        if not clock.round:
            tell("まだ組み合わせがありません", "no round is paired yet")
        else:
            tell(f"第{clock.round}回戦はまだ組まれていません", f"round {clock.round} is not paired")
        return
    words = {
        RoundState.paired: "paired, not started",
        RoundState.started: "started",
        RoundState.ended: "ended",
    }
    words_ja = {
        RoundState.paired: "組み合わせ済み(開始前)",
        RoundState.started: "進行中",
        RoundState.ended: "終了",
    }
    head = f"round {clock.round}: {words.get(clock.state, clock.state)}"
    head_ja = f"第{clock.round}回戦: {words_ja.get(clock.state, clock.state)}"
    if clock.started_at:
        began, ends = _local(clock.started_at, zone), _local(clock.ends_at, zone)
        head += f", started {began}, {clock.minutes} min, time ends {ends}"
        head_ja += f"、{began}に開始、{clock.minutes}分、{ends}に時間終了"
    tell(head_ja, head)
    from rich.table import Table  # start-up

    table = Table(
        heading("卓", "table"),
        heading("A席", "a"),
        heading("B席", "b"),
        heading("結果", "result"),
        heading("時間終了", "ends"),
        heading("延長", "time given"),
        heading("追加ターン", "extra turns"),
        heading("終わったとき", "due when it ends"),
    )
    for t in clock.tables:
        given = "; ".join(f"+{g.minutes} min: {g.reason}" for g in t.time_given)
        turns = ", ".join(f"ruling #{x.ruling} ({x.player})" for x in t.extra_turns)
        due = "\n".join(f"#{d.ruling} {d.player}: {heading(d.remedy_ja, d.remedy_en)}" for d in t.due_at_end)
        table.add_row(
            str(t.table),
            t.player_a,
            t.player_b or BYE,
            heading(RESULT_JA.get(t.result or "playing", ""), t.result or "playing") if t.player_b else BYE,
            _local(t.ends_at, zone),
            given,
            turns,
            due,
        )
    print_table(table)
    for d in clock.due_at_round_end:
        tell(
            f"ラウンド終了時: 裁定 #{d.ruling} {d.player}: {d.remedy_ja}",
            f"due at the end of the round: #{d.ruling} {d.player}: {d.remedy_en}",
        )


def _standings_title(number: int | None, state: RoundState, now: bool = False) -> str:
    """What the standings are after, as T5 and T6 tell it (never "round 0"); the standings
    now (no round asked) are titled 現在の順位, never "after round N"."""
    if number is None:
        return both("まだ終わったラウンドがありません", "no round has been played yet")
    if now and state is RoundState.started:
        return both(
            f"現在の順位(第{number}回戦は進行中: ここまでの暫定)",
            f"the standings now (round {number} is being played: not final)",
        )
    if now:
        return both("現在の順位", "the standings now")
    if state is RoundState.started:
        return both(
            f"第{number}回戦(進行中): ここまでの暫定順位",
            f"round {number} (started, not ended): the standings so far",
        )
    if state is RoundState.paired:
        return both(
            f"第{number}回戦(組み合わせ済み、開始前): まだ対戦がありません",
            f"round {number} (paired, not started): nothing of it is played yet",
        )
    return both(f"第{number}回戦終了時点", f"after round {number}")


def _table_change(spec: str) -> Any:
    """``T=A,B`` (or ``T=A`` for a bye) as a table change."""
    from shinpan.services.swiss import TableChange  # start-up

    table, _, seats = spec.partition("=")
    a, _, b = seats.partition(",")
    if not (table.strip().isascii() and table.strip().isdigit()) or not a.strip():
        fail(
            both(
                f"{spec!r}: 卓は 卓番号=A,B と書いてください(不戦勝は 卓番号=A)",
                f"{spec!r}: write a table as TABLE=A,B (or TABLE=A for a bye)",
            ),
            2,
        )
    return TableChange(int(table), a.strip(), b.strip() or None)


@recording()
def pair(
    event: EventOption,
    seed: Annotated[
        int | None,
        number_option("--seed", help="The pairing's seed (default: chosen and recorded).", lowest=0),
    ] = None,
    *,
    acting: Acting,
) -> None:
    """Pair the next Swiss round and record it with its seed (only players still in the
    event; a round's matches must all have results and the round must have ended)."""
    from shinpan.services import swiss  # start-up

    database = acting.database()
    with handled():
        made = swiss.pair_next_round(
            database, event, seed=seed, actor=acting.judge, command_id=acting.command_id
        )
        advice = swiss.recommended(database, event)
    if acting.as_json:
        print_json(made.as_json())
        return
    tell(
        f"第{made.round}回戦の組み合わせを作りました(開始前。シード {made.seed}、推奨ラウンド数 {advice})",
        f"round {made.round} paired, not started (seed {made.seed}; {advice} rounds recommended)",
    )
    from rich.table import Table  # start-up

    table = Table(heading("卓", "table"), heading("A席", "a"), heading("B席", "b"))
    for p in made.pairings:
        table.add_row(str(p["table"] or "—"), p["a"], p["b"] or BYE)
    print_table(table)


@recording()
def start(
    event: EventOption,
    minutes: Annotated[
        int | None, number_option("--minutes", help="The round's length (default: the event's, 50).")
    ] = None,
    *,
    acting: Acting,
) -> None:
    """Start the clock of the round paired last."""
    from shinpan.services.queries import time_zone_of  # start-up
    from shinpan.services.rounds import start_round  # start-up

    database = acting.database()
    with handled():
        started = start_round(
            database, event, minutes=minutes, actor=acting.judge, command_id=acting.command_id
        )
        zone = time_zone_of(database, event)
    if acting.as_json:
        print_json(started)
        return
    ends = _local(started["ends_at"], zone)
    tell(
        f"第{started['round']}回戦を開始しました: {started['minutes']}分、終了 {ends}",
        f"round {started['round']} started: {started['minutes']} min, time ends {ends}",
    )


def end(
    event: EventOption,
    round_no: OptionalRound = None,
    judge: JudgeOption = None,
    command_id: CommandOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
    open_table: OpenTableOption = None,
) -> None:
    """ラウンドを終了します。結果のないテーブルは先に報告するか、--open-table 3=draw
    (引き分け)/ 3=both-lose(両者敗北)で決めます。End the current round (or --round N):
    each table without a result is reported first, or given its outcome with --open-table."""
    from shinpan.services import events, queries, rounds  # start-up
    from shinpan.tournament.rounds import parse_open_table  # start-up

    database = open_db(db)
    with handled():
        chosen = dict(parse_open_table(t) for t in open_table or [])
        number = events.end_round(
            database, event, round_no, actor=judge, command_id=command_id, open_tables=chosen
        )
        clock = rounds.round_clock(database, event, number)
        zone = queries.time_zone_of(database, event)
    if as_json:
        print_json({"round": number, "still_playing": [t.as_json() for t in clock.still_playing]})
        return
    tell(f"第{number}回戦を終了しました", f"round {number} ended")
    for table, chosen_as in sorted(chosen.items()):
        ja, en = ("両者敗北", "a loss for both") if chosen_as.value == "both_lose" else ("引き分け", "a draw")
        tell(
            f"  {table}番卓: {ja}(ラウンド終了時に決定)", f"table {table}: {en} (decided as the round ended)"
        )
    for t in clock.still_playing:
        ends = _local(t.ends_at, zone)
        due = "; ".join(f"#{d.ruling} {d.player}: {d.remedy_en}" for d in t.due_at_end)
        due_ja = "、".join(f"裁定 #{d.ruling} {d.player}: {d.remedy_ja}" for d in t.due_at_end)
        tell(
            f"  {t.table}番卓はまだ対戦中({ends}に時間終了)" + (f"。終わったとき: {due_ja}" if due else ""),
            f"table {t.table} still playing (time ends {ends})"
            + (f"; due when it ends: {due}" if due else ""),
        )


@recording(as_json=False)
def give_time(
    event: EventOption,
    table: Annotated[int, number_option("--table")],
    minutes: Annotated[int, number_option("--minutes", help="Minutes the table gets.")],
    reason: Annotated[str, typer.Option("--reason", help="Why: a judge call, a deck check…")],
    round_no: OptionalRound = None,
    *,
    acting: Acting,
) -> None:
    """A judge gives one table more time, with the reason."""
    from shinpan.services.rounds import give_time as give  # start-up

    database = acting.database()
    with handled():
        give(
            database,
            event,
            table,
            minutes,
            reason,
            round_no=round_no,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    tell(f"{table}番卓: {minutes}分延長しました", f"table {table}: +{minutes} min")


@recording()
def edit(
    event: EventOption,
    tables: Annotated[list[str], typer.Argument(help="TABLE=A,B for each table (TABLE=A: a bye).")],
    reason: Annotated[str, typer.Option("--reason", help="Why the pairing changes.")],
    acting: Acting,
) -> None:
    """The head judge pairs tables of the current round again before it starts."""
    from shinpan.services.swiss import edit_pairings  # start-up

    changes = [_table_change(spec) for spec in tables]
    database = acting.database()
    with handled():
        done = edit_pairings(
            database, event, changes, reason, actor=acting.judge, command_id=acting.command_id
        )
    if acting.as_json:
        print_json({"pairings": done})
        return
    for p in done:
        tell(
            f"{p['table']}番卓: {p['a']} – {p['b'] or '不戦勝'}",
            f"table {p['table']}: {p['a']} – {p['b'] or 'bye'}",
        )


def clock(
    event: EventOption, round_no: OptionalRound = None, db: DbOption = None, as_json: JsonOption = False
) -> None:
    """The round's clock: each table's end time, the time given to it, what falls due."""
    from shinpan.services.queries import time_zone_of  # start-up
    from shinpan.services.rounds import round_clock  # start-up

    database = open_db(db)
    with handled():
        found = round_clock(database, event, round_no)
        zone = time_zone_of(database, event)
    print_json(found.as_json()) if as_json else _show_clock(found, zone)


def standings(
    event: EventOption, round_no: OptionalRound = None, db: DbOption = None, as_json: JsonOption = False
) -> None:
    """The standings now (every status as it stands now), or after a round, with each player's status."""
    from shinpan.views.standings import chain_cells, event_standings  # start-up

    database = open_db(db)
    with handled():
        table = event_standings(database, event, round_no)
    if as_json:
        print_json(table.as_json())
        return
    from rich.table import Table  # start-up

    chain = [key.value for key in table.format.chain]
    keys = chain  # the event's tiebreakers, in the chain's order (T9)
    out = Table(
        heading("順位", "rank"),
        heading("プレイヤー", "player"),
        heading("勝ち点", "points"),
        heading("勝-敗-分", "W-L-D"),
        *(heading("シード順", "seeded") if key == "seeded" else key.upper() for key in keys),
        heading("状態", "status"),
        title=_standings_title(table.round, table.state, table.now),
        caption=both(
            f"{FORMAT_JA[table.format.match_format.value]}、時間切れ: {TIME_OUT_JA[table.format.at_time.value]}。"
            f"マッチポイント、{'・'.join('シード順' if key == 'seeded' else key.upper() for key in chain)}の順",
            f"{table.format.match_format.value}, at time: {table.format.at_time.value}; "
            f"ranked by points, {', '.join(chain)}",
        ),
    )
    for s in table.rows:
        shown = [value for _, value in chain_cells(s, table.format)]
        out.add_row(
            str(s.rank or "—"),
            s.player,
            str(s.points),
            f"{s.wins}-{s.losses}-{s.draws}",
            *shown,
            heading(STATUS_JA[s.status.value], s.status.value),
        )
    print_table(out)


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "round",
        "ラウンド: 組み合わせ、開始、終了、卓の延長時間 / Rounds: pair, start and end them; give a table time.",
        pair,
        start,
        end,
        give_time,
        edit,
        clock,
        words={"give_time": "time"},
    )
    add_commands(app, standings)
