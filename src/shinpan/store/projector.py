"""Projections: what the entries mean for the tables people read.

:func:`apply` folds one entry into the projection tables. It decides nothing: the services
decided (with the engine) and wrote what happened into the entries; applying every entry of
an event in order to empty tables gives the tables again (``shinpan rebuild``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import and_, delete, insert, select, update

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.guideline.search import normalize
from shinpan.romaji import search_forms, to_romaji
from shinpan.store.connection import Connection, Statement
from shinpan.store.entry import Entry
from shinpan.store.schema import (
    PROJECTIONS,
    appeals,
    carried_losses,
    deadlines,
    events,
    judges,
    matches,
    players,
    rounds,
    rulings,
    statements,
    time_extensions,
)

Handler = Callable[[Connection, Entry], None]
_HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[kind] = fn
        return fn

    return register


def apply(conn: Connection, entry: Entry) -> None:
    handler = _HANDLERS.get(entry.kind)
    if handler is None:
        raise ValueError(f"entry {entry.seq}: unknown kind {entry.kind!r}")
    handler(conn, entry)


def clear(conn: Connection, event_id: int) -> None:
    """Empty every projection of one event (before applying its entries again)."""
    for table in PROJECTIONS:
        conn.execute(delete(table).where(table.c.event_id == event_id))


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# -- the event and its people ---------------------------------------------------------


@handles("event.created")
def _event_created(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        insert(events).values(
            event_id=e.event_id,
            uid=b["uid"],
            name=b["name"],
            starts_on=b.get("starts_on"),
            ends_on=b.get("ends_on"),
            venue=b.get("venue"),
            rel=b["rel"],
            guideline_id=b["guideline"]["id"],
            guideline_version=b["guideline"]["version"],
            head_judge=b["head_judge"]["name"],
            confirmation_threshold=b["confirmation_threshold"],
            current_round=0,
            created_at=e.recorded_at,
            round_minutes=b.get("round_minutes"),
            time_zone=b.get("time_zone") or DEFAULT_TIME_ZONE,
        )
    )
    hj = b["head_judge"]
    conn.execute(
        insert(judges).values(
            event_id=e.event_id,
            name=hj["name"],
            level=hj["level"],
            role="head_judge",
            account=hj.get("account"),
        )
    )


@handles("judge.added")
def _judge_added(conn: Connection, e: Entry) -> None:
    b = e.body
    where = and_(judges.c.event_id == e.event_id, judges.c.name == b["name"])
    if conn.execute(select(judges.c.name).where(where)).first():
        conn.execute(update(judges).where(where).values(level=b.get("level"), role=b["role"]))
    else:
        conn.execute(
            insert(judges).values(
                event_id=e.event_id,
                name=b["name"],
                level=b.get("level"),
                role=b["role"],
                account=b.get("account"),
            )
        )


@handles("judge.claimed")
def _judge_claimed(conn: Connection, e: Entry) -> None:
    """A seat made without an account, claimed with its one-time code."""
    b = e.body
    conn.execute(
        update(judges)
        .where(judges.c.event_id == e.event_id, judges.c.name == b["name"])
        .values(account=b["account"])
    )


@handles("players.imported")
def _players_imported(conn: Connection, e: Entry) -> None:
    rows = [
        {
            "event_id": e.event_id,
            "number": p["number"],
            "name": p["name"],
            "reading": p.get("reading") or "",
            "club": p.get("club"),
            "status": "active",
            "status_ruling": None,
            "search": search_key(p),
        }
        for p in e.body["players"]
    ]
    if rows:
        conn.execute(insert(players), rows)


def search_key(p: dict[str, Any]) -> str:
    """What player search matches against: id, name and reading, normalised, and the romaji
    (Hepburn, and the one spelling of :func:`shinpan.romaji.search_forms`)."""
    reading = normalize(p.get("reading") or "")
    parts = [normalize(p["number"]), normalize(p["name"]), reading, to_romaji(reading),
             *search_forms(p.get("reading") or ""), normalize(p.get("club") or "")]  # fmt: skip
    return "\n".join(parts)


@handles("player.dropped")
def _player_dropped(conn: Connection, e: Entry) -> None:
    """The player left the event between rounds: never paired again."""
    b = e.body
    conn.execute(
        update(players)
        .where(players.c.event_id == e.event_id, players.c.number == b["player"])
        .values(status="dropped", status_ruling=None, dropped_round=b["round"])
    )


_SET_STATUS = Statement(
    "UPDATE players SET status = :status, status_ruling = :cause WHERE event_id = :e AND number = :p"
)


@handles("player.status")
def _player_status(conn: Connection, e: Entry) -> None:
    b = e.body
    _SET_STATUS.run(
        conn, {"e": e.event_id, "p": b["player"], "status": b["status"], "cause": b.get("cause_ruling")}
    )


# -- rounds, matches, duels -----------------------------------------------------------


def _match_rows(e: Entry, round_no: int, pairings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """New matches; a bye (no player b) is won by player a at once."""
    return [
        {
            "event_id": e.event_id,
            "round": round_no,
            "table_no": p["table"],
            "player_a": p["a"],
            "player_b": p.get("b"),
            "result": None if p.get("b") else "a",
            "ended_at": None if p.get("b") else e.recorded_at,
            "extensions": 0,
        }
        for p in pairings
    ]


@handles("round.paired")
def _round_paired(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        insert(rounds).values(event_id=e.event_id, number=b["round"], state="paired", seed=b.get("seed"))
    )
    rows = _match_rows(e, b["round"], b["pairings"])
    if rows:
        conn.execute(insert(matches), rows)
    conn.execute(update(events).where(events.c.event_id == e.event_id).values(current_round=b["round"]))


@handles("pairing.edited")
def _pairing_edited(conn: Connection, e: Entry) -> None:
    """The head judge's new pairing of some tables of a round not started yet."""
    b = e.body
    tables = [p["table"] for p in b["pairings"]]
    conn.execute(
        delete(matches).where(
            matches.c.event_id == e.event_id, matches.c.round == b["round"], matches.c.table_no.in_(tables)
        )
    )
    conn.execute(insert(matches), _match_rows(e, b["round"], b["pairings"]))


