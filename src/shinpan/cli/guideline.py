"""``shinpan rules`` and ``shinpan guideline``: reading and checking guideline files."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shinpan.cli.common import add_commands, command_group
from shinpan.cli.output import both, fail, print_json, print_table, say, tell

if TYPE_CHECKING:
    from shinpan.files.guidelines import HeldGuideline
    from shinpan.guideline import Rulebook
    from shinpan.guideline.model import Infraction, Step


class Lang(StrEnum):
    ja = "ja"
    en = "en"


LangOption = Annotated[Lang, typer.Option("--lang", help="Language of the output: ja or en.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
GuidelineOption = Annotated[
    Path | None, typer.Option("--guideline", help="A guideline file instead of the built-in one.")
]


def rulebook(path: Path | None) -> Rulebook:
    """The built-in guideline, or the one in ``path``; a broken file ends the command (exit 1)."""
    from shinpan.files.guidelines import default_guideline, load_guideline  # start-up
    from shinpan.guideline import GuidelineError, Rulebook  # start-up

    try:
        return Rulebook(load_guideline(path) if path else default_guideline())
    except GuidelineError as e:
        n = len(e.problems)
        fail(
            both(f"ガイドラインファイルに問題が {n} 件あります:", f"{n} problem(s) in the guideline file:")
            + f"\n{e}",
            1,
        )


def hold(path: Path) -> HeldGuideline:
    """Check the guideline file at ``path`` and keep it in the installation; a broken file
    ends the command (exit 1) with every problem, and nothing is written."""
    from shinpan.cli.common import in_japanese  # start-up: only a command that keeps a file
    from shinpan.errors import ShinpanError  # start-up
    from shinpan.files.guidelines import add_guideline  # start-up
    from shinpan.guideline import GuidelineError  # start-up

    try:
        return add_guideline(path)
    except GuidelineError as e:
        n = len(e.problems)
        fail(
            both(
                f"ガイドラインファイルに問題が {n} 件あり、使えません(何も書き込んでいません)",
                f"{n} problem(s) in the guideline file: nothing was written",
            )
            + f"\n{e}",
            1,
        )
    except ShinpanError as e:
        fail(in_japanese(e), 1)


def step_text(book: Rulebook, step: Step, lang: str) -> str:
    codes = [*step.penalties]
    text = " + ".join(book.label(c, lang) if lang == "en" else (book.components[c].abbr or c) for c in codes)
    if step.if_same_as_previous:
        extra = " + ".join(book.label(c, lang) for c in step.if_same_as_previous)
        text += f" (+ {extra} if the same as before)" if lang == "en" else f"(前と同一なら + {extra})"
    for e in step.effects:
        text += f" + {book.label(e, lang)}"
    return text or ("none" if lang == "en" else "なし")


def _ladder_cells(book: Rulebook, inf: Infraction, lang: str) -> list[str]:
    if inf.all_offenses:
        every = "every time: " if lang == "en" else "毎回: "
        return [every + step_text(book, inf.ladder[0], lang), "", ""]
    cells = [step_text(book, s, lang) for s in inf.ladder[:3]]
    return cells + [""] * (3 - len(cells))


def _infraction_json(book: Rulebook, inf: Infraction, offense: int | None) -> dict[str, Any]:
    from shinpan.guideline.model import as_data  # start-up

    data = as_data(inf)
    if offense is not None:
        step = book.step(inf, offense)
        data["applies"] = {
            "offense": offense,
            "step": inf.ladder.index(step) + 1,
            "penalties": list(step.penalties),
            "effects": list(dict.fromkeys([*inf.effects, *step.effects])),
            "if_same_as_previous": list(step.if_same_as_previous),
            "remedies": [as_data(r.text) for r in book.remedies(inf, step)],
            "source": step.source,
        }
    return data


def show(book: Rulebook, rule_id: str, offense: int | None, lang: str, as_json: bool) -> None:
    from rich.table import Table  # start-up

    from shinpan.engine.explain import deadline_text, ordinal  # start-up
    from shinpan.engine.ladder import dues_of  # start-up
    from shinpan.guideline.model import as_data  # start-up

    inf = book.infractions.get(rule_id)
    if inf is None:
        general = next((r for r in book.guideline.general_rules if r.id == rule_id), None)
        if general is None:
            word = rule_id.split(".")[-1]
            fail(
                both(
                    f"{rule_id!r} という違反はありません。`shinpan rules {word}` で探してください",
                    f"unknown infraction {rule_id!r}; try `shinpan rules {word}`",
                ),
                1,
            )
        if as_json:
            print_json(as_data(general))
        else:
            say(f"[bold]{general.name.get(lang)}[/] ({general.id})")
            say(general.source, markup=False)
        return
    if offense is not None and offense < 1:
        fail(both("--offense は1から数えます", "--offense counts from 1"), 1)
    if as_json:
        print_json(_infraction_json(book, inf, offense))
        return
    en = lang == "en"
    category = next(c for c in book.guideline.categories if c.id == inf.category)
    say(f"[bold]{inf.name.get(lang)}[/]  {inf.id}")
    say(f"{category.name.get(lang)}", style="dim")
    for note in inf.notes:
        say(f"  • {note.get(lang)}", markup=False)
    applies = book.step(inf, offense) if offense is not None else None
    table = Table("", "offence" if en else "回数", "penalty" if en else "罰則", "guideline" if en else "原文")
    for n, step in enumerate(inf.ladder, start=1):
        label = ("every" if en else "毎回") if inf.all_offenses else ordinal(n, lang)
        if not inf.all_offenses and n == len(inf.ladder):
            label += "+" if n > 1 or en else ""
        mark = "▶" if step is applies else ""
        table.add_row(mark, label, step_text(book, step, lang), step.source)
    print_table(table)
    for remedy in inf.remedies:
        say(("→ remedy: " if en else "→ 追加措置: ") + remedy.text.get(lang), markup=False)
    if offense is not None:
        assert applies is not None
        for remedy in applies.remedies:
            say(("→ remedy: " if en else "→ 追加措置: ") + remedy.text.get(lang), markup=False)
        for due in dues_of(book, inf, offense):
            miss = " + ".join(book.label(c, lang) for c in (*due.penalties, *due.effects)) or "—"
            say(("deadline: " if en else "期限: ") + f"{deadline_text(due, lang)} → {miss}")
        say(
            (f"The {ordinal(offense, lang)} offence gets: " if en else f"{ordinal(offense, lang)}の違反: ")
            + step_text(book, applies, lang)
        )
    facts = [q.value for q in inf.questions]
    if facts:
        say(("questions: " if en else "確認事項: ") + ", ".join(facts), style="dim")


def list_rules(book: Rulebook, query: str, lang: str, as_json: bool) -> None:
    from rich.table import Table  # start-up

    from shinpan.guideline.search import search  # start-up

    found = search(book, query)
    if as_json:
        print_json([_infraction_json(book, inf, None) for inf in found])
        return
    if not found:
        fail(both(f"{query!r} に当たる違反はありません", f"no infraction matches {query!r}"), 1)
    en = lang == "en"
    for category in book.guideline.categories:
        rows = [inf for inf in found if inf.category == category.id]
        if not rows:
            continue
        table = Table(title=category.name.get(lang), title_justify="left", expand=False)
        # Ids and names are never cut to 「deck.illegal-d…」: the id keeps its whole width and
        # every cell folds onto further lines where the terminal (or a pipe's 80 columns) is narrow.
        table.add_column("id", no_wrap=True, min_width=max(len(inf.id) for inf in rows))
        for col in ("name" if en else "名前", "1)", "2)", "3)"):
            table.add_column(col, overflow="fold")
        for inf in rows:
            table.add_row(inf.id, inf.name.get(lang), *_ladder_cells(book, inf, lang))
        print_table(table)
    if not query:
        for rule in book.guideline.general_rules:
            say(f"● {rule.name.get(lang)} ({rule.id})", markup=False)


def rules(
    words: Annotated[list[str] | None, typer.Argument(help="QUERY, or: show ID")] = None,
    offense: Annotated[int | None, typer.Option("--offense", help="With show: this offence's step.")] = None,
    lang: LangOption = Lang.ja,
    as_json: JsonOption = False,
    guideline: GuidelineOption = None,
) -> None:
    """The guideline by category; `rules QUERY` searches; `rules show ID` shows one infraction."""
    book = rulebook(guideline)
    words = words or []
    if words and words[0] == "show":
        if len(words) != 2:
            fail(
                both(
                    "使い方: shinpan rules show ID [--offense N]",
                    "usage: shinpan rules show ID [--offense N]",
                ),
                1,
            )
        show(book, words[1], offense, lang.value, as_json)
        return
    list_rules(book, " ".join(words), lang.value, as_json)


def check(
    file: Annotated[Path, typer.Argument(help="A guideline file (YAML, JSON or TOML).")],
    as_json: JsonOption = False,
) -> None:
    """Validate a guideline file: exit 0 when sound, 1 listing every problem."""
    from shinpan.files.guidelines import load_guideline  # start-up
    from shinpan.guideline import GuidelineError  # start-up

    try:
        g = load_guideline(file)
    except GuidelineError as e:
        if as_json:
            print_json({"ok": False, "problems": [p.__dict__ for p in e.problems]})
            raise SystemExit(1) from None
        n = len(e.problems)
        fail(both(f"問題が {n} 件あります:", f"{n} problem(s):") + f"\n{e}", 1)
    if as_json:
        print_json({"ok": True, "id": g.id, "version": g.version, "infractions": len(g.infractions)})
    else:
        infractions, general = len(g.infractions), len(g.general_rules)
        tell(
            f"問題ありません: {g.id} {g.version}、違反 {infractions}件、一般規定 {general}件",
            f"ok: {g.id} {g.version}, {infractions} infractions, {general} general rules",
        )


def schema() -> None:
    """Print the JSON Schema of a guideline file."""
    from shinpan.files.guidelines import guideline_schema  # start-up

    typer.echo(json.dumps(guideline_schema(), ensure_ascii=False, indent=2))


def add(
    file: Annotated[Path, typer.Argument(help="A guideline file (YAML, JSON or TOML).")],
    as_json: JsonOption = False,
) -> None:
    """Check a guideline file and keep it: events may then run under it (event create --guideline)."""
    held = hold(file)
    if as_json:
        print_json({"id": held.id, "version": held.version, "sha256": held.sha256})
    else:
        tell(f"登録しました: {held.title_ja}", f"ok: {held.key} ({held.title_ja})")


def list_held(as_json: JsonOption = False) -> None:
    """The guidelines events may run under: the shipped one and those added."""
    from shinpan.files.guidelines import held_guidelines  # start-up

    found = held_guidelines()
    if as_json:
        print_json(
            [
                {
                    "id": h.id,
                    "version": h.version,
                    "sha256": h.sha256,
                    "rel": h.rel,
                    "title": {"ja": h.title_ja, "en": h.title_en},
                    "shipped": h.shipped,
                }
                for h in found
            ]
        )
        return
    for h in found:
        say(f"{h.key}  REL {h.rel}  {h.title_ja}" + ("  (同梱 / shipped)" if h.shipped else ""), markup=False)


def register(app: typer.Typer) -> None:
    add_commands(app, rules)
    command_group(
        app,
        "guideline",
        "ガイドラインファイルの検査とスキーマ / Check guideline files and print their schema.",
        check,
        add,
        list_held,
        schema,
        words={"list_held": "list"},
    )
