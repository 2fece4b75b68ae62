"""The store's statements run on the driver, on SQLite and on PostgreSQL alike: named
parameters, ``IN`` lists of any length, and errors a user caused told in their words."""

from __future__ import annotations

import pytest

from shinpan.errors import Unstorable
from shinpan.store.connection import IntegrityViolation, Statement
from shinpan.store.db import Database

_NAMES = Statement("SELECT name FROM users WHERE id IN (:ids) ORDER BY id")
_BY_NAME_AND_IDS = Statement("SELECT id FROM users WHERE name = :name AND id IN (:ids)")
_ADD = Statement(
    "INSERT INTO users (id, name, password_hash, level, created_at, uid) "
    "VALUES (:id, :name, 'x', 1, '2024-06-01T10:00:00Z', :uid)"
)


def _add_users(db: Database, count: int) -> None:
    with db.write() as conn:
        _ADD.run_many(conn, [{"id": n, "name": f"U{n}", "uid": f"u{n}"} for n in range(1, count + 1)])


def test_an_in_list_of_any_length_is_asked_as_one_statement(db: Database) -> None:
    _add_users(db, 5)
    with db.read() as conn:
        assert _NAMES.scalars(conn, {"ids": [4, 2]}) == ["U2", "U4"]
        assert _NAMES.scalars(conn, {"ids": (1, 2, 3, 5)}) == ["U1", "U2", "U3", "U5"]
        assert _NAMES.scalars(conn, {"ids": []}) == []  # IN (NULL): nothing, not an error
        assert _BY_NAME_AND_IDS.scalars(conn, {"name": "U3", "ids": [1, 3]}) == [3]


def test_a_percent_sign_in_a_statement_is_literal_on_both_databases(db: Database) -> None:
    _add_users(db, 2)
    with db.read() as conn:
        like = Statement("SELECT count(*) FROM users WHERE name LIKE 'U%' AND id <> :id")
        assert like.scalar(conn, {"id": 1}) == 1


def test_a_number_too_large_for_the_database_is_unstorable_and_nothing_is_saved(db: Database) -> None:
    with pytest.raises(Unstorable), db.write() as conn:
        _ADD.run(conn, {"id": 2**70, "name": "big", "uid": "big"})
    with db.read() as conn:
        assert Statement("SELECT count(*) FROM users").scalar(conn) == 0


def test_a_duplicate_key_is_an_integrity_violation(db: Database) -> None:
    _add_users(db, 1)
    with pytest.raises(IntegrityViolation), db.write() as conn:
        _ADD.run(conn, {"id": 1, "name": "again", "uid": "again"})
