"""Finding a player the way a judge types, from an index the ledger keeps current.

Each event's players (number, names, readings, romaji forms: the search key of migration
0006) and the current round's tables are held in memory, one :class:`PlayerIndex` per
database in the process. A change of players or pairings (the kinds in ``ROSTER_KINDS``)
told by :mod:`shinpan.store.notices` marks the event's index stale, and the next search
rebuilds it from one read; any other change only moves the index's head. While the web
app relays other processes' changes (``LedgerWatch.relayed``) a search asks the database
nothing; otherwise (a command, a test) it first asks how far the ledger has grown.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from shinpan import romaji
from shinpan.guideline.search import normalize
from shinpan.store.connection import Connection
from shinpan.store.db import Database, chunks
from shinpan.store.notices import Change, watch_of
from shinpan.store.players import names as player_names
from shinpan.store.search import RosterRead, Table, read_roster, tables_of
from shinpan.views.players import PlayerJson as PlayerJson
from shinpan.views.players import PlayerView

__all__ = [
    "ROSTER_KINDS",
    "PlayerIndex",
    "PlayerView",
    "Roster",
    "find_players",
    "index_of",
    "roster",
    "with_seats",
]

PIECES_ASKED = 4  # pieces of one form of a word looked up at most

# What changes a player, a search key or a seat: these rebuild the event's index.
ROSTER_KINDS = frozenset(
    {
        "event.created",
        "players.imported",
        "player.dropped",
        "player.status",
        "round.paired",
        "pairing.edited",
        "player.corrected",
    }
)


@dataclass(frozen=True)
class Roster:
    """Every player of the event with their search key and seat: what the record screen keeps
    to find players offline (the same keys :func:`find_players` matches)."""

    round: int
    players: list[tuple[PlayerView, str]]


def _table_asked(word: str) -> int | None:
    """A table number: ``12``, ``t12``, ``卓12`` (the query normalised)."""
    digits = word[1:] if word.startswith(("t", "卓")) else word
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 6 else None


def _forms(word: str) -> list[str]:
    """One word of a query as it is matched: as typed, and in romaji's one spelling."""
    spelt = romaji.spelling(word) if romaji.is_romaji(word) else ""
    return [word] + ([spelt] if spelt not in ("", word) else [])


