"""Reading an event: players, a player's history, the rulings feed, matches."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import or_, select

from shinpan import romaji
from shinpan.engine.event_rules import DISQUALIFICATION, Status, status_after, status_codes_now
from shinpan.errors import NotFound
from shinpan.guideline.search import normalize
from shinpan.services.context import load_event
from shinpan.store import appeals as stored_appeals
from shinpan.store import feed
from shinpan.store import matches as stored_matches
from shinpan.store import players as stored_players
from shinpan.store.connection import Connection
from shinpan.store.db import Database, chunks
from shinpan.store.feed import NamedRuling, RulingRow
from shinpan.store.matches import MatchRecord
from shinpan.store.schema import matches, players


def awaiting_status(penalties: list[str], effects: list[str], state: str) -> str | None:
    """D17: the status a ruling that waits for the head judge gives its player once confirmed
    (``ejected``, ``disqualified``), or None."""
    if state != "pending":
        return None
    codes = [*penalties, *effects]
    now = status_codes_now(codes, pending=True)
    status = status_after(c for c in codes if c not in now)
    return None if status is Status.active else status.value


def ruling_dict(row: RulingRow) -> dict[str, Any]:
    """A ruling as the CLI's JSON and the API give it."""
    penalties, effects = json.loads(row.penalties), json.loads(row.effects)
    return {
        "number": row.number,
        "entry": row.entry_seq,
        "player": row.player,
        "rule": row.rule,
        "offense": row.offense,
        "penalties": penalties,
        "guideline_penalties": json.loads(row.guideline_penalties),
        "effects": effects,
        "follow_up": row.follow_up,
        "needs_head_judge": row.needs_head_judge,
        "state": row.state,
        "deviation_reason": row.deviation_reason,
        "draft": row.draft,
        "trigger": row.trigger,
        "recorded_as": row.recorded_as,
        "round": row.round,
        "table": row.table_no,
        "judge": row.judge,
        "recorded_at": row.recorded_at,
        "source": row.source,
        "explanation_ja": row.explanation_ja,
        "explanation_en": row.explanation_en,
        "awaiting_status": awaiting_status(penalties, effects, row.state),
    }


@dataclass(frozen=True)
class PlayerView:
    """A player as a search shows them: with their seat in the current round, if paired."""

    number: str
    name: str
    reading: str
    club: str | None
    status: str
    table: int | None = None
    seat: str | None = None  # "a" or "b"
    opponent: str | None = None
    opponent_name: str | None = None

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _player(row: Any) -> PlayerView:
    return PlayerView(row.number, row.name, row.reading, row.club, row.status)


def get_player(conn: Connection, event_id: int, number: str) -> PlayerView:
    row = stored_players.player(conn, event_id, number)
    if row is None:
        raise NotFound("no player {player} in event {event}", player=number, event=event_id)
    return _player(row)


def _table_asked(word: str) -> int | None:
    """A table number: ``12``, ``t12``, ``卓12`` (the query normalised)."""
    digits = word[1:] if word.startswith(("t", "卓")) else word
    return int(digits) if digits.isdigit() and len(digits) <= 6 else None


def _word_matches(word: str) -> Any:
    """One word of a query against the search keys: as typed, and in romaji's one spelling."""
    spelt = romaji.spelling(word) if romaji.is_romaji(word) else ""
    forms = [word] + ([spelt] if spelt not in ("", word) else [])
    return or_(*(players.c.search.like(f"%{form}%") for form in forms))


def find_players(db: Database, event_id: int, query: str, limit: int = 20) -> list[PlayerView]:
    """By table number (``t12`` or a number that is a table), event id, or name in kanji, kana
    or romaji (Hepburn or Kunrei, long vowels or not, either name first); each with their
    table, seat and opponent in the current round."""
    words = [normalize(w) for w in query.split()]
    words = [w for w in words if w]
    with db.read() as conn:
        event = load_event(conn, event_id)
        found: list[Any] = []
        table = _table_asked(words[0]) if len(words) == 1 else None
        if table is not None and event.current_round:
            m = conn.execute(
                select(matches).where(
                    matches.c.event_id == event_id,
                    matches.c.round == event.current_round,
                    matches.c.table_no == table,
                )
            ).first()
            if m is not None:
                seated = [p for p in (m.player_a, m.player_b) if p]
                rows = conn.execute(
                    select(players).where(players.c.event_id == event_id, players.c.number.in_(seated))
                ).all()
                found += sorted(rows, key=lambda r: seated.index(r.number))  # seat A, then B
        if query.strip():
            found += conn.execute(
                select(players).where(players.c.event_id == event_id, players.c.number == query.strip())
            ).all()
        matching = select(players).where(players.c.event_id == event_id, *map(_word_matches, words))
        found += conn.execute(matching.order_by(players.c.number).limit(limit)).all()
        seen: dict[str, PlayerView] = {}
        for r in found:
            seen.setdefault(r.number, _player(r))
        shown = list(seen.values())[:limit]
        return with_seats(conn, event_id, event.current_round, shown)


