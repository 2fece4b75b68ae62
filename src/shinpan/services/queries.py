"""Reading an event: players, a player's history, the rulings feed, matches."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypedDict

from shinpan.engine.event_rules import RulingState, status_once_confirmed
from shinpan.errors import NotFound
from shinpan.services.context import load_event, stamp
from shinpan.services.search import PlayerView

# Player search moved to shinpan.services.search (an index the ledger keeps current).
from shinpan.services.search import Roster as Roster
from shinpan.services.search import find_players as find_players
from shinpan.services.search import roster as roster
from shinpan.services.search import with_seats as with_seats
from shinpan.services.shapes import (
    AppealListed,
    MatchListed,
    PlayerHistory,
    RoundMatches,
    RulingInFeed,
    RulingListed,
    StatementListed,
    appeal_listed,
    match_listed,
    ruling_listed,
    statement_listed,
)
from shinpan.store import appeals as stored_appeals
from shinpan.store import feed
from shinpan.store import matches as stored_matches
from shinpan.store import players as stored_players
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.feed import NamedRuling, RulingRow
from shinpan.store.matches import MatchRecord

if TYPE_CHECKING:
    from shinpan.guideline import Rulebook


def awaiting_status(
    book: Rulebook, penalties: list[str], effects: list[str], state: RulingState
) -> str | None:
    """D17: the status a ruling that waits for the head judge gives its player once confirmed
    (``ejected``, ``disqualified``), or None: asked of what its penalties do in the event's
    guideline (``book``), whatever the file calls them."""
    status = status_once_confirmed(book.acts([*penalties, *effects]), state)
    return None if status is None else status.value


def ruling_dict(row: RulingRow, book: Rulebook) -> RulingListed:
    """A ruling as the CLI's JSON and the API give it (``book``: the event's guideline)."""
    penalties, effects = json.loads(row.penalties), json.loads(row.effects)
    return ruling_listed(row, penalties, effects, awaiting_status(book, penalties, effects, row.state))


def _player(row: Any) -> PlayerView:
    return PlayerView(row.number, row.name, row.reading, row.club, row.status)


def get_player(conn: Connection, event_id: int, number: str) -> PlayerView:
    row = stored_players.player(conn, event_id, number)
    if row is None:
        raise NotFound("no player {player} in event {event}", player=number, event=event_id)
    return _player(row)


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
        "rulings": [ruling_dict(r, book) for r in rows],
        "matches": [match_dict(m, won.get((m.round, m.table_no), {})) for m in games],
    }


def match_dict(m: MatchRecord, duel_winners: dict[int, str | None]) -> MatchListed:
    return match_listed(m, duel_winners)


def _with_name(found: NamedRuling, book: Rulebook) -> RulingInFeed:
    return {**ruling_dict(found.ruling, book), "player_name": found.player_name}


def rulings_feed(
    db: Database,
    event_id: int,
    *,
    state: RulingState | None = None,
    limit: int = 100,
    before: int | None = None,
) -> list[RulingInFeed]:
    """The newest rulings first; ``state='pending'`` is the confirmation queue."""
    with db.read() as conn:
        book = load_event(conn, event_id).book
        rows = feed.feed(conn, event_id, state=state, limit=limit, before=before)
    return [_with_name(r, book) for r in rows]


def rulings_recorded_today(
    db: Database, event_id: int, judge: str, now: datetime | None = None
) -> list[RulingInFeed]:
    """What ``judge`` recorded today (the event's day, in its time zone), newest first, each
    as it stands now: a record sent later from a phone that was offline is among them once
    it arrives (it is recorded then, by the judge who saved it)."""
    from shinpan.reports.common import zone_of  # start-up: most reads need no reports

    with db.read() as conn:
        event = load_event(conn, event_id)
        local = (now or datetime.now(UTC)).astimezone(zone_of(event.time_zone))
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        rows = feed.judge_rulings(conn, event_id, judge, stamp(midnight))
    return [_with_name(r, event.book) for r in rows]


def added_by_correction(db: Database, event_id: int, entry: int) -> int | None:
    """D16: the ruling whose correction added the rulings of this entry, if one did."""
    from shinpan.store.reports import added_after  # start-up: most reads need no reports

    with db.read() as conn:
        return added_after(conn, event_id, entry)


def rederived_by(db: Database, event_id: int, number: int) -> tuple[list[int], list[int]]:
    """D16: the additional rulings a correction of this ruling voided, and those it added."""
    from shinpan.store.reports import rederived_by as found  # start-up

    with db.read() as conn:
        return found(conn, event_id, number)


class RederivedRuling(TypedDict):
    """An additional ruling a correction voided or added (D16), as the answer names it."""

    number: int
    player: str
    player_name: str | None
    rule: str
    penalties: list[str]


class Rederived(TypedDict):
    """What a correction voided and added of the additional rulings (D16)."""

    voided: list[RederivedRuling]
    added: list[RederivedRuling]


def rederived_since(
    db: Database, event_id: int, number: int, before: tuple[list[int], list[int]]
) -> Rederived:
    """D16: the additional rulings a correction of this ruling voided and added since
    ``before`` (:func:`rederived_by` read before it), each with its player, rule and penalties."""
    voided, added = rederived_by(db, event_id, number)

    def named(now: list[int], was: list[int]) -> list[RederivedRuling]:
        rows = [get_ruling(db, event_id, n) for n in now if n not in was]
        names = player_names(db, event_id, sorted({r["player"] for r in rows}))
        return [
            RederivedRuling(
                number=r["number"],
                player=r["player"],
                player_name=names.get(r["player"]),
                rule=r["rule"],
                penalties=list(r["penalties"]),
            )
            for r in rows
        ]

    return Rederived(voided=named(voided, before[0]), added=named(added, before[1]))


def get_ruling(db: Database, event_id: int, number: int) -> RulingListed:
    with db.read() as conn:
        book = load_event(conn, event_id).book
        row = feed.ruling(conn, event_id, number)
    if row is None:
        raise NotFound("no ruling {number} in event {event}", number=number, event=event_id)
    return ruling_dict(row, book)


def round_matches(db: Database, event_id: int, round_no: int | None = None) -> RoundMatches:
    """A round's matches with their duels (the scorekeeper's view); default: the current round."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        number = round_no or event.current_round
        ms = stored_matches.round_matches(conn, event_id, number)
        winners: dict[int, dict[int, str | None]] = {}
        for d in stored_matches.round_duels(conn, event_id, number):
            winners.setdefault(d.table_no, {})[d.duel] = d.winner
    return {"round": number, "matches": [match_dict(m, winners.get(m.table_no, {})) for m in ms]}


