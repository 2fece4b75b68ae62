"""Reading an event: players, a player's history, the rulings feed, matches."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import desc, func, or_, select

from shinpan.engine.event_rules import DISQUALIFICATION, Status, status_after, status_codes_now
from shinpan.errors import NotFound
from shinpan.services.context import load_event
from shinpan.services.search import PlayerView

# Player search moved to shinpan.services.search (an index the ledger keeps current).
from shinpan.services.search import Roster as Roster
from shinpan.services.search import find_players as find_players
from shinpan.services.search import roster as roster
from shinpan.services.search import with_seats as with_seats
from shinpan.store.connection import Connection
from shinpan.store.db import Database, chunks
from shinpan.store.schema import appeals, duels, entries, matches, players, rulings, statements


def awaiting_status(penalties: list[str], effects: list[str], state: str) -> str | None:
    """D17: the status a ruling that waits for the head judge gives its player once confirmed
    (``ejected``, ``disqualified``), or None."""
    if state != "pending":
        return None
    codes = [*penalties, *effects]
    now = status_codes_now(codes, pending=True)
    status = status_after(c for c in codes if c not in now)
    return None if status is Status.active else status.value


def ruling_dict(row: Any) -> dict[str, Any]:
    """A ruling row as the CLI's JSON and the API give it."""
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
        "follow_up": bool(row.follow_up),
        "needs_head_judge": bool(row.needs_head_judge),
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


def _player(row: Any) -> PlayerView:
    return PlayerView(row.number, row.name, row.reading, row.club, row.status)


def get_player(conn: Connection, event_id: int, number: str) -> PlayerView:
    row = conn.execute(
        select(players).where(players.c.event_id == event_id, players.c.number == number)
    ).first()
    if row is None:
        raise NotFound("no player {player} in event {event}", player=number, event=event_id)
    return _player(row)


def player_history(db: Database, event_id: int, number: str) -> dict[str, Any]:
    """Everything a player has in the event: status, rulings (voided too) and matches."""
    with db.read() as conn:
        player = get_player(conn, event_id, number)
        rows = conn.execute(
            select(rulings)
            .where(rulings.c.event_id == event_id, rulings.c.player == number)
            .order_by(rulings.c.number)
        ).all()
        games = conn.execute(
            select(matches)
            .where(
                matches.c.event_id == event_id,
                or_(matches.c.player_a == number, matches.c.player_b == number),
            )
            .order_by(matches.c.round)
        ).all()
        out_matches = []
        for m in games:
            won = {
                d.duel: d.winner
                for d in conn.execute(
                    select(duels).where(
                        duels.c.event_id == event_id, duels.c.round == m.round, duels.c.table_no == m.table_no
                    )
                )
            }
            out_matches.append(match_dict(m, won))
    return {
        "player": player.as_json(),
        "rulings": [ruling_dict(r) for r in rows],
        "matches": out_matches,
    }


def match_dict(m: Any, duel_winners: dict[int, str]) -> dict[str, Any]:
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


def rulings_feed(
    db: Database, event_id: int, *, state: str | None = None, limit: int = 100, before: int | None = None
) -> list[dict[str, Any]]:
    """The newest rulings first; ``state='pending'`` is the confirmation queue."""
    with db.read() as conn:
        load_event(conn, event_id)
        query = (
            select(rulings, players.c.name.label("player_name"))
            .outerjoin(
                players, (players.c.event_id == rulings.c.event_id) & (players.c.number == rulings.c.player)
            )
            .where(rulings.c.event_id == event_id)
        )
        if state:
            query = query.where(rulings.c.state == state)
        if before:
            query = query.where(rulings.c.number < before)
        rows = conn.execute(query.order_by(desc(rulings.c.number)).limit(limit)).all()
    return [{**ruling_dict(r), "player_name": r.player_name} for r in rows]


def get_ruling(db: Database, event_id: int, number: int) -> dict[str, Any]:
    with db.read() as conn:
        row = conn.execute(
            select(rulings).where(rulings.c.event_id == event_id, rulings.c.number == number)
        ).first()
    if row is None:
        raise NotFound("no ruling {number} in event {event}", number=number, event=event_id)
    return ruling_dict(row)


