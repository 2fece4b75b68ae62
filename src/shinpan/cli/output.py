"""How commands speak: plain lines, Rich for tables and styled text, JSON for scripts,
one-line errors.

Rich takes about as long to load as the rest of a one-line command's start, and most
commands print a line or two of plain text: ``confirmed 7``, ``saved: ruling #15``. Such a
line :func:`say` writes itself, byte for byte as Rich's ``Console.print`` would, when Rich
would change nothing in it: it fits the width Rich wraps at, and holds no markup, no emoji
code (``:name:``) and no character Rich strips, expands or measures differently (only
printable ASCII). Any other line, and every table, goes to Rich, loaded then. In a terminal
Rich would also colour the numbers of a plain line; that is all a plain line loses.

Every line a judge, a player or an organiser reads is told in Japanese first, then in
English, on one line: ``日本語 / English`` (:func:`both`, the one way the commands put the
two together; the English after `` / `` is what scripts and tests search for). A command
prints such a line with :func:`tell`, and fails with ``fail(both(ja, en), code)``; the line
is never wrapped, as an error is not, and goes out without Rich when Rich would print it as
it is. Ids and numbers come in the same order in both; a line that only names a long datum
(an address, a file, a hash) names it once, at its end, after the English. In a table
the Japanese stands above the English instead (:func:`heading`: its headings and the fixed
words in its cells); its title and caption are ``both``. Help texts stay English; ``--json`` output is
data, not words, and stays as it is; a bare id or URL printed for scripts stays bare.

Rich's consoles are made where they are used, one per print: a console keeps the
``COLUMNS`` it was made with, and the tests run commands with a ``COLUMNS`` of their own in
one process.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

# What Rich's emoji codes look like (rich._emoji_replace): a line with one goes to Rich,
# which knows which names are emoji.
_EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")


def console() -> Console:
    """A Rich console on standard output (for tables and styled lines)."""
    from rich.console import Console  # start-up

    return Console()


def errors() -> Console:
    """A Rich console on standard error (for progress bars and styled messages)."""
    from rich.console import Console  # start-up

    return Console(stderr=True)


def print_table(table: Any) -> None:
    """Print a Rich table."""
    console().print(table)


def say(text: str, *, markup: bool = True, highlight: bool = True, style: str | None = None) -> None:
    """Print a line (or lines) on standard output as ``Console.print(text, ...)`` does; plain
    text that Rich would print as it is is written without loading Rich."""
    if style is None and _unchanged(text, markup=markup, room=_room()):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()  # as Rich does after every print
        return
    console().print(text, markup=markup, highlight=highlight, style=style)


def both(ja: str, en: str) -> str:
    """A text in Japanese first, then in English, on one line: ``日本語 / English``."""
    return f"{ja} / {en}"


def heading(ja: str, en: str) -> str:
    """A table's heading, or a fixed word in its cells: the Japanese above the English, so
    that a column is as wide as the longer of the two, not both side by side."""
    return f"{ja}\n{en}"


def tell(ja: str, en: str, *, style: str | None = None) -> None:
    """Print ``日本語 / English`` (:func:`both`) on standard output as one unwrapped line, as
    Rich's ``Console.print`` prints it with soft wrap and neither markup nor emoji codes (a
    name with ``[`` or ``:smile:`` in it prints as it is): without Rich when it is printable,
    through Rich when it is styled (the verify command's red lines) or holds control
    characters."""
    text = both(ja, en)
    if style is None and text.isprintable():
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        return
    console().print(text, markup=False, emoji=False, highlight=False, style=style, soft_wrap=True)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def answer(data: Any, ja: str, en: str, as_json: bool) -> None:
    """A command's answer: ``data`` as JSON for scripts (``--json``), else the line
    ``日本語 / English`` (:func:`tell`)."""
    if as_json:
        print_json(data)
    else:
        tell(ja, en)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print a one-line error on stderr and exit with ``code`` (Rich's soft wrap: the line is
    never broken, so any printable text is written as it is)."""
    text = f"error: {message}"
    if _unchanged(text, markup=False, room=None):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    else:
        errors().print(text, markup=False, highlight=False, soft_wrap=True)
    raise SystemExit(code)


def _unchanged(text: str, *, markup: bool, room: int | None) -> bool:
    """Whether Rich would print ``text`` as it is: every line printable and, when it wraps
    lines at ``room`` columns, printable ASCII (one column a character) no wider than that;
    no markup (when Rich reads markup) and no emoji code."""
    for line in text.split("\n"):
        if not line.isprintable():  # control characters, tabs, separators, lone surrogates
            return False
        if room is not None and (len(line) > room or not line.isascii()):
            return False
    if markup and "[" in text:
        return False
    return ":" not in text or _EMOJI_CODE.search(text) is None


def _room() -> int:
    """The width Rich wraps standard output at (``Console.size``): ``COLUMNS``, else the
    first terminal among stdin, stdout and stderr, else 80; a dumb terminal has 80."""
    width = 0
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isascii() and columns.isdigit():
        width = int(columns)
    else:
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd).columns or 80
                break
            except (AttributeError, ValueError, OSError):  # not a terminal
                continue
        else:
            width = 80
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        width = min(width, 80)  # Rich: 80 when the console is a dumb terminal
    return width