@handles("round.started")
def _round_started(conn: Connection, e: Entry) -> None:
    conn.execute(
        update(rounds)
        .where(rounds.c.event_id == e.event_id, rounds.c.number == e.body["round"])
        .values(state="started", started_at=e.recorded_at, minutes=e.body["minutes"])
    )


@handles("time.extended")
def _time_extended(conn: Connection, e: Entry) -> None:
    """Minutes a judge gave one table, with the reason."""
    b = e.body
    conn.execute(
        insert(time_extensions).values(
            event_id=e.event_id, entry_seq=e.seq, round=b["round"], table_no=b["table"],
            minutes=b["minutes"], reason=b["reason"], judge=e.actor, given_at=e.recorded_at,
        )
    )  # fmt: skip


@handles("round.ended")
def _round_ended(conn: Connection, e: Entry) -> None:
    conn.execute(
        update(rounds)
        .where(rounds.c.event_id == e.event_id, rounds.c.number == e.body["round"])
        .values(state="ended", ended_at=e.recorded_at)
    )


# The entries every ruling makes run on the driver (see :class:`Statement`); ``e``, ``r``,
# ``t``, ``d`` are the event, round, table and duel.
_DELETE_DUEL = Statement(
    "DELETE FROM duels WHERE event_id = :e AND round = :r AND table_no = :t AND duel = :d"
)
_INSERT_DUEL = Statement(
    "INSERT INTO duels (event_id, round, table_no, duel, winner, cause_ruling) VALUES (:e, :r, :t, :d, :winner, :cause)"
)
_SET_RESULT = Statement(
    "UPDATE matches SET result = :outcome, result_ruling = :cause, ended_at = :ended "
    "WHERE event_id = :e AND round = :r AND table_no = :t"
)
_EXTEND = Statement(
    "UPDATE matches SET extensions = extensions + :delta WHERE event_id = :e AND round = :r AND table_no = :t"
)
_UNCARRY = Statement(
    "DELETE FROM carried_losses WHERE event_id = :e AND ruling = :ruling AND position = :position"
)
_CARRY = Statement(
    "INSERT INTO carried_losses (event_id, ruling, position, player, loss, state) "
    "VALUES (:e, :ruling, :position, :player, :loss, 'waiting')"
)


