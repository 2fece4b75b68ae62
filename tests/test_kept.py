"""The per-database caches live in one registry, the database's own (:mod:`shinpan.store.kept`).

The ledger watch, the player index, the players' views of published events, the published
tokens and the desk's shared panels: each is one per database (two databases in a process
never share one) and goes with its database (none is held by a module for ever, as a
``WeakKeyDictionary`` whose value holds its key was).
"""

from __future__ import annotations

import ast
import gc
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shinpan.services import public, publish
from shinpan.services.search import index_of
from shinpan.store.db import Database
from shinpan.store.kept import Kept
from shinpan.store.notices import watch_of
from shinpan.web import desk

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "shinpan"

CACHES: dict[str, Callable[[Database], object]] = {
    "ledger watch": watch_of,
    "player index": index_of,
    "players' views": public._kept_of,
    "published tokens": publish._tokens_of,
    "desk panels": lambda db: db.kept.of(desk._SharedPanels, desk._SharedPanels),
}


def test_each_cache_is_one_per_database(tmp_path: Path) -> None:
    one = Database(str(tmp_path / "events.sqlite3"))
    two = Database(str(tmp_path / "events.sqlite3"), migrate=False)
    try:
        for name, cache_of in CACHES.items():
            first = cache_of(one)
            assert cache_of(one) is first, name
            assert cache_of(two) is not first, name
            assert type(cache_of(two)) is type(first), name
            assert type(first) in one.kept, name
    finally:
        one.close()
        two.close()


def test_each_cache_goes_with_its_database(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "events.sqlite3"))
    held: dict[str, weakref.ref[Any]] = {name: weakref.ref(cache_of(db)) for name, cache_of in CACHES.items()}
    gone = weakref.ref(db)
    db.close()
    del db
    gc.collect()
    assert gone() is None
    assert {name for name, ref in held.items() if ref() is not None} == set()


def test_the_registry_makes_each_kind_once_and_lets_one_make_another() -> None:
    kept = Kept()
    made: list[str] = []

    class Inner:
        def __init__(self) -> None:
            made.append("inner")

    class Outer:
        def __init__(self) -> None:
            made.append("outer")
            self.inner = kept.of(Inner, Inner)  # made while Outer is being made

    outer = kept.of(Outer, Outer)
    assert kept.of(Outer, Outer) is outer and kept.of(Inner, Inner) is outer.inner
    assert made == ["outer", "inner"]
    assert Inner in kept and int not in kept


def _kept_elsewhere(code: str) -> list[int]:
    """Lines that keep something per database outside the registry: an attribute set on
    an object's ``vars()``, or a ``WeakKeyDictionary``."""
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if (called == "vars" and node.args) or called.endswith("WeakKeyDictionary"):
                found.append(node.lineno)
    return sorted(found)


def test_no_cache_is_kept_per_database_anywhere_else() -> None:
    # Kept by something else than a database: web/protocol.py keeps each server's state by
    # the server; reports/fpdf_fonts.py keeps the characters a PDF font's subset has picked
    # by that subset.
    by_other_keys = {"web/protocol.py", "reports/fpdf_fonts.py"}
    elsewhere = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() not in by_other_keys
        for line in _kept_elsewhere(path.read_text(encoding="utf-8"))
    ]
    assert elsewhere == [], "keep a per-database cache in db.kept (shinpan.store.kept)"


def test_the_check_sees_a_cache_kept_apart() -> None:
    code = (
        "import weakref\n"
        "from weakref import WeakKeyDictionary\n"
        "a = WeakKeyDictionary()\n"
        "b = weakref.WeakKeyDictionary()\n"
        "vars(db)['_index'] = 1\n"
        "c = vars()\n"  # the module's own names: not a cache
        "d = db.kept.of(int, int)\n"
    )
    assert _kept_elsewhere(code) == [3, 4, 5]


def test_a_held_transaction_keeps_its_own(tmp_path: Path) -> None:
    """An import's or a rebuild's held transaction is a database of its own to the caches:
    what it keeps while deciding again is not the live database's."""
    from shinpan.store.held import HeldTransaction

    db = Database(str(tmp_path / "events.sqlite3"))
    try:
        with db.write() as conn:
            held = HeldTransaction(db, conn)
            assert publish._tokens_of(held) is publish._tokens_of(held)
            assert publish._tokens_of(held) is not publish._tokens_of(db)
    finally:
        db.close()
