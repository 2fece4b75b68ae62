"""``shinpan call raise|claim|escalate|resolve|list``: judge calls (T14) from a terminal.

``--json`` shapes are a contract: raising, claiming and escalating print
``{"call": 12, "round": 3, "table": 7, "state": "open"}``; resolving adds the outcome, the
rulings it cites and the minutes proposed and given; ``list`` prints ``{"calls": [...]}``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from shinpan.cli.common import Acting, command_group, handled, open_db, recording
from shinpan.cli.options import (
    DbOption,
    EventOption,
    JsonOption,
    number_argument,
    number_option,
)
from shinpan.cli.output import both, fail, heading, print_json, print_table, tell

if TYPE_CHECKING:
    from shinpan.services.calls import CallJson

CallArgument = Annotated[int, number_argument("The call's number (see `shinpan call list`).")]

STATE_JA = {"open": "未対応", "claimed": "対応中", "escalated": "ヘッドジャッジ", "resolved": "解決済み"}
REASON_JA = {"rules": "ルールの質問", "dispute": "相手とのもめごと", "time": "時間", "other": "その他"}
OUTCOME_JA = {"none": "裁定なし", "ruling": "裁定", "appeal": "上訴"}


class Reason(StrEnum):
    rules = "rules"
    dispute = "dispute"
    time = "time"
    other = "other"


def _said(acting: Acting, done: CallJson, ja: str, en: str) -> None:
    acting.answer(
        done,
        f"コール{done['call']}({done['table']}番卓): {ja}",
        f"call {done['call']} (table {done['table']}): {en}",
    )


@recording()
def raise_call(
    event: EventOption,
    table: Annotated[int, number_option("--table", help="The table that calls.")],
    reason: Annotated[Reason | None, typer.Option("--reason", help="Why the table calls.")] = None,
    *,
    acting: Acting,
) -> None:
    """Raise a judge call for a table of the round being played."""
    from shinpan.services import calls  # start-up

    database = acting.database()
    with handled():
        done = calls.raise_call(
            database,
            event,
            table,
            reason.value if reason else None,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    _said(acting, done, "ジャッジを呼びました", "a judge is called")


def _taking_up(step: str, ja: str, en: str, doc: str) -> Callable[..., None]:
    """``claim`` and ``escalate``: the same command, into the service's step of that name."""

    def take_up(call: CallArgument, event: EventOption, acting: Acting) -> None:
        from shinpan.services import calls  # start-up

        service = {"claim": calls.claim_call, "escalate": calls.escalate_call}[step]
        database = acting.database()
        with handled():
            done = service(database, event, call, judge=acting.judge, command_id=acting.command_id)
        _said(acting, done, ja, en)

    take_up.__name__ = step
    take_up.__doc__ = doc
    return recording()(take_up)


claim = _taking_up(
    "claim",
    "対応を引き受けました",
    "claimed",
    "Take a call: the other judges see it taken, the table sees who is coming.",
)
escalate = _taking_up(
    "escalate", "ヘッドジャッジに渡しました", "escalated to the head judge", "Hand a call to the head judge."
)


def _rulings(text: str | None) -> list[int]:
    if text is None:
        return []
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        numbers = []  # refused below, with the same words
    if not numbers or any(n < 1 for n in numbers):
        fail(
            both(
                "--ruling は裁定の番号をカンマで区切って書きます (例: 4,5)",
                "--ruling takes ruling numbers: 4,5",
            ),
            2,
        )
    return numbers


@recording()
def resolve(
    call: CallArgument,
    event: EventOption,
    none: Annotated[bool, typer.Option("--none", help="No ruling was needed.")] = False,
    ruling: Annotated[
        str | None, typer.Option("--ruling", help="The rulings recorded from the call: N[,N].")
    ] = None,
    appeal: Annotated[bool, typer.Option("--appeal", help="Appealed to the head judge.")] = False,
    extend: Annotated[
        int | None,
        typer.Option("--extend", min=0, help="Minutes the table gets, when not the proposed ones."),
    ] = None,
    reason: Annotated[str | None, typer.Option("--reason", help="Why other minutes than proposed.")] = None,
    *,
    acting: Acting,
) -> None:
    """Resolve a call: the table gets the proposed minutes back (T14), or --extend M --reason."""
    if (none, ruling is not None, appeal).count(True) != 1:
        fail(
            both(
                "--none、--ruling N、--appeal のどれか一つを付けてください",
                "give one of --none, --ruling N, --appeal",
            ),
            2,
        )
    from shinpan.services import calls  # start-up

    outcome = "none" if none else "ruling" if ruling is not None else "appeal"
    resolution = calls.Resolution(outcome, _rulings(ruling), extend, reason)
    database = acting.database()
    with handled():
        done = calls.resolve_call(
            database, event, call, resolution, judge=acting.judge, command_id=acting.command_id
        )
    acting.answer(
        done,
        f"コール{done['call']}を解決しました({OUTCOME_JA[done['outcome']]})。"
        f"{done['table']}番卓に{done['minutes']}分延長(提案{done['proposed']}分)",
        f"call {done['call']} resolved ({done['outcome']}); table {done['table']} +{done['minutes']} min "
        f"(proposed {done['proposed']})",
    )


def list_calls(
    event: EventOption,
    only_open: Annotated[
        bool, typer.Option("--open", help="Only calls not resolved, longest waiting first.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The event's judge calls: where, how long the table waited, who took it, how it ended."""
    from shinpan.services import calls  # start-up

    database = open_db(db)
    with handled():
        listed = calls.list_calls(database, event, open_only=only_open)
    if as_json:
        print_json(listed)
        return
    if not listed["calls"]:
        tell("コールはありません", "no calls")
        return
    from rich.table import Table  # start-up

    out = Table(
        heading("番号", "call"),
        heading("回戦", "round"),
        heading("テーブル", "table"),
        heading("状態", "state"),
        heading("理由", "reason"),
        heading("待ち時間", "waited"),
        heading("ジャッジ", "judge"),
        heading("裁定", "rulings"),
    )
    for c in listed["calls"]:
        waited = f"{c['waited_s'] // 60}:{c['waited_s'] % 60:02d}" + (" !" if c["over"] else "")
        out.add_row(
            str(c["call"]),
            str(c["round"]),
            str(c["table"]),
            heading(STATE_JA[c["state"]], c["state"]),
            heading(REASON_JA[c["reason"]], c["reason"]) if c["reason"] else "—",
            waited,
            c["judge"] or "—",
            ", ".join(map(str, c["rulings"])) or "—",
        )
    print_table(out)


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "call",
        "ジャッジコール: 呼ぶ、受ける、上げる、解決する、一覧 / Judge calls (T14): raise, claim, escalate, resolve, list.",
        raise_call,
        claim,
        escalate,
        resolve,
        list_calls,
        words={"raise_call": "raise", "list_calls": "list"},
    )
