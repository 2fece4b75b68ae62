"""Reading an event: players, a player's history, the rulings feed, matches."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, desc, or_, select

from shinpan.errors import NotFound
from shinpan.guideline.search import normalize
from shinpan.services.context import load_event
from shinpan.store.db import Database
from shinpan.store.schema import duels, matches, players, rulings


def ruling_dict(row: Any) -> dict[str, Any]:
    """A ruling row as the CLI's JSON and the API give it."""
    return {
        "number": row.number,
        "entry": row.entry_seq,
        "player": row.player,
        "rule": row.rule,
        "offense": row.offense,
        "penalties": json.loads(row.penalties),
        "guideline_penalties": json.loads(row.guideline_penalties),
        "effects": json.loads(row.effects),
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
    }


@dataclass(frozen=True)
class PlayerView:
    number: str
    name: str
    reading: str
    club: str | None
    status: str

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _player(row: Any) -> PlayerView:
    return PlayerView(row.number, row.name, row.reading, row.club, row.status)


def get_player(conn: Connection, event_id: int, number: str) -> PlayerView:
    row = conn.execute(
        select(players).where(players.c.event_id == event_id, players.c.number == number)
    ).first()
    if row is None:
        raise NotFound("no player {player} in event {event}", player=number, event=event_id)
    return _player(row)


def find_players(db: Database, event_id: int, query: str, limit: int = 20) -> list[PlayerView]:
    """By table number (``t12`` or a number that is a table), event id, or name in kanji, kana or romaji."""
    q = normalize(query)
    with db.read() as conn:
        event = load_event(conn, event_id)
        if not q:
            rows = conn.execute(
                select(players).where(players.c.event_id == event_id).order_by(players.c.number).limit(limit)
            ).all()
            return [_player(r) for r in rows]
        found: list[Any] = []
        table = q[1:] if q.startswith(("t", "卓")) and q[1:].isdigit() else (q if q.isdigit() else None)
        if table is not None and event.current_round:
            m = conn.execute(
                select(matches).where(
                    matches.c.event_id == event_id,
                    matches.c.round == event.current_round,
                    matches.c.table_no == int(table),
                )
            ).first()
            if m is not None:
                found += [
                    r for r in conn.execute(
                        select(players).where(
                            players.c.event_id == event_id,
                            players.c.number.in_([p for p in (m.player_a, m.player_b) if p]),
                        )
                    )
                ]  # fmt: skip
        exact = conn.execute(
            select(players).where(players.c.event_id == event_id, players.c.number == query.strip())
        )
        found += list(exact)
        words = [w for w in q.replace("\u3000", " ").split(" ") if w] or [q]
        condition = [players.c.search.like(f"%{w}%") for w in words]
        found += conn.execute(
            select(players)
            .where(players.c.event_id == event_id, *condition)
            .order_by(players.c.number)
            .limit(limit)
        ).all()
    seen: dict[str, PlayerView] = {}
    for r in found:
        seen.setdefault(r.number, _player(r))
    return list(seen.values())[:limit]


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
