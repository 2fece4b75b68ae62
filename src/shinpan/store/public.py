"""Typed reads for the players' pages (T12): the event's publication, the handles its
players registered, its last ended round. The publication and the handles are read from
their entries (nothing projects them)."""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.engine.event_rules import RoundState
from shinpan.store.connection import Connection, Statement

__all__ = ["Published", "handles", "last_ended", "published", "published_tokens"]

_PUBLISHED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'event.published' ORDER BY seq DESC LIMIT 1"
)
_TOKENS = Statement("SELECT event_id, body FROM entries WHERE kind = 'event.published'")
_IMPORTED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'players.imported' ORDER BY seq"
)
_CORRECTED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'player.corrected' ORDER BY seq"
)
_LAST_ENDED = Statement(
    f"SELECT MAX(number) FROM rounds WHERE event_id = :e AND state = '{RoundState.ended}'"
)


class Published(NamedTuple):
    """The event's last word on its players' pages: the token of their address (None:
    not published), what names they show (``names`` or ``handles``), and whether winners
    report their results there (T11)."""

    token: str | None
    names: str
    winner_report: bool = False


def published(conn: Connection, event_id: int) -> Published | None:
    """The event's publication as its last ``event.published`` entry wrote it (None: never)."""
    body = _PUBLISHED.scalar(conn, {"e": event_id})
    if body is None:
        return None
    b = json.loads(body)
    return Published(b.get("token"), str(b.get("names") or "names"), bool(b.get("winner_report")))


def published_tokens(conn: Connection) -> dict[str, int]:
    """Every token any event was ever published with, and its event (a token is never reused)."""
    found: dict[str, int] = {}
    for event_id, body in _TOKENS.all(conn):
        token = json.loads(body).get("token")
        if isinstance(token, str):
            found[token] = int(event_id)
    return found


def handles(conn: Connection, event_id: int) -> dict[str, str]:
    """Each player's registered handle, by player id (players without one left out)."""
    found: dict[str, str] = {}
    for (body,) in _IMPORTED.all(conn, {"e": event_id}):
        for p in json.loads(body).get("players", ()):
            if isinstance(p.get("handle"), str):
                found[str(p["number"])] = p["handle"]
    for (body,) in _CORRECTED.all(conn, {"e": event_id}):  # a handle given in a correction, later
        b = json.loads(body)
        if isinstance(b.get("handle"), str):
            found[str(b["player"])] = b["handle"]
    return found


def last_ended(conn: Connection, event_id: int) -> int | None:
    """The highest round that has ended (None: none yet)."""
    found = _LAST_ENDED.scalar(conn, {"e": event_id})
    return int(found) if found is not None else None