class EventRoster:
    """One event's players in number order, seated, with their keys in one text to search."""

    def __init__(self, read: RosterRead) -> None:
        self.head, self.round = read.head, read.round
        self.stale = False
        rows = sorted(read.players, key=lambda r: r.number)
        names = {r.number: r.name for r in rows}
        seats = _seats(read.tables)
        self.tables: dict[int, list[str]] = {t.table: [p for p in (t.a, t.b) if p] for t in read.tables}
        self.players: list[PlayerView] = [
            _seated(PlayerView(r.number, r.name, r.reading, r.club, r.status), seats, names) for r in rows
        ]
        self.keys = [r.search for r in rows]
        self.written: list[bytes | None] = [None] * len(rows)  # each player as JSON, once asked
        self.at = {p.number: i for i, p in enumerate(self.players)}
        self.text = "\0".join(self.keys)  # a form never spans two players: no key holds NUL
        self.starts: list[int] = []
        offset = 0
        for key in self.keys:
            self.starts.append(offset)
            offset += len(key) + 1
        # A piece of a key (one or two characters) with the players whose key holds it, in
        # number order: found through the text the first time a search asks, then kept (a
        # search looks up its pieces instead of reading every key; building them all at
        # once held the interpreter for tens of milliseconds at every new pairing).
        self.pieces: dict[str, list[int]] = {}
        self.drawn: dict[Any, Any] = {}  # what the web app draws of this index, kept with it

    def _holders(self, piece: str) -> list[int]:
        found = self.pieces.get(piece)
        if found is not None:
            return found
        found = []
        if "\0" in piece:  # typed, perhaps; never in a key (the text joins the keys with it)
            return found
        starts, find = self.starts, self.text.find
        pos = find(piece)
        while pos != -1:
            i = bisect_right(starts, pos) - 1
            found.append(i)
            if i + 1 >= len(starts):
                break
            pos = find(piece, starts[i + 1])
        if found:  # a piece some key holds: there are only so many (what is typed is unbounded)
            self.pieces[piece] = found
        return found

    def _holding(self, form: str, most: int | None = None) -> set[int]:
        """The players whose key contains ``form``, in number order: the first ``most`` of
        them if given. A form of one or two characters is a piece; a longer one is looked
        for in the keys of the players holding its rarest piece."""
        if len(form) <= 2:
            return set(self._holders(form)[:most])
        # At most PIECES_ASKED pieces, spread over the form: a long form typed once costs no
        # more than a short one (each piece not kept yet is one pass through the text).
        last = len(form) - 2
        at = sorted({last * k // (PIECES_ASKED - 1) for k in range(PIECES_ASKED)})
        holders: list[list[int]] = []
        for j in at:
            holders.append(self._holders(form[j : j + 2]))
            if not holders[-1]:  # a piece no key holds: neither does the form
                return set()
        found: set[int] = set()
        keys = self.keys
        for i in min(holders, key=len):
            if form in keys[i]:
                found.add(i)
                if len(found) == most:
                    break
        return found

    def find(self, query: str, limit: int = 20) -> list[PlayerView]:
        """As :func:`find_players`: the table's two players first, then the id typed
        exactly, then every player matching every word, in number order."""
        return [self.players[i] for i in self._found(query, limit)]

    def find_json(self, query: str, limit: int = 20) -> bytes:
        """What :meth:`find` finds as a JSON array, each player written once per index (the
        search answers every keystroke: most of its time went to writing the same players)."""
        written = self.written
        for i in (found := self._found(query, limit)):
            if written[i] is None:
                written[i] = json.dumps(
                    self.players[i].as_json(), ensure_ascii=False, allow_nan=False, separators=(",", ":")
                ).encode("utf-8")
        return b"[" + b",".join(written[i] or b"" for i in found) + b"]"

    def _found(self, query: str, limit: int) -> list[int]:
        words = [w for w in (normalize(w) for w in query.split()) if w]
        chosen: list[int] = []
        table = _table_asked(words[0]) if len(words) == 1 else None
        if table is not None and self.round:
            chosen += [self.at[p] for p in self.tables.get(table, ()) if p in self.at]
        exact = self.at.get(query.strip()) if query.strip() else None
        if exact is not None:
            chosen.append(exact)
        if words:
            # One word: its first ``limit`` players in number order are all the answer needs
            # (a family name typed at a round's start matches hundreds at a big event).
            most = limit if len(words) == 1 else None
            matching: set[int] | None = None
            for word in words:
                forms = _forms(word)
                if matching is not None:  # the next words only narrow the players found so far
                    keys, narrowed = self.keys, set()
                    for form in forms:
                        narrowed |= {i for i in matching if form in keys[i]}
                    matching = narrowed
                else:
                    matching = set()
                    for form in forms:
                        matching |= self._holding(form, most)
                if not matching:
                    break
            chosen += sorted(matching or ())[:limit]
        else:
            chosen += range(min(limit, len(self.players)))
        return list(dict.fromkeys(chosen))[:limit]

    def roster(self) -> Roster:
        return Roster(self.round, list(zip(self.players, self.keys, strict=True)))


class PlayerIndex:
    """The player index of one database in this process (see the module)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.watch = watch_of(db)
        self.events: dict[int, EventRoster] = {}
        self._lock = threading.Lock()
        self.watch.subscribers.append(self._changed)

    def _changed(self, change: Change) -> None:
        kept = self.events.get(change.event_id)
        if kept is None or change.head <= kept.head:
            return
        if kept.head < change.after or change.kinds is None or not change.kinds.isdisjoint(ROSTER_KINDS):
            kept.stale = True
        else:
            kept.head = change.head

    def ready(self, event_id: int) -> EventRoster | None:
        """The event's index if it can answer now without asking the database."""
        kept = self.events.get(event_id)
        if kept is None or kept.stale or not self.watch.relayed:
            return None
        return kept

    def current(self, event_id: int) -> EventRoster:
        """The event's index, caught up with the ledger (may read the database)."""
        if not self.watch.relayed and event_id in self.events:
            self.watch.catch_up([event_id])  # other processes' changes, if nobody relays them
        kept = self.events.get(event_id)
        if kept is not None and not kept.stale:
            return kept
        with self._lock:
            kept = self.events.get(event_id)
            if kept is not None and not kept.stale:
                return kept
            with self.db.read() as conn:
                kept = EventRoster(read_roster(conn, event_id))
            self.events[event_id] = kept
        self.watch.follow(event_id, kept.head)
        read = kept

        def settle(head: int, kinds: frozenset[str] | None) -> None:
            """The ledger grew while it was read (rulings come all the time at a big event):
            kept if nothing since changes a player or a seat, else the next search reads again."""
            if head <= read.head:
                return
            if kinds is None or not kinds.isdisjoint(ROSTER_KINDS):
                read.stale = True
            else:
                read.head = head

        self.watch.grown_since(event_id, kept.head, settle)
        return kept


def index_of(db: Database) -> PlayerIndex:
    """The database's player index in this process."""
    return db.kept.of(PlayerIndex, lambda: PlayerIndex(db))


def find_players(db: Database, event_id: int, query: str, limit: int = 20) -> list[PlayerView]:
    """By table number (``t12`` or a number that is a table), event id, or name in kanji, kana
    or romaji (Hepburn or Kunrei, long vowels or not, either name first); each with their
    table, seat and opponent in the current round."""
    return index_of(db).current(event_id).find(query, limit)


def roster(db: Database, event_id: int) -> Roster:
    return index_of(db).current(event_id).roster()


Seat = tuple[int, str, str | None]  # the table, the side ("a" or "b"), the opponent (None: a bye)


def _seats(tables: Iterable[Table]) -> dict[str, Seat]:
    """Where each player of ``tables`` sits: table, side and opponent."""
    seats: dict[str, Seat] = {}
    for t in tables:
        seats[t.a] = (t.table, "a", t.b)
        if t.b:
            seats[t.b] = (t.table, "b", t.a)
    return seats


def _seated(view: PlayerView, seats: Mapping[str, Seat], names: Mapping[str, str]) -> PlayerView:
    """The player as a search shows them: at their seat (the opponent by name too), if seated."""
    seat = seats.get(view.number)
    if seat is None:
        return view
    table, side, opponent = seat
    return replace(
        view,
        table=table,
        seat=side,
        opponent=opponent,
        opponent_name=names.get(opponent) if opponent else None,
    )


def with_seats(conn: Connection, event_id: int, round_no: int, found: list[PlayerView]) -> list[PlayerView]:
    """The players with their table, seat and opponent (by name too) in round ``round_no``."""
    if not round_no or not found:
        return found
    seats = _seats(
        t for chunk in chunks([p.number for p in found]) for t in tables_of(conn, event_id, round_no, chunk)
    )
    names = player_names(conn, event_id, sorted({o for _, _, o in seats.values() if o}))
    return [_seated(p, seats, names) for p in found]
