"""``shinpan decklist rules|submit|import|show|status|lock|correct|publish``: decklists (T13);
the deck checks are in :mod:`shinpan.cli.deckchecks`."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from shinpan.cli.common import Acting, command_group, handled, open_db, recording
from shinpan.cli.options import DbOption, EventOption, JsonOption, number_option
from shinpan.cli.output import both, fail, print_json, tell

if TYPE_CHECKING:
    from typing import TypedDict

    from shinpan.services.deck_shapes import ProblemJson
    from shinpan.tournament.decks import Decklist

    class ListSource(TypedDict):
        """Where a registered list came from, as its entry keeps it: the format it was read in,
        the file's name, the file's hash."""

        fmt: str
        source: str
        digest: str


PlayerOption = Annotated[str, typer.Option("--player", help="The player's id in the event.")]
TableOption = Annotated[int, number_option("--table")]
FileArgument = Annotated[
    Path, typer.Argument(help="The list: a text file, an MTGO .dek, an Arena export, PTCG Live text.")
]
FormatOption = Annotated[
    str | None, typer.Option("--format", help="text | dek | arena | ptcgl (default: read from the file).")
]
Written = TypeVar("Written")  # what a list's command wrote: the list as registered, or corrected
STATE_JA = {"missing": "未提出", "registered": "登録済み", "illegal": "問題あり", "locked": "確定"}
MAX_FILE = 20 * 1024 * 1024


def player_id(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip()


def _read(path: Path) -> bytes:
    try:
        if path.stat().st_size > MAX_FILE:
            fail(both(f"{path}: ファイルが大きすぎます", f"{path}: the file is too large"), 1)
        return path.read_bytes()
    except OSError as e:
        fail(
            both(
                f"{path}: ファイルを読めません（{e.strerror}）",
                f"{path}: cannot read the file ({e.strerror})",
            ),
            1,
        )


def read_list(path: Path, fmt: str | None) -> tuple[Decklist, ListSource]:
    """The list in the file and where it came from; a file in no known format refused by line."""
    from shinpan.files.decklists import digest, parse  # start-up

    data = _read(path)
    with handled():
        deck, found = parse(data, fmt, source=path.name)
        return deck, {"fmt": found, "source": path.name, "digest": digest(data)}
    raise AssertionError("unreachable")


def _write_list(
    write: Callable[..., Written],
    event: int,
    player: str,
    path: Path,
    fmt: str | None,
    acting: Acting,
    *more: str,
) -> Written:
    """A player's list registered from its file (``submit``, ``correct``): read (a file in no
    known format refused by line), then written by the service ``write`` with the event, the
    player, the list, ``more`` (a correction's reason) and where the list came from."""
    deck, source = read_list(path, fmt)
    database = acting.database()
    with handled():
        return write(
            database,
            event,
            player_id(player),
            deck,
            *more,
            **source,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    raise AssertionError("unreachable")


def _problems(problems: list[ProblemJson]) -> None:
    for p in problems:
        tell(f"  {p['message']}", f"  {p['message_en']}")


# -- decklist ----------------------------------------------------------------------------------


@recording()
def rules(
    event: EventOption,
    required: Annotated[
        bool, typer.Option("--required/--optional", help="Decklists required or not.")
    ] = True,
    sections: Annotated[
        str, typer.Option("--sections", help="e.g. main:60-,side:0-15")
    ] = "main:60-,side:0-15",
    copies: Annotated[int, typer.Option("--copies", min=1, max=99, help="Copies per card name.")] = 4,
    copies_across: Annotated[
        bool, typer.Option("--copies-across", help="Count the copy limit across all sections.")
    ] = False,
    banned: Annotated[
        Path | None,
        typer.Option("--banned", help="A file of '0 Name' (banned) and '1 Name' (restricted) lines."),
    ] = None,
    unlimited: Annotated[
        Path | None, typer.Option("--unlimited", help="A file of names any number may be played, one a line.")
    ] = None,
    lock: Annotated[str, typer.Option("--lock", help="round1, or an ISO time with its offset.")] = "round1",
    *,
    acting: Acting,
) -> None:
    """The event's deck rules, set before round 1 (T13)."""
    from shinpan.files.decklists import parse_limits, parse_names  # start-up
    from shinpan.services.deck_rules import set_rules  # start-up
    from shinpan.tournament.decks import sections_text  # start-up

    with handled():
        limits = parse_limits(_read(banned), banned.name) if banned else {}
        names = parse_names(_read(unlimited), unlimited.name) if unlimited else {}
    database = acting.database()
    with handled():
        made = set_rules(
            database,
            event,
            required=required,
            sections=sections,
            copies=copies,
            across=copies_across,
            limits=[(name, n) for n, name in limits.values()],
            unlimited=list(names.values()),
            lock=lock,
            judge=acting.judge,
            command_id=acting.command_id,
        )
    banned_names = sorted(name for n, name in limits.values() if n == 0)
    restricted_names = sorted(name for n, name in limits.values() if n == 1)
    shown: dict[str, Any] = {
        "required": made.required,
        "sections": sections_text(made.sections),
        "copies": made.copies,
        "copies_across": made.across,
        "banned": banned_names,
        "restricted": restricted_names,
        "unlimited": sorted(names.values()),
        "lock": made.lock,
    }
    acting.answer(
        shown,
        f"デッキ規定を設定しました: {shown['sections']}、同名{made.copies}枚まで、禁止{len(banned_names)}・"
        f"制限{len(restricted_names)}、確定は{'第1回戦の開始時' if made.lock == 'round1' else made.lock}",
        f"deck rules set: {shown['sections']}, {made.copies} copies, {len(banned_names)} banned, "
        f"{len(restricted_names)} restricted, locked at {made.lock}",
    )


@recording()
def submit(
    event: EventOption,
    player: PlayerOption,
    file: FileArgument,
    fmt: FormatOption = None,
    *,
    acting: Acting,
) -> None:
    """Register a player's decklist (before the lock; a list with problems is registered too)."""
    from shinpan.services.decklists import submit as register  # start-up

    done = _write_list(register, event, player, file, fmt, acting)
    out = done.as_json()
    if acting.as_json:
        print_json(out)
        return
    sizes = "、".join(f"{s} {n}枚" for s, n in out["sections"].items())
    tell(
        f"{out['player']}のデッキリストを登録しました（{sizes}）",
        f"decklist of {out['player']} registered ({sizes})",
    )
    if out["problems"]:
        tell(f"問題が{len(out['problems'])}件あります:", f"{len(out['problems'])} problem(s):")
        _problems(out["problems"])


@recording()
def import_lists(
    event: EventOption,
    source: Annotated[
        Path,
        typer.Argument(help="A CSV (player, section, count, name) or a folder of lists named by player."),
    ],
    acting: Acting,
) -> None:
    """Register many players' lists at once; any problem in any file and nothing is registered."""
    from shinpan.files.decklists import digest, parse, parse_batch  # start-up
    from shinpan.services.decklists import import_lists as register  # start-up

    lists: dict[str, tuple[Decklist, str, str, str]] = {}
    with handled():
        if source.is_dir():
            for path in sorted(p for p in source.iterdir() if p.is_file() and not p.name.startswith(".")):
                data = _read(path)
                deck, found = parse(data, None, source=path.name)
                lists[player_id(path.stem)] = (deck, found, path.name, digest(data))
        else:
            data = _read(source)
            for player, deck in parse_batch(data, source.name).items():
                lists[player_id(player)] = (deck, "csv", source.name, digest(data))
    if not lists:
        fail(both(f"{source}: デッキリストがありません", f"{source}: no decklist found"), 1)
    database = acting.database()
    with handled():
        done = register(database, event, lists, judge=acting.judge, command_id=acting.command_id)
    out = {"players": [d.as_json() for d in done], "count": len(done)}
    if acting.as_json:
        print_json(out)
        return
    illegal = [d for d in done if d.problems]
    tell(
        f"{len(done)}人のデッキリストを登録しました（問題あり{len(illegal)}人）",
        f"{len(done)} decklists registered ({len(illegal)} with problems)",
    )
    for d in illegal:
        tell(f"{d.player}:", f"{d.player}:")
        _problems(d.as_json()["problems"])


def show(
    event: EventOption,
    player: PlayerOption,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """A player's registered list by section, its problems and its versions (judges only)."""
    from shinpan.services.decklists import show as shown  # start-up
    from shinpan.tournament.decks import section_label  # start-up

    database = open_db(db)
    with handled():
        out = shown(database, event, player_id(player))
    if as_json:
        print_json(out)
        return
    tell(
        f"{out['player']}のデッキリスト（第{out['versions']}版）",
        f"decklist of {out['player']} (version {out['versions']})",
    )
    for section, cards in out["sections"].items():
        total = sum(c["count"] for c in cards)
        tell(f"{section_label(section)}（{total}枚）", f"{section} ({total})")
        for c in cards:
            typer.echo(f"  {c['count']} {c['name']}")
    if out["problems"]:
        _problems(out["problems"])


def status(event: EventOption, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Each player's list: missing, registered, illegal or locked."""
    from shinpan.services.decklists import status as states  # start-up

    database = open_db(db)
    with handled():
        out = states(database, event)
    if as_json:
        print_json(out)
        return
    tell("確定済み" if out["locked"] else "確定前", "locked" if out["locked"] else "not locked")
    for p in out["players"]:
        mark = " ⚠" if p["player"] in out["problems"] else ""
        tell(f"  {p['player']}: {STATE_JA[p['state']]}{mark}", f"  {p['player']}: {p['state']}{mark}")
    if out["problems"]:
        n = len(out["problems"])
        tell(f"要対応: {n}人（未提出または問題あり）", f"to see to: {n} (missing or with problems)")


@recording(as_json=False)
def lock(event: EventOption, acting: Acting) -> None:
    """Lock the lists now: after this only the head judge corrects one, with a reason."""
    from shinpan.services.decklists import lock as lock_lists  # start-up

    database = acting.database()
    with handled():
        lock_lists(database, event, judge=acting.judge, command_id=acting.command_id)
    tell("デッキリストを確定しました", "decklists locked")


@recording()
def correct(
    event: EventOption,
    player: PlayerOption,
    file: FileArgument,
    reason: Annotated[str, typer.Option("--reason", help="Why the list is corrected.")],
    fmt: FormatOption = None,
    *,
    acting: Acting,
) -> None:
    """The head judge corrects a list after the lock, with a reason (both versions stay)."""
    from shinpan.services.decklists import correct as corrected  # start-up

    done = _write_list(corrected, event, player, file, fmt, acting, reason)
    if acting.as_json:
        print_json(done.as_json())
        return
    tell(f"{done.player}のデッキリストを修正しました", f"decklist of {done.player} corrected")
    _problems(done.as_json()["problems"])


@recording()
def publish(
    event: EventOption,
    top: Annotated[int, typer.Option("--top", min=1, max=64, help="The lists of the final top N.")],
    acting: Acting,
) -> None:
    """After the event: the lists of the final top N on the players' pages (T13)."""
    from shinpan.services.decklists import publish_top  # start-up

    database = acting.database()
    with handled():
        players = publish_top(database, event, top, judge=acting.judge, command_id=acting.command_id)
    acting.answer(
        {"top": top, "players": players},
        f"上位{top}人のデッキリストを公開しました（{len(players)}人）",
        f"the top {top}'s decklists published ({len(players)})",
    )


def register(app: typer.Typer) -> None:
    command_group(
        app,
        "decklist",
        "デッキリスト: 規定、登録、締め切り、訂正 / Decklists: rules, registration, the lock, corrections (T13).",
        rules,
        submit,
        import_lists,
        show,
        status,
        lock,
        correct,
        publish,
        words={"import_lists": "import"},
    )
