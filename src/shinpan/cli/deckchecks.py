"""``shinpan deckcheck pick|start|count|end|corrected``: deck checks (T13)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from shinpan.cli.common import Acting, command_group, handled, name_value, open_db, recording
from shinpan.cli.decks import FileArgument, FormatOption, PlayerOption, TableOption, player_id, read_list
from shinpan.cli.options import DbOption, EventOption, JsonOption, RoundOption
from shinpan.cli.output import print_json, tell

if TYPE_CHECKING:
    from shinpan.services.deck_shapes import CountedJson, FindingJson


def pick(
    event: EventOption,
    round_no: RoundOption,
    tables: Annotated[int, typer.Option("--tables", min=1, max=100, help="How many tables.")] = 2,
    top: Annotated[bool, typer.Option("--top", help="Weighted to the top tables.")] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Draw from this seed (default: the round's).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Tables to check, at random, leaving out players checked already."""
    from shinpan.services.deckchecks import pick as picked  # start-up

    database = open_db(db)
    with handled():
        out = picked(database, event, round_no, tables=tables, top=top, seed=seed)
    if as_json:
        print_json(out)
        return
    shown = "、".join(f"{t}番卓" for t in out["tables"]) or "なし"
    tell(f"第{round_no}回戦のデッキチェック: {shown}", f"round {round_no}: check tables {out['tables']}")


@recording()
def start(event: EventOption, round_no: RoundOption, table: TableOption, acting: Acting) -> None:
    """Start a deck check of one table."""
    from shinpan.services.deckchecks import start as started  # start-up

    database = acting.database()
    with handled():
        out = started(database, event, round_no, table, judge=acting.judge, command_id=acting.command_id)
    acting.answer(
        out,
        f"デッキチェック {out['check']}: 第{round_no}回戦 {table}番卓（{'、'.join(out['players'])}）を開始しました",
        f"deck check {out['check']}: round {round_no} table {table} started",
    )


@recording()
def count(
    event: EventOption,
    round_no: RoundOption,
    table: TableOption,
    player: PlayerOption,
    file: FileArgument,
    fmt: FormatOption = None,
    *,
    acting: Acting,
) -> None:
    """The cards found in a player's deck, as a list; the differences from the registered list."""
    from shinpan.services.deckchecks import count as counted  # start-up

    deck, _ = read_list(file, fmt)
    database = acting.database()
    with handled():
        out = counted(
            database,
            event,
            round_no,
            table,
            player_id(player),
            deck,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    if acting.as_json:
        print_json(out)
        return
    _differences(out)


def _differences(p: CountedJson | FindingJson) -> None:
    for m in p["missing"]:
        tell(f"  不足: {m['name']} ×{m['count']}", f"  missing: {m['name']} x{m['count']}")
    for x in p["extra"]:
        tell(f"  余分: {x['name']} ×{x['count']}", f"  extra: {x['name']} x{x['count']}")
    for f in p["foreign"]:
        tell(
            f"  他者のカード: {f['name']} ×{f['count']}（{f['from']}）",
            f"  foreign: {f['name']} x{f['count']} from {f['from']}",
        )
    if p["matches"]:
        tell("  デッキリストと一致しています", "  matches the list")


@recording()
def end(
    event: EventOption,
    round_no: RoundOption,
    table: TableOption,
    recorded_by: Annotated[
        list[str] | None,
        typer.Option("--recorded-by", help="PLAYER=WRITER: who wrote the player's list wrongly."),
    ] = None,
    extend: Annotated[
        bool, typer.Option("--extend", help="Give the table the check's minutes (T5).")
    ] = False,
    *,
    acting: Acting,
) -> None:
    """End the check: the findings, T13's proposals, the minutes it took (given with --extend)."""
    from shinpan.services.deckchecks import end as ended  # start-up

    writers: dict[str, str] = {}
    for spec in recorded_by or []:
        player, writer = name_value(
            spec,
            f"--recorded-by は PLAYER=WRITER の形で書いてください（{spec}）",
            f"--recorded-by is PLAYER=WRITER ({spec!r})",
        )
        writers[player_id(player)] = player_id(writer)
    database = acting.database()
    with handled():
        out = ended(
            database,
            event,
            round_no,
            table,
            recorded_by=writers,
            extend=extend,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    if acting.as_json:
        print_json(out)
        return
    given = "（延長を与えました）" if out["extended"] else ""
    tell(
        f"デッキチェック終了: {out['minutes']}分{given}",
        f"deck check ended: {out['minutes']} min" + (" (given)" if out["extended"] else ""),
    )
    for p in out["players"]:
        tell(
            f"{p['player']}: 提案 {p['proposed'] or 'なし'}",
            f"{p['player']}: proposed {p['proposed'] or 'nothing'}",
        )
        _differences(p)
        for x in p["proposals"][1:] if p["proposed"] else p["proposals"]:
            tell(
                f"  あわせて: {x['infraction']}（{x['player']}）",
                f"  also: {x['infraction']} ({x['player']})",
            )


@recording()
def corrected(
    event: EventOption, round_no: RoundOption, table: TableOption, player: PlayerOption, acting: Acting
) -> None:
    """A judge marks a player's deck corrected to match the list (the mismatch's remedy done)."""
    from shinpan.services.deckchecks import deck_corrected  # start-up

    database = acting.database()
    with handled():
        out = deck_corrected(
            database,
            event,
            round_no,
            table,
            player_id(player),
            judge=acting.judge,
            command_id=acting.command_id,
        )
    acting.answer(
        out, f"{out['player']}のデッキを訂正済みにしました", f"deck of {out['player']} marked corrected"
    )


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "deckcheck",
        "デッキチェック: 卓を選び、始め、数え、終える / Deck checks: pick tables, start, count, end (T13).",
        pick,
        start,
        count,
        end,
        corrected,
    )