def with_seats(conn: Connection, event_id: int, round_no: int, found: list[PlayerView]) -> list[PlayerView]:
    """The players with their table, seat and opponent (by name too) in round ``round_no``."""
    if not round_no or not found:
        return found
    numbers = [p.number for p in found]
    seats: dict[str, tuple[int, str, str | None]] = {}
    for chunk in chunks(numbers):
        for m in conn.execute(
            select(matches.c.table_no, matches.c.player_a, matches.c.player_b).where(
                matches.c.event_id == event_id,
                matches.c.round == round_no,
                or_(matches.c.player_a.in_(chunk), matches.c.player_b.in_(chunk)),
            )
        ):
            seats[m.player_a] = (m.table_no, "a", m.player_b)
            if m.player_b:
                seats[m.player_b] = (m.table_no, "b", m.player_a)
    opponents = [o for _, _, o in seats.values() if o]
    names = _names(conn, event_id, opponents)
    out = []
    for p in found:
        seat = seats.get(p.number)
        if seat is None:
            out.append(p)
            continue
        table, side, opponent = seat
        out.append(replace(p, table=table, seat=side, opponent=opponent,
                           opponent_name=names.get(opponent) if opponent else None))  # fmt: skip
    return out


@dataclass(frozen=True)
class Roster:
    """Every player of the event with their search key and seat: what the record screen keeps
    to find players offline (the same keys :func:`find_players` matches)."""

    round: int
    players: list[tuple[PlayerView, str]]


def roster(db: Database, event_id: int) -> Roster:
    with db.read() as conn:
        event = load_event(conn, event_id)
        rows = conn.execute(
            select(players).where(players.c.event_id == event_id).order_by(players.c.number)
        ).all()
        keys = {r.number: r.search for r in rows}
        seated = with_seats(conn, event_id, event.current_round, [_player(r) for r in rows])
    return Roster(event.current_round, [(p, keys[p.number]) for p in seated])


def player_history(db: Database, event_id: int, number: str) -> dict[str, Any]:
    """Everything a player has in the event: status, rulings (voided too) and matches."""
    with db.read() as conn:
        player = get_player(conn, event_id, number)
        rows = feed.player_rulings(conn, event_id, number)
        games = stored_matches.player_matches(conn, event_id, number)
        won: dict[tuple[int, int], dict[int, str | None]] = {}
        for d in stored_matches.player_duels(conn, event_id, number):
            won.setdefault((d.round, d.table_no), {})[d.duel] = d.winner
    return {
        "player": player.as_json(),
        "rulings": [ruling_dict(r) for r in rows],
        "matches": [match_dict(m, won.get((m.round, m.table_no), {})) for m in games],
    }


def match_dict(m: MatchRecord, duel_winners: dict[int, str | None]) -> dict[str, Any]:
    return {
        "round": m.round,
        "table": m.table_no,
        "player_a": m.player_a,
        "player_b": m.player_b,
        "result": m.result,
        "result_ruling": m.result_ruling,
        "extensions": m.extensions,
        "duels": [{"duel": n, "winner": w} for n, w in sorted(duel_winners.items())],
    }


def _with_name(found: NamedRuling) -> dict[str, Any]:
    return {**ruling_dict(found.ruling), "player_name": found.player_name}


def rulings_feed(
    db: Database, event_id: int, *, state: str | None = None, limit: int = 100, before: int | None = None
) -> list[dict[str, Any]]:
    """The newest rulings first; ``state='pending'`` is the confirmation queue."""
    with db.read() as conn:
        load_event(conn, event_id)
        rows = feed.feed(conn, event_id, state=state, limit=limit, before=before)
    return [_with_name(r) for r in rows]


def get_ruling(db: Database, event_id: int, number: int) -> dict[str, Any]:
    with db.read() as conn:
        row = feed.ruling(conn, event_id, number)
    if row is None:
        raise NotFound("no ruling {number} in event {event}", number=number, event=event_id)
    return ruling_dict(row)


def round_matches(db: Database, event_id: int, round_no: int | None = None) -> dict[str, Any]:
    """A round's matches with their duels (the scorekeeper's view); default: the current round."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        number = round_no or event.current_round
        ms = stored_matches.round_matches(conn, event_id, number)
        winners: dict[int, dict[int, str | None]] = {}
        for d in stored_matches.round_duels(conn, event_id, number):
            winners.setdefault(d.table_no, {})[d.duel] = d.winner
    return {"round": number, "matches": [match_dict(m, winners.get(m.table_no, {})) for m in ms]}


def disqualifications(db: Database, event_id: int) -> list[dict[str, Any]]:
    """Rulings that disqualify (waiting for the head judge too, D17), newest first, for the
    desk's disqualification reports (D14)."""
    with db.read() as conn:
        rows = feed.rulings_giving(conn, event_id, DISQUALIFICATION)
    return [_with_name(r) for r in rows]


def appeals_of(db: Database, event_id: int) -> list[dict[str, Any]]:
    """The event's appeals, open first, each with the ruling appealed against."""
    with db.read() as conn:
        heard = stored_appeals.appeals_heard(conn, event_id)
    found = [
        {"entry": a.appeal.entry_seq, "ruling": a.appeal.ruling, "by": a.appeal.by, "reason": a.appeal.reason,
         "outcome": a.appeal.outcome, "decision_reason": a.appeal.decision_reason, "player": a.player,
         "player_name": a.player_name, "rule": a.rule, "penalties": list(a.penalties), "state": a.state}
        for a in heard
    ]  # fmt: skip
    return sorted(found, key=lambda a: (a["outcome"] is not None, a["entry"]))


def statements_of(db: Database, event_id: int) -> list[dict[str, Any]]:
    """Statements of the people involved (D14), in the order they were given."""
    with db.read() as conn:
        given = stored_appeals.statements(conn, event_id)
    return [s._asdict() for s in given]


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
        return _names(conn, event_id, numbers)


def _names(conn: Connection, event_id: int, numbers: list[str]) -> dict[str, str]:
    return stored_players.names(conn, event_id, numbers)


def involved(db: Database, event_id: int, ruling: dict[str, Any]) -> list[PlayerView]:
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
