"""``shinpan playoff start|pair|show`` and ``shinpan placings``: the playoff after the Swiss
(T10). Its rounds take the round numbers after the Swiss; their results go through
``shinpan result`` as any round's."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from shinpan.cli.common import Acting, add_commands, command_group, handled, open_db, recording
from shinpan.cli.options import DbOption, EventOption, JsonOption
from shinpan.cli.output import heading, print_json, print_table, tell


def _show_round(found: Any) -> None:
    tell(f"決勝トーナメント 第{found.round}回戦", f"playoff round {found.round}")
    for p in found.pairings:
        seeds = "–".join(str(s) for s in p["seeds"])
        if p["b"] is None:
            tell(
                f"  {p['a']}(シード {seeds})は不戦で勝ち上がり",
                f"{p['a']} (seed {seeds}) goes on without playing",
            )
        else:
            tell(
                f"  {p['table']}番卓: {p['a']} 対 {p['b']}(シード {seeds})",
                f"table {p['table']}: {p['a']} v {p['b']} (seeds {seeds})",
            )


@recording()
def start(
    event: EventOption,
    size: Annotated[int, typer.Option("--size", help="4, 8, 16 or 32 players.")],
    third_place: Annotated[bool, typer.Option("--third-place", help="Play a third-place match.")] = False,
    *,
    acting: Acting,
) -> None:
    """Start the playoff from the final Swiss standings (the last Swiss round ended, every result in)."""
    from shinpan.services.playoff import start_playoff  # start-up
    from shinpan.services.scoresheet import round_sheet  # start-up

    database = acting.database()
    with handled():
        found = start_playoff(
            database, event, size, third_place=third_place, actor=acting.judge, command_id=acting.command_id
        )
        recommended = round_sheet(database, event, found.round - 1).recommended_rounds
    if acting.as_json:
        print_json(found.as_json())
        return
    played = found.round - 1  # the playoff's first round follows the last Swiss round
    tell(
        f"スイスラウンドは{played}回戦まで行いました(推奨は{recommended}回戦)",
        f"Swiss rounds played: {played} of {recommended} recommended",
    )
    _show_round(found)


@recording()
def pair(
    event: EventOption,
    acting: Acting,
) -> None:
    """Pair the playoff's next round (every match of the current one has its result)."""
    from shinpan.services.playoff import pair_playoff_round  # start-up

    database = acting.database()
    with handled():
        found = pair_playoff_round(database, event, actor=acting.judge, command_id=acting.command_id)
    print_json(found.as_json()) if acting.as_json else _show_round(found)


def show(event: EventOption, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The bracket as it stands."""
    from shinpan.services.playoff import event_bracket  # start-up

    database = open_db(db)
    with handled():
        bracket = event_bracket(database, event)
    if as_json:
        print_json(bracket.as_json() if bracket else None)
        return
    if bracket is None:
        tell("決勝トーナメントはまだ始まっていません", "no playoff has started")
        return
    from shinpan.tournament.playoff import stage_name  # start-up

    size = 2 * len(bracket.rounds[0]) if bracket.rounds else 0
    for i, row in enumerate(bracket.as_json()["rounds"]):
        ja, en = stage_name(size, i)  # T10: 準々決勝, 準決勝, 決勝… from the bracket's size
        tell(f"{ja}(第{row['round']}回戦)", f"{en} (round {row['round']})")
        for m in row["matches"]:
            won = f" — {m['winner']} won" if m["winner"] else ""
            won_ja = f" — {m['winner']}の勝ち" if m["winner"] else ""
            third = " (third place)" if m["third_place"] else ""
            third_ja = "(3位決定戦)" if m["third_place"] else ""
            tell(
                f"  {m['a'] or '—'} 対 {m['b'] or '—'}{third_ja}{won_ja}",
                f"{m['a'] or '—'} v {m['b'] or '—'}{third}{won}",
            )


def placings(event: EventOption, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every player's final place: the playoff's, then the Swiss order (T10)."""
    from shinpan.services.players import registry  # start-up
    from shinpan.services.playoff import final_placings  # start-up

    database = open_db(db)
    with handled():
        found = final_placings(database, event)
        people = {p.number: p for p in registry(database, event).players}
    if as_json:
        print_json({"placings": [{"place": place, "player": player} for place, player in found]})
        return
    from rich.table import Table  # start-up

    table = Table(heading("順位", "place"), heading("プレイヤー", "player"), heading("番号", "id"))
    for place, player in found:
        p = people.get(player)
        shown = (
            f"{p.name}({p.reading})" if p is not None and p.reading else (p.name if p is not None else player)
        )
        table.add_row(str(place), shown, player)
    print_table(table)


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "playoff",
        "スイスラウンド後の決勝トーナメント / The playoff after the Swiss rounds.",
        start,
        pair,
        show,
    )
    add_commands(app, placings)
