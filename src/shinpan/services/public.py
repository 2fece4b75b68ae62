"""What an event's players see (T12): read-only, without an account.

Their own table (found by name, reading or handle), every table of the current round, the
standings after the last ended round (T6), the playoff bracket, and the round's clock for
the wall. Names are the event's choice (names with readings, or the handles the players
registered; a player without a handle shows their id). Nothing a judge records is shown:
no penalty, no ruling, no judge; a player whose status a ruling changed (withdrawn,
ejected, disqualified) is simply not listed as playing, nor in the standings.

Players and seats come from the judges' player index (:mod:`shinpan.services.search`),
read only.

While the web app relays the ledger's changes, each published event's view is read once
and kept (:func:`public_event`, :func:`kept_event`) until a change it may show comes (any
kind but ``UNSEEN_KINDS``, or one not known) or the player index reads the event again: at a
round's pairing 2,000 phones ask at once, and each answer is then drawn from memory.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from shinpan.engine.event_rules import RoundState
from shinpan.guideline.search import normalize
from shinpan.services.closed import state_of
from shinpan.services.context import load_event, parse_stamp, stamp
from shinpan.services.playoff import final_placings, read_bracket
from shinpan.services.publish import event_of_token
from shinpan.services.rounds import read_clock
from shinpan.services.search import EventRoster, PlayerView, index_of
from shinpan.store.db import Database
from shinpan.store.notices import Change, watch_of
from shinpan.store.public import handles, last_ended
from shinpan.store.rounds import round_of
from shinpan.tournament.playoff import final_decided, stage_name
from shinpan.views.standings import chain_cells, read_standings

HIDDEN = frozenset({"withdrawn", "ejected", "disqualified"})  # statuses only a ruling gives
MOST_FOUND = 20
# What a kept view does not show (the standings, the bracket and the clock are read for
# their own pages): what judges record and decide, results, time given. Every other kind,
# and any not known, has the view read again.
UNSEEN_KINDS = frozenset(
    {
        "ruling.recorded",
        "ruling.confirmed",
        "ruling.deviated",
        "ruling.voided",
        "deadline.done",
        "statement",
        "appeal.filed",
        "appeal.decided",
        "judge.added",
        "judge.claimed",
        "judge.seated",
        "duel.result",
        "match.result",
        "match.extended",
        "result.reported",
        "time.extended",
        "loss.carried",
        "loss.settled",
    }
)


class TableEnd(TypedDict):
    table: int
    ends_at: str | None


class WallClock(TypedDict):
    """The current round's clock as the wall shows it: no reasons, no judges."""

    round: int
    state: RoundState
    ends_at: str | None
    now: str
    tables: list[TableEnd]


@dataclass(frozen=True)
class Shown:
    """A player as the players' pages show them."""

    label: str
    reading: str = ""  # only where names are shown
    numbered: bool = False  # a player with no handle, on handle-only pages: shown by their number


@dataclass(frozen=True)
class Seat:
    """A player's seat in the current round: ``table`` None and ``opponent`` None for a bye;
    ``table`` None with no bye: not paired this round."""

    player: Shown
    table: int | None
    opponent: Shown | None
    bye: bool = False


@dataclass(frozen=True)
class TableShown:
    table: int
    a: Shown | None
    b: Shown | None


@dataclass(frozen=True)
class StandingShown:
    rank: int | None
    player: Shown
    points: int
    wins: int
    losses: int
    draws: int
    tiebreakers: tuple[tuple[str, str], ...] = ()  # the event's chain (T9): (key, value), in order


@dataclass(frozen=True)
class BoutShown:
    table: int | None
    a: Shown | None
    b: Shown | None
    winner: Shown | None
    third_place: bool


