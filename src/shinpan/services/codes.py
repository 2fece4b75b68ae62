"""The codes printed on the slips, made with the installation's code key.

The code itself is :func:`shinpan.tournament.codes.match_code` (a table's, for a winner's
report, T11) or :func:`~shinpan.tournament.codes.player_code` (a player's registration
code), pure functions of a secret. The secret is an HMAC of the event's ``uid`` keyed with
the installation's code key (:func:`code_key`): a random key made at first use and kept in
a file beside the installation's seal key (:func:`shinpan.services.seal.key_dir`), never in
the database nor in an export. So whoever holds an export (a scorekeeper may make one)
cannot make a code; the same installation prints the same codes again for a restored event,
and another installation prints other ones.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from pathlib import Path

from shinpan.errors import NotFound, StorageError
from shinpan.services.seal import key_dir, made_private
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.events import identity
from shinpan.tournament.codes import code_matches, match_code, player_code, player_code_matches

CODE_KEY_FILE = "shinpan-codes.key"
KEY_BYTES = 32


def code_key(db: Database) -> bytes:
    """The installation's code key, made (mode 0600) the first time it is asked for."""
    folder = key_dir(db)
    path = folder / CODE_KEY_FILE
    try:
        if path.exists():
            return _read(path)
        key = secrets.token_bytes(KEY_BYTES)
        if not made_private(path, f"{key.hex()}\n".encode("ascii")):
            return _read(path)
        return key
    except OSError as e:
        raise StorageError(f"cannot read or make the code key in {folder}: {e.strerror or e}") from None


def _read(path: Path) -> bytes:
    text = path.read_text(encoding="ascii").strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 16:
        raise StorageError(f"the code key {path} is not a key shinpan wrote")
    return key


def event_secret(db: Database, conn: Connection, event_id: int) -> str:
    """The secret the event's codes are made from: its uid, keyed with the installation's key."""
    found = identity(conn, event_id)
    if found is None:
        raise NotFound("no event {event}", event=event_id)
    return hmac.new(code_key(db), f"shinpan codes\x00{found.uid}".encode(), hashlib.sha256).hexdigest()


def match_codes(
    db: Database, conn: Connection, event_id: int, round_no: int, tables: Iterable[int]
) -> dict[int, str]:
    """The code of each listed table of the round, by table."""
    secret = event_secret(db, conn, event_id)
    return {table: match_code(secret, round_no, table) for table in tables}


def code_is_right(
    db: Database, conn: Connection, event_id: int, round_no: int, table: int, typed: str
) -> bool:
    """Whether ``typed`` is the code printed on that table's slip."""
    return code_matches(event_secret(db, conn, event_id), round_no, table, typed)


def player_codes(db: Database, conn: Connection, event_id: int, players: Iterable[str]) -> dict[str, str]:
    """The registration code of each listed player, by player id (printed on their slip)."""
    secret = event_secret(db, conn, event_id)
    return {player: player_code(secret, player) for player in players}


def player_code_is_right(db: Database, conn: Connection, event_id: int, player_id: str, typed: str) -> bool:
    """Whether ``typed`` is the registration code printed on that player's slip."""
    return player_code_matches(event_secret(db, conn, event_id), player_id, typed)