def _set_result(conn: Connection, e: Entry, result: str | None, cause: int | None) -> None:
    b = e.body
    _SET_RESULT.run(
        conn,
        {"e": e.event_id, "r": b["round"], "t": b["table"], "outcome": result, "cause": cause,
         "ended": e.recorded_at if result else None},
    )  # fmt: skip


@handles("duel.result")
def _duel_result(conn: Connection, e: Entry) -> None:
    b = e.body
    where = {"e": e.event_id, "r": b["round"], "t": b["table"], "d": b["duel"]}
    _DELETE_DUEL.run(conn, where)
    if b.get("winner") is not None:
        _INSERT_DUEL.run(conn, {**where, "winner": b["winner"], "cause": b.get("cause_ruling")})
    if "match_result" in b:  # the service says whether this duel decided (or undid) the match
        _set_result(conn, e, b["match_result"], None)


@handles("match.result")
def _match_result(conn: Connection, e: Entry) -> None:
    _set_result(conn, e, e.body.get("result"), e.body.get("cause_ruling"))


@handles("match.extended")
def _match_extended(conn: Connection, e: Entry) -> None:
    b = e.body
    _EXTEND.run(conn, {"e": e.event_id, "r": b["round"], "t": b["table"], "delta": b["delta"]})


@handles("loss.carried")
def _loss_carried(conn: Connection, e: Entry) -> None:
    """A loss waiting for the player's next match; a deviation that keeps the loss carries it
    again under the same ruling and position (the earlier one was cancelled)."""
    b = e.body
    where = {"e": e.event_id, "ruling": b["ruling"], "position": b["position"]}
    _UNCARRY.run(conn, where)
    _CARRY.run(conn, {**where, "player": b["player"], "loss": b["loss"]})


@handles("loss.settled")
def _loss_settled(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        update(carried_losses)
        .where(
            carried_losses.c.event_id == e.event_id,
            carried_losses.c.ruling == b["ruling"],
            carried_losses.c.position == b["position"],
        )
        .values(state=b["state"])
    )


# -- rulings ----------------------------------------------------------------------------

_RULING_COLUMNS = (
    "event_id", "number", "entry_seq", "player", "rule", "offense", "penalties", "guideline_penalties",
    "effects", "follow_up", "needs_head_judge", "state", "deviation_reason", "draft", "scope", "kind",
    "trigger", "recorded_as", "round", "table_no", "judge", "recorded_at", "source", "explanation_ja",
    "explanation_en", "cause", "given_at",
)  # fmt: skip
_DEADLINE_COLUMNS = (
    "event_id", "ruling", "position", "player", "due_kind", "minutes", "due_at", "round", "table_no",
    "remedy_ja", "remedy_en", "on_miss", "state", "closed_at",
)  # fmt: skip


def _inserting(table: str, columns: tuple[str, ...], tail: str = "") -> Statement:
    names, values = ", ".join(f'"{c}"' for c in columns), ", ".join(f":{c}" for c in columns)
    return Statement(f"INSERT INTO {table} ({names}) VALUES ({values}) {tail}")


_INSERT_RULINGS = _inserting("rulings", _RULING_COLUMNS)
_INSERT_DEADLINES = _inserting("deadlines", _DEADLINE_COLUMNS)
_INSERT_DRAFT = _inserting("drafts", ("event_id", "name", "round"), "ON CONFLICT (event_id, name) DO NOTHING")


