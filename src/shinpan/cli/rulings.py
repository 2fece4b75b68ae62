"""``shinpan record|confirm|void|deviate|history|deadlines``: the judges' commands."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shinpan.cli.common import STATUS_JA, Acting, add_commands, handled, open_db, recording
from shinpan.cli.guideline import Lang, LangOption
from shinpan.cli.options import (
    DB_INT_MAX,
    CommandOption,
    DbOption,
    EventOption,
    JsonOption,
    JudgeOption,
    number_argument,
    number_option,
)
from shinpan.cli.output import both, fail, heading, print_json, print_table, say, tell

if TYPE_CHECKING:  # the guideline and the engine load inside the commands that use them
    from shinpan.guideline import Rulebook
    from shinpan.store.db import Database


def parse_fact(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``; true/false become booleans."""
    if "=" not in text:
        fail(
            both(
                f"--fact {text!r}: 項目=値 と書いてください(例: --fact intentional=true)",
                f"--fact {text!r}: write KEY=VALUE, e.g. --fact intentional=true",
            ),
            1,
        )
    key, value = text.split("=", 1)
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "はい"):
        return key.strip(), True
    if lowered in ("false", "no", "いいえ"):
        return key.strip(), False
    return key.strip(), value.strip()


def _show_preview(book: Rulebook, rulings: list[Any], lang: str) -> None:
    from shinpan.engine import explain  # start-up
    from shinpan.engine.explain import deadline_text, penalty_text  # start-up

    if not rulings:
        tell("裁定はありません", "no ruling")
        return
    for r in rulings:
        en = lang == "en"
        offense = f"{r.offense}" if r.offense is not None else "—"
        say(
            f"[bold]{r.player}[/]  {book.rule_name(r.rule, lang)} ({r.rule})  "
            + (f"offence {offense}: " if en else f"{offense}回目: ")
            + f"[bold red]{penalty_text(book, r.penalties, lang)}[/]"
        )
        say("  " + explain(book, r, lang), markup=False, highlight=False)
        for d in r.dues:
            what = d.remedy_en if en else d.remedy
            word = "deadline" if en else "期限"  # the glyph alone is lost where a font lacks it
            say(f"  ⏱ {word} {deadline_text(d, lang)}: {what}", markup=False)
        if r.needs_head_judge:
            say("  waits for the head judge's confirmation (D11)" if en else "  ヘッドジャッジの承認待ち")


def event_rulebook(database: Database, event_id: int) -> Rulebook:
    """The guideline the event runs under, as its rulings name rules and penalties."""
    from shinpan.services.context import load_event  # start-up

    with handled(), database.read() as conn:
        return load_event(conn, event_id).book
    raise AssertionError("unreachable")


