"""One door to the ledger: every entry is appended through :func:`shinpan.services.commands.run_command`
(a judge's command) or :func:`~shinpan.services.commands.run_apart` (a player's, who has no
account), which check the role, the retry, the import's hash and the seal in one place.

Read statically over ``src/``: a module that appends entries (makes an ``Appender``) or opens
an event's write transaction (``db.write(event_id)``) is one of the few below, each with its
reason. Accounts are not the ledger (their transactions name no event, ``db.write(None)``);
the import and the rebuild hold their own transactions.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "shinpan"

# Module (file name, without .py; a prefix for a family of modules) -> why it may write apart.
ALLOWED = {
    "commands": "the door itself: run_command and run_apart",
    "reimport": "the import replays an exported ledger in its own held transactions",
    "transfer": "the import's last step: seats and where the event came from, in its transaction",
    "integrity": "the rebuild replaces the projections in one held transaction (no entry)",
    "events": "an event's creation: its first entry, before any command can name the event",
    "formats": "the format chosen at creation, in the creation's transaction",
    "accounts": "invitations and seats' codes: accounts under the event's lock, no entry",
}


def _allowed(path: Path) -> bool:
    return any(path.stem == name or path.stem.startswith(f"{name}_") for name in ALLOWED)


def _ledger_writes(tree: ast.AST) -> list[int]:
    """The lines that append to the ledger or open an event's write transaction: a call of
    ``Appender(...)`` (by any path), or ``<...>db.write(x)`` with ``x`` anything but None."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name == "Appender":
            found.append(node.lineno)
        elif isinstance(f, ast.Attribute) and name == "write":
            owner = f.value
            held = (
                owner.id
                if isinstance(owner, ast.Name)
                else owner.attr
                if isinstance(owner, ast.Attribute)
                else ""
            )
            event = node.args[0] if node.args else None
            names_event = event is not None and not (isinstance(event, ast.Constant) and event.value is None)
            if held.endswith("db") and names_event:
                found.append(node.lineno)
    return sorted(found)


def test_no_ledger_write_outside_the_door() -> None:
    """A service that appends entries itself escapes the role check, the retry and the seal:
    it goes through run_command (or run_apart), or it is one of ALLOWED, with its reason."""
    apart = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not _allowed(path)
        for line in _ledger_writes(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert apart == [], "append through services.commands.run_command (or run_apart)"


def test_every_allowed_module_still_writes_apart() -> None:
    """An allowance nobody uses any more is taken back (the list stays the list of exceptions)."""
    writers = {
        path.stem
        for path in PACKAGE.rglob("*.py")
        if _ledger_writes(ast.parse(path.read_text(encoding="utf-8")))
    }
    unused = sorted(n for n in ALLOWED if not any(w == n or w.startswith(f"{n}_") for w in writers))
    assert unused == []


def test_the_detector_sees_every_way_of_writing() -> None:
    code = (
        "from shinpan.store import ledger\n"
        "def f(db, conn, app):\n"
        "    ap = Appender(conn, 1, 'HJ', 'now')\n"  # 3
        "    ledger.Appender(conn, 1, 'HJ', 'now')\n"  # 4
        "    with db.write(1) as conn:\n"  # 5
        "        pass\n"
        "    with app.state.db.write(event_id):\n"  # 7
        "        pass\n"
        "    with db.write(None):\n"  # accounts: not the ledger
        "        pass\n"
        "    with db.write():\n"  # no event
        "        pass\n"
        "    f.write('text')\n"  # a file
        "    run_command(db, 1, 'record', None, None, {}, act)\n"
    )
    assert _ledger_writes(ast.parse(code)) == [3, 4, 5, 7]


def test_a_module_is_allowed_by_its_name_or_its_family() -> None:
    assert _allowed(Path("services/commands.py")) and _allowed(Path("files/reimport_decks.py"))
    assert not _allowed(Path("services/winner_reports.py")) and not _allowed(Path("services/reimporter.py"))
