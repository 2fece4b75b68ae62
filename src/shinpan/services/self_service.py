"""What players do for themselves on the players' page (T12): drop from the event between
rounds with their registration code (the one printed on their slip, as for decklists).

A player has no account: the drop is written in the ledger by
:data:`shinpan.services.calls.PLAYER`. It is the same ``player.dropped`` entry the
scorekeeper writes, refused for the same reasons (:func:`shinpan.engine.event_rules.why_no_drop`:
only a player still in the event, not while their match is unfinished); a wrong code
changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from shinpan.engine.event_rules import DropRefused, why_no_drop
from shinpan.engine.participants import normalize_id
from shinpan.entries import PlayerDropped
from shinpan.errors import N_, Conflict, NotFound, Refused
from shinpan.services.calls import PLAYER, pages_published
from shinpan.services.codes import player_code_is_right
from shinpan.services.commands import run_apart
from shinpan.services.context import load_event
from shinpan.services.shapes import PlayerDroppedJson, dropped_json
from shinpan.store.calls import call_of, open_call_at, table_of
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender
from shinpan.store.public import published
from shinpan.store.roster import status_of
from shinpan.store.rounds import unfinished_match
from shinpan.store.snapshots import match_at
from shinpan.tournament.calls import CallState

MAX_CODE = 40
WRONG_CODE = N_("the registration code is not this player's: check the code on your slip and type it again")

__all__ = ["CallSeen", "PlayerStateJson", "drop_myself", "player_state", "players_token", "table_call"]


def drop_myself(
    db: Database,
    event_id: int,
    player: str,
    code: str,
    *,
    command_id: str | None = None,
    now: datetime | None = None,
) -> PlayerDroppedJson:
    """A player drops from the event between rounds on the players' page, with their
    registration code: never paired again; their results stay in the standings."""
    number = normalize_id(player)

    def act(conn: Connection, ap: Appender) -> PlayerDroppedJson:
        status = status_of(conn, event_id, number)
        if status is None:
            raise NotFound(WRONG_CODE, field="code")
        if len(code) > MAX_CODE or not player_code_is_right(db, conn, event_id, number, code.strip()):
            raise Refused(WRONG_CODE, field="code")
        playing = unfinished_match(conn, event_id, number)
        refused = why_no_drop(status, playing is not None)
        if refused is DropRefused.left:
            raise Conflict("you have already left the event")
        if refused is DropRefused.playing and playing is not None:
            raise Conflict(
                "your match at table {table} has no result yet: once its result is in, you may drop",
                table=playing[1],
            )
        dropped = PlayerDropped(number, load_event(conn, event_id).current_round)
        ap.append(dropped)
        return dropped_json(dropped)

    return run_apart(
        db,
        event_id,
        PLAYER,
        "player_drop",
        command_id,
        {"drop": number},
        act,
        now,
        lambda _conn, earlier: dropped_json(earlier.of(PlayerDropped)),
        check=pages_published(event_id),
    )


class CallSeen(TypedDict):
    """A table's open call as its players see it: whether a judge is coming, and who."""

    call: int
    state: str  # open | claimed | escalated
    judge: str | None  # the judge coming (the head judge's name once escalated)


class PlayerStateJson(TypedDict):
    """A player's own table view, polled by their phone: the round and their table, the
    open call of that table, and their result once the scorekeeper has it. Nothing a judge
    records beyond who is coming to the table."""

    round: int
    table: int | None
    bye: bool
    call: CallSeen | None
    result: str | None  # win | loss | draw, from the player's side
    score: str | None  # their duels first: 2-1


def _call_seen(conn: Connection, event_id: int, round_no: int, table: int) -> CallSeen | None:
    number = open_call_at(conn, event_id, round_no, table)
    row = call_of(conn, event_id, number) if number is not None else None
    if row is None:
        return None
    judge = load_event(conn, event_id).head_judge if row.escalated_at is not None else row.judge
    return {"call": row.number, "state": row.state, "judge": judge if row.state != CallState.open else None}


def table_call(db: Database, event_id: int, table: int) -> tuple[int, CallSeen | None]:
    """The round being played and the open call of ``table`` in it, as its players see it."""
    with db.read() as conn:
        round_no = load_event(conn, event_id).current_round
        return round_no, _call_seen(conn, event_id, round_no, table) if round_no else None


def player_state(db: Database, event_id: int, player: str) -> PlayerStateJson:
    """What the player's own table view shows now (see :class:`PlayerStateJson`)."""
    number = normalize_id(player)
    with db.read() as conn:
        round_no = load_event(conn, event_id).current_round
        table = table_of(conn, event_id, round_no, number) if round_no else None
        m = match_at(conn, event_id, round_no, table) if table is not None else None
        state: PlayerStateJson = {
            "round": round_no,
            "table": table if m is not None and m.b is not None else None,
            "bye": m is not None and m.b is None,
            "call": None,
            "result": None,
            "score": None,
        }
        if m is None or m.b is None or table is None:
            return state
        state["call"] = _call_seen(conn, event_id, round_no, table)
        if m.result is not None:
            mine = "a" if m.a == number else "b"
            state["result"] = "draw" if m.result == "draw" else "win" if m.result == mine else "loss"
            won = sum(1 for w in m.duels.values() if w == number)
            lost = len(m.duels) - won
            drawn = len(m.drawn)
            state["score"] = f"{won}-{lost}" + (f"-{drawn}" if drawn else "") if m.duels or drawn else None
        return state


def players_token(db: Database, event_id: int) -> str | None:
    """The token of the event's published players' pages (None: not published)."""
    with db.read() as conn:
        found = published(conn, event_id)
        return found.token if found is not None else None