class PublicEvent:
    """One published event as its players see it, read once for one page."""

    def __init__(self, db: Database, token: str) -> None:
        self.db = db
        self.event_id, published = event_of_token(db, token)
        self.token = token
        self.by_handles = published.names == "handles"
        with db.read() as conn:
            event = load_event(conn, self.event_id)
            self.name, self.time_zone = event.name, event.time_zone
            self.handles = handles(conn, self.event_id) if self.by_handles else {}
            self.last_ended = last_ended(conn, self.event_id)
            self.seal_state = state_of(conn, self.event_id)  # sealed, or reopened since: said on every page
        self.roster: EventRoster = index_of(db).current(self.event_id)
        self.round = self.roster.round
        self.views = {p.number: p for p in self.roster.players}
        with db.read() as conn:
            r = round_of(conn, self.event_id, self.round) if self.round else None
        self.round_state = r.state if r is not None else RoundState.none
        # What the web pages draw of this view, kept with it: by what it is and its language
        # (("home", "ja") → the home page); the pages know what they kept (isinstance).
        self.drawn: dict[tuple[str, str], object] = {}
        self.drawing = threading.Lock()  # held while a page draws into ``drawn``: once each

    def shown(self, number: str) -> Shown | None:
        """How the player is shown; None for a player a ruling removed (or not known)."""
        view = self.views.get(number)
        if view is None or view.status in HIDDEN:
            return None
        if self.by_handles:
            handle = self.handles.get(number)
            return Shown(handle) if handle else Shown(number, numbered=True)
        return Shown(view.name, view.reading)

    def _seat(self, view: PlayerView) -> Seat | None:
        me = self.shown(view.number)
        if me is None:
            return None
        if view.table is None:
            return Seat(me, None, None)
        if view.opponent is None:
            return Seat(me, None, None, bye=True)
        return Seat(me, view.table, self.shown(view.opponent))

    def find(self, query: str) -> list[Seat]:
        """The players a search finds, each with their seat: by name, reading or id where
        names are shown; by handle or id where handles are."""
        return [seat for seat in (self._seat(v) for v in self.found(query)) if seat is not None]

    def seat(self, number: str) -> Seat | None:
        """The player's seat as shown (None: a player a ruling removed, or not known)."""
        view = self.views.get(number)
        return self._seat(view) if view is not None else None

    def found(self, query: str) -> list[PlayerView]:
        """The players a search finds (:meth:`find`), as the index holds them."""
        query = query.strip()
        if not query:
            return []
        if self.by_handles:
            words = [w for w in (normalize(w) for w in query.split()) if w]
            found = [
                self.views[n]
                for n in sorted(self.views)
                if n == query or (words and all(w in normalize(self.handles.get(n, n)) for w in words))
            ][:MOST_FOUND]
        else:
            found = self.roster.find(query, MOST_FOUND)
        return found

    def tables(self) -> list[TableShown]:
        """Every table of the current round, in table order (a bye is not a table)."""
        out = []
        for table, players in sorted(self.roster.tables.items()):
            if len(players) < 2:
                continue
            out.append(TableShown(table, self.shown(players[0]), self.shown(players[1])))
        return out

    def byes(self) -> list[Shown]:
        out = []
        for _table, players in sorted(self.roster.tables.items()):
            shown = self.shown(players[0]) if len(players) == 1 else None
            if shown is not None:
                out.append(shown)
        return out

    def standings(self) -> tuple[int | None, list[StandingShown]]:
        """The standings after the last ended round, and that round (the playoff ranks by
        its bracket, T10: the Swiss's last); (None, []) when no round has ended."""
        if self.last_ended is None:
            return None, []
        with self.db.read() as conn:
            table = read_standings(conn, self.event_id, self.last_ended)
        out = []
        for s in table.rows:
            shown = self.shown(s.player)
            if shown is None or s.status.value in HIDDEN:
                continue
            chain = tuple(chain_cells(s, table.format))
            out.append(StandingShown(s.rank, shown, s.points, s.wins, s.losses, s.draws, chain))
        return table.round, out

    def bracket(self) -> list[tuple[int, tuple[str, str], list[BoutShown]]]:
        """The playoff's rounds, each with its name (準決勝, 決勝…, T10; Japanese and English)
        and its matches ([] without a playoff)."""
        with self.db.read() as conn:
            found = read_bracket(conn, self.event_id)
        if found is None:
            return []
        size = 2 * len(found.rounds[0]) if found.rounds else 0
        rounds = []
        for i, bouts in enumerate(found.rounds):
            shown = [
                BoutShown(
                    b.table,
                    self.shown(b.a.player) if b.a else None,
                    self.shown(b.b.player) if b.b else None,
                    self.shown(b.winner) if b.winner else None,
                    b.third_place,
                )
                for b in bouts
            ]
            rounds.append((found.first + i, stage_name(size, i), shown))
        return rounds

    def placings(self) -> list[tuple[int, Shown]]:
        """Once the playoff's final has its winner: the champion and the places the bracket
        decides (T10), best first; [] before (or without a playoff)."""
        with self.db.read() as conn:
            found = read_bracket(conn, self.event_id)
        if found is None or not found.rounds:
            return []
        size = 2 * len(found.rounds[0])
        if not final_decided(size, found.rounds):
            return []
        out = []
        for place, player in final_placings(self.db, self.event_id)[:size]:
            shown = self.shown(player)
            if shown is not None:
                out.append((place, shown))
        return out

    def clock(self, now: datetime | None = None) -> WallClock:
        """The current round's clock for the wall: its end, and each table whose own end
        is later (time a judge gave it), still playing. No reasons, no judges."""
        at = parse_stamp(stamp(now))
        if not self.round:
            return {"round": 0, "state": RoundState.none, "ends_at": None, "now": stamp(at), "tables": []}
        with self.db.read() as conn:
            c = read_clock(conn, self.event_id, self.round, at)
        extended: list[TableEnd] = [
            {"table": t.table, "ends_at": t.ends_at}
            for t in c.tables
            if c.state is RoundState.started
            and t.playing
            and t.extra_minutes > 0
            and t.ends_at
            and t.ends_at != c.ends_at
        ]
        return {
            "round": c.round,
            "state": c.state,
            "ends_at": c.ends_at,
            "now": stamp(at),
            "tables": extended,
        }


