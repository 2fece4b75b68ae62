"""Publishing an event to its players (T12): the head judge opens its players' pages at an
unguessable address, chooses what names they show, or closes them.

The address is ``/p/<token>``; the token is kept in the ledger (an ``event.published``
entry), so the address stays the same across restarts and in an export. Publishing again
keeps the token (the QR codes on the wall and the slips stay good) and may change the
names; unpublishing forgets it: the address answers nothing, and publishing once more
makes a new one.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import TypedDict, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import EventPublished
from shinpan.entries.public import NAME_MODES
from shinpan.errors import InvalidInput, NotFound
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import load_event
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender
from shinpan.store.public import Published, published, published_tokens

TOKEN_BYTES = 16  # 128 random bits: 22 characters in the address
RESCAN_SECONDS = 1.0  # an unknown token looks through the ledger at most this often

__all__ = ["Published", "event_of_token", "players_url", "publication", "publish"]


def players_url(token: str) -> str:
    """The path of the players' pages, under the server's address."""
    return f"/p/{token}"


def players_address(db: Database, event_id: int) -> str | None:
    """The path of the event's players' pages, if it is published."""
    with db.read() as conn:
        found = publication(conn, event_id)
    return players_url(found.token) if found.token else None


def publication(conn: Connection, event_id: int) -> Published:
    """What the event shows its players now (not published: token None)."""
    load_event(conn, event_id)  # 404 for an unknown event
    return published(conn, event_id) or Published(None, "names")


class PublicationJson(TypedDict):
    """What the event shows its players: whether it is published, where, and how names show."""

    published: bool
    url: str | None
    names: str
    winner_report: bool


def publication_json(found: Published) -> PublicationJson:
    """As the CLI's ``--json`` and the API give it."""
    return {
        "published": found.token is not None,
        "url": players_url(found.token) if found.token else None,
        "names": found.names,
        "winner_report": found.winner_report,
    }


def publish(
    db: Database,
    event_id: int,
    *,
    names: str | None = None,
    off: bool = False,
    winner_report: bool | None = None,
    token: str | None = None,
    **asked: Unpack[Asked],
) -> Published:
    """The head judge publishes the event (``names``: ``names`` or ``handles``; not given:
    as it was, else ``names``) or, ``off``, unpublishes it. ``winner_report``: whether
    winners report their results on the players' pages (not given: as it was, else not).
    ``token``: an import's, for an event published without one yet (else a new one is drawn)."""
    if names is not None and names not in NAME_MODES:
        raise InvalidInput("names are shown as names or handles, not {value}", field="names", value=names)

    given = token

    def act(conn: Connection, ap: Appender) -> Published:
        before = published(conn, event_id) or Published(None, "names")
        chosen = names or before.names
        token = None if off else (before.token or given or secrets.token_urlsafe(TOKEN_BYTES))
        reports = False if off else (before.winner_report if winner_report is None else winner_report)
        if (token, chosen, reports) != tuple(before):
            ap.append(EventPublished(token, chosen, reports))
        return Published(token, chosen, reports)

    payload = {
        "names": names,
        "off": off,
        **({} if winner_report is None else {"winner_report": winner_report}),
    }
    done = run_asked(
        db, event_id, Action.manage, payload, act, lambda conn, _entry: publication(conn, event_id), **asked
    )
    if done.token is not None:
        _tokens_of(db).known[done.token] = event_id
    return done


class _Tokens:
    """Which event each token was published for, kept by the process (a token belongs to
    one event for good). A token not known is looked for in the ledger, at most once every
    RESCAN_SECONDS, so that guessed addresses cost the database little."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.scanned = float("-inf")
        self.lock = threading.Lock()

    def event_of(self, db: Database, token: str) -> int | None:
        found = self.known.get(token)
        if found is not None:
            return found
        with self.lock:
            if token not in self.known and time.monotonic() - self.scanned >= RESCAN_SECONDS:
                self.scanned = time.monotonic()
                with db.read() as conn:
                    self.known.update(published_tokens(conn))
            return self.known.get(token)


def _tokens_of(db: Database) -> _Tokens:
    return db.kept.of(_Tokens, _Tokens)


def event_of_token(db: Database, token: str) -> tuple[int, Published]:
    """The event published at ``/p/<token>`` and how; :class:`NotFound` when no event is
    published there now (never was, or unpublished since)."""
    if not (0 < len(token) <= 64) or not token.isascii():
        raise NotFound("nothing is published at this address")
    event_id = _tokens_of(db).event_of(db, token)
    if event_id is not None:
        with db.read() as conn:
            now = published(conn, event_id)
        if now is not None and now.token is not None and secrets.compare_digest(now.token, token):
            return event_id, now
    raise NotFound("nothing is published at this address")