@handles("ruling.recorded")
def _ruling_recorded(conn: Connection, e: Entry) -> None:
    """The entry's rulings, their deadlines and drafts: one batch per table."""
    b = e.body
    rows: list[dict[str, Any]] = []
    dues: list[dict[str, Any]] = []
    drafted: dict[str, dict[str, Any]] = {}
    for r in b["rulings"]:
        rows.append(
            {
                "event_id": e.event_id,
                "number": r["number"],
                "entry_seq": e.seq,
                "player": r["player"],
                "rule": r["rule"],
                "offense": r["offense"],
                "penalties": _j(r["penalties"]),
                "guideline_penalties": _j(r["guideline_penalties"]),
                "effects": _j(r["effects"]),
                "follow_up": r["follow_up"],
                "needs_head_judge": r["needs_head_judge"],
                "state": "pending" if r["needs_head_judge"] else "recorded",
                "deviation_reason": r.get("deviation_reason"),
                "draft": r.get("draft"),
                "scope": r["scope"],
                "kind": r.get("kind"),
                "trigger": r["trigger"],
                "recorded_as": r.get("recorded_as"),
                "round": b.get("round"),
                "table_no": b.get("table"),
                "judge": e.actor,
                "recorded_at": e.recorded_at,
                "source": r["source"],
                "explanation_ja": r["explanation_ja"],
                "explanation_en": r["explanation_en"],
                "cause": r.get("cause"),
                "given_at": b.get("given_at") or e.recorded_at,
            }
        )
        if r.get("draft"):
            drafted.setdefault(
                r["draft"], {"event_id": e.event_id, "name": r["draft"], "round": b.get("round")}
            )
        dues += [
            {
                "event_id": e.event_id,
                "ruling": r["number"],
                "position": d["position"],
                "player": r["player"],
                "due_kind": d["due_kind"],
                "minutes": d.get("minutes"),
                "due_at": d.get("due_at"),
                "round": d.get("round"),
                "table_no": d.get("table"),
                "remedy_ja": d["remedy_ja"],
                "remedy_en": d["remedy_en"],
                "on_miss": _j(d["on_miss"]),
                "state": "pending",
                "closed_at": None,
            }
            for d in r.get("dues", [])
        ]
    _INSERT_DRAFT.run_many(conn, drafted.values())
    _INSERT_DEADLINES.run_many(conn, dues)
    _INSERT_RULINGS.run_many(conn, rows)
    missed = b.get("follow_up_of")
    if missed:
        _close_deadline(conn, e, missed["ruling"], missed["position"], "missed")


def _set_rulings(conn: Connection, event_id: int, numbers: list[int], **values: Any) -> None:
    conn.execute(
        update(rulings).where(rulings.c.event_id == event_id, rulings.c.number.in_(numbers)).values(**values)
    )


@handles("ruling.confirmed")
def _ruling_confirmed(conn: Connection, e: Entry) -> None:
    _set_rulings(conn, e.event_id, e.body["rulings"], state="confirmed")


@handles("ruling.deviated")
def _ruling_deviated(conn: Connection, e: Entry) -> None:
    b = e.body
    _set_rulings(
        conn,
        e.event_id,
        [b["ruling"]],
        penalties=_j(b["penalties"]),
        deviation_reason=b["reason"],
        needs_head_judge=b["needs_head_judge"],
        state="confirmed",
        explanation_ja=b["explanation_ja"],
        explanation_en=b["explanation_en"],
    )


@handles("ruling.voided")
def _ruling_voided(conn: Connection, e: Entry) -> None:
    numbers = e.body["rulings"]
    _set_rulings(conn, e.event_id, numbers, state="voided")
    conn.execute(
        update(deadlines)
        .where(
            deadlines.c.event_id == e.event_id,
            deadlines.c.ruling.in_(numbers),
            deadlines.c.state == "pending",
        )
        .values(state="cancelled", closed_at=e.recorded_at)
    )


def _close_deadline(conn: Connection, e: Entry, ruling: int, position: int, state: str) -> None:
    conn.execute(
        update(deadlines)
        .where(
            deadlines.c.event_id == e.event_id, deadlines.c.ruling == ruling, deadlines.c.position == position
        )
        .values(state=state, closed_at=e.recorded_at)
    )


@handles("deadline.done")
def _deadline_done(conn: Connection, e: Entry) -> None:
    _close_deadline(conn, e, e.body["ruling"], e.body["position"], "done")


@handles("statement")
def _statement(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        insert(statements).values(
            event_id=e.event_id,
            entry_seq=e.seq,
            ruling=b.get("ruling"),
            author=b["author"],
            author_role=b["author_role"],
            text=b["text"],
        )
    )


@handles("appeal.filed")
def _appeal_filed(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        insert(appeals).values(
            event_id=e.event_id, entry_seq=e.seq, ruling=b["ruling"], by=b["by"], reason=b["reason"]
        )
    )


@handles("appeal.decided")
def _appeal_decided(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        update(appeals)
        .where(appeals.c.event_id == e.event_id, appeals.c.entry_seq == b["appeal"])
        .values(outcome=b["outcome"], decision_reason=b["reason"])
    )