class _Kept:
    """The published events' views kept by this process, by token (see the module)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.watch = watch_of(db)
        self.index = index_of(db)
        self.changes = 0  # changes a view may show, of any event, heard so far
        self.views: dict[str, tuple[int, PublicEvent]] = {}
        self.lock = threading.Lock()
        self.reading = threading.Lock()
        self.watch.subscribers.append(self._changed)

    def _changed(self, change: Change) -> None:
        if change.kinds is None or not change.kinds <= UNSEEN_KINDS:
            with self.lock:
                self.changes += 1
                self.views.clear()

    def ready(self, token: str) -> PublicEvent | None:
        """The token's view if it is kept and current (no read)."""
        found = self.views.get(token)
        if found is None or found[0] != self.changes or not self.watch.relayed:
            return None
        view = found[1]
        return view if self.index.ready(view.event_id) is view.roster else None

    def view(self, token: str) -> PublicEvent:
        found = self.ready(token)
        if found is not None:
            return found
        # One read at a time: at a pairing the phones asking meanwhile wait for the first
        # one's view instead of each reading the event again (dozens of threads at once).
        with self.reading:
            found = self.ready(token)
            if found is not None:
                return found
            relayed, before = self.watch.relayed, self.changes
            view = PublicEvent(self.db, token)  # NotFound: nothing published there now
            if relayed:
                with self.lock:  # kept only if nothing it may show changed while it was read
                    if self.changes == before:
                        self.views[token] = (before, view)
            return view


def _kept_of(db: Database) -> _Kept:
    return db.kept.of(_Kept, lambda: _Kept(db))


def public_event(db: Database, token: str) -> PublicEvent:
    """The event published at ``/p/<token>`` as its players see it now: kept while the
    ledger's changes are relayed, else read (:class:`NotFound` when nothing is published there)."""
    return _kept_of(db).view(token)


def kept_event(db: Database, token: str) -> PublicEvent | None:
    """The event's view if it is kept and current: answered without reading (else None)."""
    return _kept_of(db).ready(token)