def appeals_of(db: Database, event_id: int) -> list[AppealListed]:
    """The event's appeals, open first, each with the ruling appealed against."""
    with db.read() as conn:
        heard = stored_appeals.appeals_heard(conn, event_id)
    found = [appeal_listed(a) for a in heard]
    return sorted(found, key=lambda a: (a["outcome"] is not None, a["entry"]))


def statements_of(db: Database, event_id: int) -> list[StatementListed]:
    """Statements of the people involved (D14), in the order they were given."""
    with db.read() as conn:
        given = stored_appeals.statements(conn, event_id)
    return [statement_listed(s) for s in given]


def time_zone_of(db: Database, event_id: int) -> str:
    """The zone every time of the event is shown in."""
    with db.read() as conn:
        return load_event(conn, event_id).time_zone


def ledger_head(db: Database, event_id: int) -> int:
    """The number of the event's newest ledger entry (0 before the first)."""
    with db.read() as conn:
        return feed.ledger_head(conn, event_id)


def player_names(db: Database, event_id: int, numbers: list[str]) -> dict[str, str]:
    """Players' names by number (those the event has)."""
    with db.read() as conn:
        return stored_players.names(conn, event_id, numbers)


def involved(db: Database, event_id: int, ruling: RulingListed) -> list[PlayerView]:
    """The players a ruling concerns: its player, and the opponent at its table, who may
    appeal it (a judge records the appeal)."""
    with db.read() as conn:
        numbers = [ruling["player"]]
        if ruling["round"] is not None and ruling["table"] is not None:
            seats = stored_matches.seated(conn, event_id, ruling["round"], ruling["table"])
            if seats is not None:
                numbers += [p for p in seats if p and p != ruling["player"]]
        found = stored_players.players_numbered(conn, event_id, numbers)
    return [_player(found[n]) for n in numbers if n in found]
