"""A player's history in one event: who they are, their rulings (voided too), their matches."""

from __future__ import annotations

from shinpan.errors import NotFound
from shinpan.services.context import load_event
from shinpan.services.shapes import PlayerHistory, match_listed
from shinpan.store import feed
from shinpan.store import matches as stored_matches
from shinpan.store import players as stored_players
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.views.players import PlayerView
from shinpan.views.rulings import RulingView


def get_player(conn: Connection, event_id: int, number: str) -> PlayerView:
    row = stored_players.player(conn, event_id, number)
    if row is None:
        raise NotFound("no player {player} in event {event}", player=number, event=event_id)
    return PlayerView.of(row)


def player_history(db: Database, event_id: int, number: str) -> PlayerHistory:
    """Everything a player has in the event: status, rulings (voided too) and matches."""
    with db.read() as conn:
        book = load_event(conn, event_id).book
        player = get_player(conn, event_id, number)
        rows = feed.player_rulings(conn, event_id, number)
        games = stored_matches.player_matches(conn, event_id, number)
        won: dict[tuple[int, int], dict[int, str | None]] = {}
        for d in stored_matches.player_duels(conn, event_id, number):
            won.setdefault((d.round, d.table_no), {})[d.duel] = d.winner
    return {
        "player": player.as_json(),
        "rulings": [RulingView.of(r, book).as_json() for r in rows],
        "matches": [match_listed(m, won.get((m.round, m.table_no), {})) for m in games],
    }
