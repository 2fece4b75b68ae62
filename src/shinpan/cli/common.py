"""What the ledger commands share: error handling, opening the database, the Japanese of
the event's settings (the options themselves: :mod:`shinpan.cli.options`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any

import typer

from shinpan.cli.options import CommandOption, JsonOption, JudgeOption
from shinpan.cli.options import DbOption as DbOption  # cli/serve.py asks for it here
from shinpan.cli.output import answer, both, fail, tell
from shinpan.errors import ShinpanError, Unstorable

if TYPE_CHECKING:
    from shinpan.store.db import Database

# What the event's settings and a judge's role are called on the web (its forms and its
# catalogue), for the Japanese of a line that names them.
FORMAT_JA = {"bo3": "マッチ戦(2本先取)", "bo1": "1本先取"}
TIME_OUT_JA = {"duels": "取ったデュエル数で決める", "both-lose": "両者敗北"}
RESULT_JA = {"a": "A席の勝ち", "b": "B席の勝ち", "draw": "引き分け", "playing": "対戦中"}
STATUS_JA = {
    "active": "参加中",
    "dropped": "ドロップ",
    "withdrawn": "棄権",
    "ejected": "退場",
    "disqualified": "失格",
}
ROLE_JA = {
    "head_judge": "ヘッドジャッジ",
    "floor_judge": "フロアジャッジ",
    "scorekeeper": "スコアキーパー",
    "viewer": "閲覧者",
}

UNSTORABLE = both(
    "数が大きすぎるか、保存できない文字が含まれています。何も保存されていません",
    "a number is too large or a text has characters that cannot be saved; nothing was saved",
)


def command_group(
    app: typer.Typer,
    name: str,
    help: str,
    *commands: Callable[..., None],
    words: Mapping[str, str] | None = None,
) -> None:
    """``shinpan NAME COMMAND``: the group with its help, its commands in the order given, each
    called by its function's name with dashes (``words`` where the command says it otherwise)."""
    group = typer.Typer(help=help, no_args_is_help=True)
    app.add_typer(group, name=name)
    add_commands(group, *commands, words=words)


def add_commands(
    app: typer.Typer, *commands: Callable[..., None], words: Mapping[str, str] | None = None
) -> None:
    """``shinpan COMMAND``: the commands in the order given, each called by its function's name
    with dashes (``words`` where the command says it otherwise)."""
    for command in commands:
        word = (words or {}).get(command.__name__, command.__name__.replace("_", "-"))
        app.command(word)(command)


class Acting:
    """The options a recording command ends with, given to it as one value: who acts
    (``--judge``), the id that makes a retry safe (``--command-id``), the database (``--db``)
    and whether the answer is JSON for scripts (``--json``). A plain class: making a dataclass
    takes 0.7 ms of CPU at every command's start."""

    __slots__ = ("as_json", "command_id", "db", "judge")

    def __init__(
        self,
        judge: str | None = None,
        command_id: str | None = None,
        db: str | None = None,
        as_json: bool = False,
    ) -> None:
        self.judge, self.command_id, self.db, self.as_json = judge, command_id, db, as_json

    def database(self) -> Database:
        return open_db(self.db)

    def answer(self, data: Any, ja: str, en: str) -> None:
        """The command's answer: ``data`` with ``--json``, else the line ``日本語 / English``."""
        answer(data, ja, en, self.as_json)


# The options of :class:`Acting`, in the order every recording command's help lists them.
ACTING_OPTIONS: dict[str, tuple[Any, Any]] = {
    "judge": (JudgeOption, None),
    "command_id": (CommandOption, None),
    "db": (DbOption, None),
    "as_json": (JsonOption, False),
}


