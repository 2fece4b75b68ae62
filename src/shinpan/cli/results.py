"""``shinpan result``: a table's result as the slip says it, and its corrections (T11).

shinpan result --event E --round N --table T (--duel K (--winner P | --draw) |
    --match a|b|draw | --score A-B[-D] [--time]) [--replaces WHAT_STANDS --reason TEXT]
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from shinpan.cli.common import RESULT_JA, Acting, handled, recording
from shinpan.cli.options import (
    EventOption,
    RoundOption,
    number_option,
)
from shinpan.cli.output import both, fail, print_json, tell


def _wanted(
    duel: int | None,
    winner: str | None,
    draw: bool,
    match: str | None,
    score: str | None,
    at_time: bool,
    replaces: str | None,
    reason: str | None,
) -> Any:
    from shinpan.services.results import Wanted  # start-up

    if sum(x is not None for x in (duel, match, score)) != 1:
        fail(
            both(
                "--duel K (--winner P | --draw)、--match a|b|draw、--score A-B[-D] [--time] のどれか一つを指定してください",
                "give one of: --duel K (--winner P | --draw), --match a|b|draw, --score A-B[-D] [--time]",
            ),
            2,
        )
    if duel is not None and (winner is None) == (not draw):
        fail(
            both(
                "--duel K には --winner P か --draw を付けてください", "--duel K takes --winner P or --draw"
            ),
            2,
        )
    if duel is None and (winner is not None or draw):
        fail(
            both("--winner と --draw は --duel K と一緒に使います", "--winner and --draw go with --duel K"), 2
        )
    if match is not None and match not in ("a", "b", "draw"):
        fail(both("--match は a、b、draw のどれかです", "--match is a, b or draw"), 2)
    if at_time and score is None:
        fail(
            both(
                "--time は --score と一緒に使います(時間切れの時点のデュエル数)",
                "--time goes with --score (the duels as they stood when time ran out)",
            ),
            2,
        )
    if replaces is not None and not (reason or "").strip():
        fail(
            both(
                "訂正には理由が要ります: --replaces 今の結果 --reason 理由",
                "a correction says why: --replaces WHAT_STANDS --reason TEXT",
            ),
            2,
        )
    entry = None
    given = (replaces or "").strip().lstrip("#")
    if given.isascii() and given.isdigit():  # the ledger entry it corrects
        entry, replaces = int(given), None
    return Wanted(
        duel=duel,
        winner=winner,
        draw=draw,
        match=match,
        score=score,
        at_time=at_time,
        replaces=replaces,
        replaces_entry=entry,
        reason=reason,
    )


@recording()
def result(
    event: EventOption,
    round_no: RoundOption,
    table: Annotated[int, number_option("--table")],
    duel: Annotated[
        int | None, number_option("--duel", help="Report one duel (with --winner or --draw).")
    ] = None,
    winner: Annotated[str | None, typer.Option("--winner", help="The duel's winner (player id).")] = None,
    draw: Annotated[bool, typer.Option("--draw", help="The duel was drawn.")] = False,
    match: Annotated[
        str | None, typer.Option("--match", help="The match result without duels: a, b or draw.")
    ] = None,
    score: Annotated[
        str | None, typer.Option("--score", help="Duels won by seat a, by seat b (and drawn): 2-1, 1-1-1.")
    ] = None,
    at_time: Annotated[
        bool, typer.Option("--time", help="The match ran out of time with that score.")
    ] = False,
    replaces: Annotated[
        str | None,
        typer.Option(
            "--replaces", help="The result that stands, as shown (a, b, draw, 2-1), or its ledger entry."
        ),
    ] = None,
    reason: Annotated[str | None, typer.Option("--reason", help="Why the result is corrected.")] = None,
    *,
    acting: Acting,
) -> None:
    """Report a table's result: a duel, the slip's score, or the match without duels; a
    correction names the result it replaces and why (T11)."""
    wanted = _wanted(duel, winner, draw, match, score, at_time, replaces, reason)
    database = acting.database()
    from shinpan.services.results import report_result  # start-up

    with handled():  # T11's refusal too, on one line, in Japanese first
        done = report_result(
            database, event, round_no, table, wanted, actor=acting.judge, command_id=acting.command_id
        )
    if acting.as_json:
        print_json(done)
        return
    shown = done["shown"] or "playing"
    shown_ja = RESULT_JA.get(shown, shown)
    if done["correction"]:
        what_ja, what = (
            f"訂正しました(第{done['corrects']}項の記録を置き換え)",
            f"corrected (replaces entry {done['corrects']})",
        )
    else:
        what_ja, what = "記録しました", "recorded"
    tell(
        f"{what_ja}: 第{round_no}回戦、{table}番卓: {shown_ja}",
        f"{what}: round {round_no}, table {table}: {shown}",
    )


def register(app: typer.Typer) -> None:
    app.command("result")(result)