def round_matches(db: Database, event_id: int, round_no: int | None = None) -> dict[str, Any]:
    """A round's matches with their duels (the scorekeeper's view); default: the current round."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        number = round_no or event.current_round
        ms = conn.execute(
            select(matches)
            .where(matches.c.event_id == event_id, matches.c.round == number)
            .order_by(matches.c.table_no)
        ).all()
        winners: dict[int, dict[int, str]] = {}
        for d in conn.execute(select(duels).where(duels.c.event_id == event_id, duels.c.round == number)):
            winners.setdefault(d.table_no, {})[d.duel] = d.winner
    return {"round": number, "matches": [match_dict(m, winners.get(m.table_no, {})) for m in ms]}


def _with_names(query: Any) -> Any:
    return query.outerjoin(
        players, (players.c.event_id == rulings.c.event_id) & (players.c.number == rulings.c.player)
    )


def disqualifications(db: Database, event_id: int) -> list[dict[str, Any]]:
    """Rulings that disqualify (waiting for the head judge too, D17), newest first, for the
    desk's disqualification reports (D14)."""
    with db.read() as conn:
        query = _with_names(select(rulings, players.c.name.label("player_name"))).where(
            rulings.c.event_id == event_id,
            rulings.c.state != "voided",
            rulings.c.penalties.like(f'%"{DISQUALIFICATION}"%'),
        )
        rows = conn.execute(query.order_by(desc(rulings.c.number))).all()
    return [{**ruling_dict(r), "player_name": r.player_name} for r in rows]


def appeals_of(db: Database, event_id: int) -> list[dict[str, Any]]:
    """The event's appeals, open first, each with the ruling appealed against."""
    with db.read() as conn:
        query = _with_names(
            select(
                appeals, rulings.c.player, rulings.c.rule, rulings.c.penalties, rulings.c.state,
                players.c.name.label("player_name"),
            ).join(rulings, (rulings.c.event_id == appeals.c.event_id) & (rulings.c.number == appeals.c.ruling))
        ).where(appeals.c.event_id == event_id)  # fmt: skip
        rows = conn.execute(query.order_by(appeals.c.entry_seq)).all()
    found = [
        {"entry": r.entry_seq, "ruling": r.ruling, "by": r.by, "reason": r.reason, "outcome": r.outcome,
         "decision_reason": r.decision_reason, "player": r.player, "player_name": r.player_name,
         "rule": r.rule, "penalties": json.loads(r.penalties), "state": r.state}
        for r in rows
    ]  # fmt: skip
    return sorted(found, key=lambda a: (a["outcome"] is not None, a["entry"]))


def statements_of(db: Database, event_id: int) -> list[dict[str, Any]]:
    """Statements of the people involved (D14), in the order they were given."""
    with db.read() as conn:
        rows = conn.execute(
            select(statements).where(statements.c.event_id == event_id).order_by(statements.c.entry_seq)
        ).all()
    return [
        {"ruling": r.ruling, "author": r.author, "author_role": r.author_role, "text": r.text} for r in rows
    ]


def time_zone_of(db: Database, event_id: int) -> str:
    """The zone every time of the event is shown in."""
    with db.read() as conn:
        return load_event(conn, event_id).time_zone


def ledger_head(db: Database, event_id: int) -> int:
    """The number of the event's newest ledger entry (0 before the first)."""
    with db.read() as conn:
        head = conn.execute(select(func.max(entries.c.seq)).where(entries.c.event_id == event_id)).scalar()
    return int(head or 0)


def player_names(db: Database, event_id: int, numbers: list[str]) -> dict[str, str]:
    """Players' names by number (those the event has)."""
    with db.read() as conn:
        return _names(conn, event_id, numbers)


def _names(conn: Connection, event_id: int, numbers: list[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for chunk in chunks(sorted(set(numbers))):
        rows = conn.execute(
            select(players.c.number, players.c.name).where(
                players.c.event_id == event_id, players.c.number.in_(chunk)
            )
        )
        names.update((r.number, r.name) for r in rows)
    return names


def involved(db: Database, event_id: int, ruling: dict[str, Any]) -> list[PlayerView]:
    """The players a ruling concerns: its player, and the opponent at its table, who may
    appeal it (a judge records the appeal)."""
    with db.read() as conn:
        numbers = [ruling["player"]]
        if ruling["round"] is not None and ruling["table"] is not None:
            m = conn.execute(
                select(matches.c.player_a, matches.c.player_b).where(
                    matches.c.event_id == event_id,
                    matches.c.round == ruling["round"],
                    matches.c.table_no == ruling["table"],
                )
            ).first()
            if m is not None:
                numbers += [p for p in (m.player_a, m.player_b) if p and p != ruling["player"]]
        rows = {
            r.number: _player(r)
            for r in conn.execute(
                select(players).where(players.c.event_id == event_id, players.c.number.in_(numbers))
            )
        }
    return [rows[n] for n in numbers if n in rows]
