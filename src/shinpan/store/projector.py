"""Projections: what the entries mean for the tables people read.

:func:`apply` folds one entry into the projection tables. It decides nothing: the services
decided (with the engine) and wrote what happened into the entries; applying every entry of
an event in order to empty tables gives the tables again (``shinpan rebuild``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, bindparam, delete, insert, select, text, update

from shinpan.guideline.search import normalize
from shinpan.romaji import search_forms, to_romaji
from shinpan.store.schema import (
    DEFAULT_TIME_ZONE,
    PROJECTIONS,
    appeals,
    carried_losses,
    deadlines,
    drafts,
    duels,
    events,
    judges,
    matches,
    players,
    rounds,
    rulings,
    statements,
)

if TYPE_CHECKING:
    from shinpan.store.ledger import Entry

Handler = Callable[[Connection, "Entry"], None]
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


@handles("player.status")
def _player_status(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(
        update(players)
        .where(players.c.event_id == e.event_id, players.c.number == b["player"])
        .values(status=b["status"], status_ruling=b.get("cause_ruling"))
    )


# -- rounds, matches, duels -----------------------------------------------------------


@handles("round.paired")
def _round_paired(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(insert(rounds).values(event_id=e.event_id, number=b["round"], state="paired"))
    rows = [
        {
            "event_id": e.event_id,
            "round": b["round"],
            "table_no": p["table"],
            "player_a": p["a"],
            "player_b": p.get("b"),
            "result": None if p.get("b") else "a",
            "ended_at": None if p.get("b") else e.recorded_at,
            "extensions": 0,
        }
        for p in b["pairings"]
    ]
    if rows:
        conn.execute(insert(matches), rows)
    conn.execute(update(events).where(events.c.event_id == e.event_id).values(current_round=b["round"]))


@handles("round.ended")
def _round_ended(conn: Connection, e: Entry) -> None:
    conn.execute(
        update(rounds)
        .where(rounds.c.event_id == e.event_id, rounds.c.number == e.body["round"])
        .values(state="ended", ended_at=e.recorded_at)
    )


# The statements of the entries every ruling makes, built once (building one costs more
# than running it); ``e``, ``r``, ``t``, ``d`` are the event, round, table and duel.
_DELETE_DUEL = delete(duels).where(
    duels.c.event_id == bindparam("e"), duels.c.round == bindparam("r"),
    duels.c.table_no == bindparam("t"), duels.c.duel == bindparam("d"),
)  # fmt: skip
_SET_RESULT = (
    update(matches)
    .where(
        matches.c.event_id == bindparam("e"),
        matches.c.round == bindparam("r"),
        matches.c.table_no == bindparam("t"),
    )
    .values(result=bindparam("outcome"), result_ruling=bindparam("cause"), ended_at=bindparam("ended"))
)


def _set_result(conn: Connection, e: Entry, result: str | None, cause: int | None) -> None:
    b = e.body
    conn.execute(
        _SET_RESULT,
        {"e": e.event_id, "r": b["round"], "t": b["table"], "outcome": result, "cause": cause,
         "ended": e.recorded_at if result else None},
    )  # fmt: skip


def _match_where(e: Entry) -> Any:
    b = e.body
    return and_(
        matches.c.event_id == e.event_id, matches.c.round == b["round"], matches.c.table_no == b["table"]
    )


@handles("duel.result")
def _duel_result(conn: Connection, e: Entry) -> None:
    b = e.body
    conn.execute(_DELETE_DUEL, {"e": e.event_id, "r": b["round"], "t": b["table"], "d": b["duel"]})
    if b.get("winner") is not None:
        conn.execute(
            insert(duels),
            {"event_id": e.event_id, "round": b["round"], "table_no": b["table"], "duel": b["duel"],
             "winner": b["winner"], "cause_ruling": b.get("cause_ruling")},
        )  # fmt: skip
    if "match_result" in b:  # the service says whether this duel decided (or undid) the match
        _set_result(conn, e, b["match_result"], None)


@handles("match.result")
def _match_result(conn: Connection, e: Entry) -> None:
    _set_result(conn, e, e.body.get("result"), e.body.get("cause_ruling"))


@handles("match.extended")
def _match_extended(conn: Connection, e: Entry) -> None:
    conn.execute(
        update(matches).where(_match_where(e)).values(extensions=matches.c.extensions + e.body["delta"])
    )


@handles("loss.carried")
def _loss_carried(conn: Connection, e: Entry) -> None:
    """A loss waiting for the player's next match; a deviation that keeps the loss carries it
    again under the same ruling and position (the earlier one was cancelled)."""
    b = e.body
    conn.execute(
        delete(carried_losses).where(
            carried_losses.c.event_id == e.event_id,
            carried_losses.c.ruling == b["ruling"],
            carried_losses.c.position == b["position"],
        )
    )
    conn.execute(
        insert(carried_losses).values(
            event_id=e.event_id,
            ruling=b["ruling"],
            position=b["position"],
            player=b["player"],
            loss=b["loss"],
            state="waiting",
        )
    )


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

_COUNT = text(
    "INSERT INTO counters (event_id, player, rule, scope, offenses) VALUES (:e, :p, :r, :s, :d) "
    "ON CONFLICT (event_id, player, rule, scope) DO UPDATE SET offenses = counters.offenses + :d"
)


def _count(conn: Connection, event_id: int, r: dict[str, Any], delta: int) -> None:
    if r["offense"] is None or r["follow_up"]:
        return
    conn.execute(_COUNT, {"e": event_id, "p": r["player"], "r": r["rule"], "s": r["scope"], "d": delta})


@handles("ruling.recorded")
def _ruling_recorded(conn: Connection, e: Entry) -> None:
    b = e.body
    rows = []
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
        _count(conn, e.event_id, r, +1)
        if (
            r.get("draft")
            and not conn.execute(
                select(drafts.c.name).where(drafts.c.event_id == e.event_id, drafts.c.name == r["draft"])
            ).first()
        ):
            conn.execute(insert(drafts).values(event_id=e.event_id, name=r["draft"], round=b.get("round")))
        for d in r.get("dues", []):
            conn.execute(
                insert(deadlines),
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
                },
            )
    conn.execute(insert(rulings), rows)
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
    for row in conn.execute(
        select(rulings).where(rulings.c.event_id == e.event_id, rulings.c.number.in_(numbers))
    ).mappings():
        if row["state"] != "voided":
            _count(conn, e.event_id, dict(row), -1)
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