def recording(
    *, command_id: bool = True, as_json: bool = True
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command that records in the ledger, its last parameter ``acting: Acting``: in its place
    Typer reads ``--judge``, ``--command-id``, ``--db`` and ``--json`` (without ``--command-id``
    or ``--json`` where the command takes none), and the command is given them as one
    :class:`Acting`. Its own options, its name and its help are its own."""
    wanted = {
        name: option
        for name, option in ACTING_OPTIONS.items()
        if (name != "command_id" or command_id) and (name != "as_json" or as_json)
    }
    return given_as("acting", wanted, Acting)


def given_as(
    name: str, options: Mapping[str, tuple[Any, Any]], make: Callable[..., Any]
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command whose last parameter ``name`` stands for ``options`` (each with its annotation
    and its default): Typer reads those options in its place, in their order, and the command
    is given ``make(**their values)``. Its own options, its name and its help are its own."""

    def made(command: Callable[..., None]) -> Callable[..., None]:
        return _GivenAs(command, name, options, make)

    return made


class _GivenAs:
    """A command as :func:`given_as` makes it. Its signature is worked out when Typer first
    reads it, not when its module loads: a command that is not run costs nothing."""

    def __init__(
        self,
        command: Callable[..., None],
        name: str,
        options: Mapping[str, tuple[Any, Any]],
        make: Callable[..., Any],
    ) -> None:
        self.command, self.name, self.options, self.make = command, name, options, make
        self.__name__, self.__qualname__ = command.__name__, command.__qualname__
        self.__module__, self.__doc__ = command.__module__, command.__doc__

    @cached_property
    def __signature__(self) -> inspect.Signature:
        *own, last = inspect.signature(self.command, eval_str=True).parameters.values()
        assert last.name == self.name, f"{self.__name__}: the last parameter is {self.name}"
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        tail = [
            inspect.Parameter(option, kind, default=default, annotation=annotation)
            for option, (annotation, default) in self.options.items()
        ]
        return inspect.Signature([*own, *tail], return_annotation=None)

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        return {p.name: p.annotation for p in self.__signature__.parameters.values()} | {"return": None}

    def __call__(self, **given: Any) -> None:
        value = self.make(**{option: given.pop(option) for option in self.options})
        self.command(**given, **{self.name: value})


def say_claim_code(seat: str, code: str) -> None:
    """The one-time code that gives a judge their seat, and what the judge does with it."""
    tell(
        f"{seat}の席の受け取りコード(表示はこの一度だけ、7日間有効): {code}",
        f"claim code for {seat}'s seat (shown once; valid 7 days): {code}",
    )
    tell(
        f"  ジャッジはサーバーの /join/{code} を開いてPINを決めるか、先にサインインして自分のアカウントで受け取ります",
        f"the judge opens /join/{code} on the server and sets a PIN, or signs in first to use their account",
    )


def name_value(spec: str, ja: str, en: str) -> tuple[str, str]:
    """An option's ``NAME=VALUE``, split at the first ``=`` (as written, unstripped); a usage
    error (exit 2) telling ``ja`` / ``en`` when either side is empty."""
    name, sep, value = spec.partition("=")
    if not sep or not name.strip() or not value.strip():
        fail(both(ja, en), 2)
    return name, value


@contextmanager
def handled() -> Iterator[None]:
    """Turn shinpan's errors into a one-line message and exit 1; so too a value that passed
    the checks but that the database cannot hold (the transaction rolled back): the store
    tells it as :class:`Unstorable` (PostgreSQL's integer out of range, a NUL in a text)."""
    try:
        yield
    except Unstorable:
        fail(UNSTORABLE, 1)
    except ShinpanError as e:
        where = f" ({e.field})" if e.field else ""
        fail(f"{in_japanese(e)}{where}", 1)
    except (OverflowError, UnicodeEncodeError):  # SQLite's integer; a lone surrogate from argv
        fail(UNSTORABLE, 1)


def in_japanese(error: ShinpanError) -> str:
    """An error told on one line as the web tells it, in Japanese first, then in English
    (``日本語 / English``); the English alone where the catalogue has no Japanese for it."""
    from shinpan.web.i18n import catalog  # start-up: read only when there is an error to tell

    ja = catalog("ja")
    japanese = error.render(lambda template: ja.get(template, template))
    return str(error) if japanese == str(error) else both(japanese, str(error))


def open_db(url: str | None) -> Database:
    from shinpan.store.db import Database  # start-up: the database layer loads only for commands that use it

    with handled():
        return Database(url)
    raise AssertionError("unreachable")