def record(
    infraction: Annotated[str, typer.Argument(help="The infraction's id (see `shinpan rules`).")],
    event: EventOption,
    player: Annotated[str, typer.Option("--player", help="The player's id in the event.")],
    fact: Annotated[
        list[str] | None, typer.Option("--fact", help="KEY=VALUE, e.g. intentional=true.")
    ] = None,
    draft: Annotated[str | None, typer.Option("--draft", help="Which draft (draft infractions).")] = None,
    penalty: Annotated[
        list[str] | None,
        typer.Option(
            "--penalty", help="A violation outside every category (D4): the penalty the judge chose."
        ),
    ] = None,
    round_no: Annotated[int | None, number_option("--round")] = None,
    table: Annotated[int | None, number_option("--table")] = None,
    note: Annotated[str, typer.Option("--note")] = "",
    call: Annotated[
        int | None, number_option("--call", help="The judge call the ruling is recorded from (T14).")
    ] = None,
    given_at: Annotated[
        str | None,
        typer.Option(
            "--given-at",
            help="When the ruling was given at the table, ISO 8601 with offset (default: now; D21).",
        ),
    ] = None,
    deck_check: Annotated[
        int | None,
        number_option("--deck-check", help="The deck check the ruling comes from (its number; T13)."),
    ] = None,
    judge: JudgeOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Save without asking.")] = False,
    command_id: CommandOption = None,
    lang: LangOption = Lang.ja,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Record an infraction: shows the ruling, asks, saves (one transaction; retry-safe)."""
    from shinpan.services import recording  # start-up
    from shinpan.services.commands import new_command_id  # start-up

    facts = dict(parse_fact(f) for f in fact or [])
    inp = recording.RecordInput(
        player=player,
        infraction=infraction,
        facts=facts,
        draft=draft,
        penalties=tuple(penalty) if penalty else None,
        round=round_no,
        table=table,
        note=note,
        given_at=given_at,
        call=call,
        deck_check=deck_check,
    )
    database = open_db(db)
    command_id = command_id or new_command_id()
    if not yes:
        with handled():
            rulings = recording.preview(database, event, inp, judge=judge)
        _show_preview(event_rulebook(database, event), rulings, lang.value)
        if not sys.stdin.isatty():
            fail(
                both(
                    "記録していません: 確認なしで記録するには --yes を付けてください",
                    "not saved: add --yes to save without a question",
                ),
                1,
            )
        if not typer.confirm("Save this ruling?" if lang is Lang.en else "この裁定を記録しますか?"):
            fail(both("記録していません", "not saved"), 1)
    with handled():
        saved = recording.record(database, event, inp, judge=judge, command_id=command_id)
    if as_json:
        print_json(saved.as_json())
        return
    numbers = ", ".join(f"#{r['number']}" for r in saved.rulings)
    again = " (already recorded earlier with this command id)" if saved.replayed else ""
    again_ja = "(同じ操作ですでに記録済みでした)" if saved.replayed else ""
    tell(f"記録しました: 裁定 {numbers}{again_ja}", f"saved: ruling {numbers}{again}")
    for w in saved.as_json()["left"]:  # D14, D22: said before the rulings, Japanese first
        tell(
            f"注意: 裁定 #{w['ruling']} {w['player']}: {w['ja']}",
            f"warning: ruling #{w['ruling']} {w['player']}: {w['en']}",
        )
    for r in saved.rulings:
        text = r["explanation_en"] if lang is Lang.en else r["explanation_ja"]
        say(f"  #{r['number']} {r['player']}: {text}", markup=False, highlight=False)


@recording()
def confirm(
    rulings: Annotated[list[int], number_argument("Ruling numbers.")],
    event: EventOption,
    acting: Acting,
) -> None:
    """The head judge confirms rulings waiting for it (D11)."""
    from shinpan.services import corrections  # start-up

    database = acting.database()
    with handled():
        done = corrections.confirm(database, event, rulings, judge=acting.judge, command_id=acting.command_id)
    acting.answer(
        {"confirmed": done},
        f"裁定 {'、'.join(map(str, done))} を承認しました",
        f"confirmed {', '.join(map(str, done))}",
    )


@recording()
def void(
    ruling: Annotated[int, number_argument("A ruling number; its whole record is voided.")],
    event: EventOption,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the ledger).")],
    acting: Acting,
) -> None:
    """Void a ruling's record; what it did to matches and statuses is reversed (D1)."""
    from shinpan.services import corrections, queries  # start-up

    database = acting.database()
    with handled():
        before = queries.rederived_by(database, event, ruling)
        done = corrections.void(
            database, event, ruling, reason, judge=acting.judge, command_id=acting.command_id
        )
    if acting.as_json:
        print_json({"voided": done})
        return
    tell(f"裁定 {'、'.join(map(str, done))} を取り消しました", f"voided {', '.join(map(str, done))}")
    _tell_rederived(database, event, event_rulebook(database, event), ruling, before)


@recording()
def deviate(
    ruling: Annotated[int, number_argument("A ruling number.")],
    event: EventOption,
    reason: Annotated[str, typer.Option("--reason", help="The written reason (required, D11).")],
    penalty: Annotated[
        list[str] | None, typer.Option("--penalty", help="Component codes; none for no penalty.")
    ] = None,
    *,
    acting: Acting,
) -> None:
    """The head judge deviates from the guideline for one ruling (D11, D12)."""
    from shinpan.services import corrections, queries  # start-up

    database = acting.database()
    with handled():
        before = queries.rederived_by(database, event, ruling)
        body = corrections.deviate(
            database, event, ruling, penalty or [], reason, judge=acting.judge, command_id=acting.command_id
        )
    if acting.as_json:
        print_json(body)
        return
    from shinpan.engine.explain import penalty_text  # start-up

    book = event_rulebook(database, event)
    given = penalty_text(book, tuple(body["penalties"]), "ja")
    tell(
        f"裁定 {ruling}: {given}",
        f"ruling {ruling}: {', '.join(body['penalties']) or 'no penalty'}",
    )
    _tell_rederived(database, event, book, ruling, before)


def _tell_rederived(
    database: Database, event: int, book: Rulebook, ruling: int, before: tuple[list[int], list[int]]
) -> None:
    """D16: the rulings a correction voided or added (those it rederived), each named."""
    from shinpan.engine.explain import penalty_text  # start-up
    from shinpan.services import queries  # start-up

    voided, added = queries.rederived_by(database, event, ruling)
    for numbers, ja, en in (
        (
            [n for n in voided if n not in before[0]],
            "この訂正で取り消された裁定",
            "voided by this correction",
        ),
        ([n for n in added if n not in before[1]], "この訂正で加わった裁定", "added by this correction"),
    ):
        for n in numbers:
            r = queries.get_ruling(database, event, n)
            what = penalty_text(book, tuple(r["penalties"]), "ja")
            who = queries.player_names(database, event, [r["player"]]).get(r["player"], r["player"])
            tell(
                f"  {ja}: 裁定 {n} {who}({r['player']}) {book.rule_name(r['rule'], 'ja')}({what})",
                f"{en}: ruling {n} {who} ({r['player']}) {book.rule_name(r['rule'], 'en')}",
            )


# The words of the human output (its --json keeps the values).
RULING_STATE_JA = {"pending": "確認待ち", "confirmed": "確認済み", "recorded": "記録済み", "voided": "取消"}
DEADLINE_STATE_WORDS = {
    "pending": ("未了", "pending"),
    "done": ("済み", "done"),
    "missed": ("不履行", "missed"),
    "cancelled": ("取消", "cancelled"),
}
DUE_KIND_WORDS = {
    "end_of_match": ("マッチの終了時", "end of the match"),
    "end_of_round": ("ラウンドの終了時", "end of the round"),
    "before_next_match": ("次のマッチの前", "before the next match"),
    "minutes": ("時間", "minutes"),
}


def history(
    event: EventOption,
    player: Annotated[str, typer.Option("--player")],
    lang: LangOption = Lang.ja,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """A player's rulings (voided too), status and matches in this event."""
    from shinpan.views.history import player_history  # start-up

    database = open_db(db)
    with handled():
        data = player_history(database, event, player)
    if as_json:
        print_json(data)
        return
    from rich.table import Table  # start-up

    from shinpan.engine.explain import penalty_text  # start-up

    p = data["player"]
    en = lang is Lang.en
    status = p["status"] if en else STATUS_JA.get(p["status"], p["status"])
    from rich.markup import escape  # start-up

    say(f"[bold]{escape(p['name'])}[/] ({escape(p['number'])}) {escape(p['reading'])} — {escape(status)}")
    book = event_rulebook(database, event)
    table = Table(
        heading("裁定", "ruling"), heading("回戦", "round"), heading("違反", "rule"), heading("回数", "offence"),
        heading("罰則", "penalty"), heading("状態", "state"), heading("ジャッジ", "judge"),
    )  # fmt: skip
    for r in data["rulings"]:
        follow = (" (follow-up)" if en else "(追加措置)") if r["follow_up"] else ""
        table.add_row(
            f"#{r['number']}",
            str(r["round"] or ""),
            book.rule_name(r["rule"], lang.value),
            (str(r["offense"]) if r["offense"] else "—") + follow,
            penalty_text(book, tuple(r["penalties"]), lang.value),
            r["state"] if en else RULING_STATE_JA.get(r["state"], r["state"]),
            r["judge"],
        )
    print_table(table)


def deadlines(
    event: EventOption,
    action: Annotated[
        list[str] | None, typer.Argument(help="done RULING [POSITION] | arrived RULING | missed RULING")
    ] = None,
    include_closed: Annotated[bool, typer.Option("--all", help="Closed deadlines too.")] = False,
    judge: JudgeOption = None,
    lang: LangOption = Lang.ja,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """What is due and overdue; `done RULING` closes one, `arrived RULING` (到着) closes what waits
    for a late player (D23), `missed RULING` records the follow-up."""
    from shinpan.services.deadlines import list_deadlines, mark_arrived, mark_done, mark_missed  # start-up

    database = open_db(db)
    words = action or []
    if words:
        if (
            words[0] not in ("done", "arrived", "missed")
            or len(words) not in (2, 3)
            or not all(w.isascii() and w.isdigit() and int(w) <= DB_INT_MAX for w in words[1:])
        ):
            usage = (
                "shinpan deadlines --event ID "
                "[done RULING [POSITION] | arrived RULING [POSITION] | missed RULING [POSITION]]"
            )
            fail(both(f"使い方: {usage}", f"usage: {usage}"), 1)
        number = int(words[1])
        position = int(words[2]) if len(words) == 3 else None
        with handled():
            if words[0] == "done":
                mark_done(database, event, number, position or 0, judge=judge)
                result: Any = {"done": number}
            elif words[0] == "arrived":
                mark_arrived(database, event, number, position, judge=judge)
                result = {"arrived": number}
            else:
                result = {"follow_up": mark_missed(database, event, number, position, judge=judge)}
        if as_json:
            print_json(result)
            return
        if words[0] == "done":
            tell(f"裁定 {number} の追加措置を済みにしました", f"done: ruling {number}")
        elif words[0] == "arrived":
            tell(
                f"裁定 {number} のプレイヤーの到着を記録しました(到着を待つ期限は終わりました)",
                f"arrived: ruling {number} (the deadlines waiting for the player are closed)",
            )
        else:
            tell(f"裁定 {number} の追加措置を期限切れにしました", f"missed: ruling {number}")
        return
    from shinpan.services.queries import time_zone_of  # start-up

    with handled():
        found = list_deadlines(database, event, include_closed=include_closed)
        zone = time_zone_of(database, event)
    if as_json:
        print_json([d.as_json() for d in found])
        return
    from rich.table import Table  # start-up

    from shinpan.reports.common import local_time  # start-up

    en = lang is Lang.en
    table = Table(
        heading("裁定", "ruling"), heading("順", "pos"), heading("プレイヤー", "player"), heading("期限", "due"),
        heading("追加措置", "remedy"), heading("状態", "state"),
    )  # fmt: skip
    for d in found:
        if d.seconds_left is not None and not d.overdue:
            left = f"{int(d.seconds_left // 60)}:{int(d.seconds_left % 60):02d}"
            due = f"{left} left" if en else f"残り {left}"
        elif d.due_at:
            due = local_time(d.due_at, zone, style="short")
        else:
            ja_when, en_when = DUE_KIND_WORDS.get(d.due_kind, (d.due_kind, d.due_kind))
            due = en_when if en else ja_when
        ja_state, en_state = (
            ("期限切れ", "overdue") if d.overdue else DEADLINE_STATE_WORDS.get(d.state, (d.state, d.state))
        )
        table.add_row(
            f"#{d.ruling}",
            str(d.position),
            d.player,
            due,
            d.remedy_en if en else d.remedy_ja,
            en_state if en else ja_state,
        )
    print_table(table)


def register(app: typer.Typer) -> None:
    add_commands(app, record, confirm, void, deviate, history, deadlines)
