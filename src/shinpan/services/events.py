"""Setting up an event: create it, add judges, import players and pairings, results."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shinpan.csvio import PairingRow, PlayerRow
from shinpan.engine.clock import DEFAULT_TIME_ZONE, MAX_ROUND_MINUTES
from shinpan.engine.effects import plan_reported_duel
from shinpan.engine.event_rules import Role, may_be_paired, scope_problems
from shinpan.engine.participants import MAX_ID_LENGTH, check_id, first_clash, normalize_id
from shinpan.entries import (
    EventCreated,
    GuidelineRef,
    HeadJudge,
    JudgeAdded,
    JudgeClaimed,
    MatchResult,
    Pairing,
    PlayersImported,
    Registration,
    RoundEnded,
    RoundPaired,
)
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused
from shinpan.guideline import default_guideline
from shinpan.services.commands import run_command
from shinpan.services.context import load_event, stamp
from shinpan.services.effects import append_effects, settle_carried
from shinpan.services.formats import format_entry
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.events import EventSummary, event_summaries, judge_seat, next_event_id
from shinpan.store.ledger import Appender
from shinpan.store.roster import statuses
from shinpan.store.rounds import round_of
from shinpan.store.snapshots import match_at
from shinpan.store.standings import playoff
from shinpan.tournament.formats import parse_format
from shinpan.tournament.playoff import result_refusal


def _date(value: str | None, field: str) -> str | None:
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise InvalidInput("{value!r} is not a date (YYYY-MM-DD)", field=field, value=value) from None


def _time_zone(value: str | None) -> str:
    name = (value or "").strip() or DEFAULT_TIME_ZONE
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            "{value!r} is not a time zone (e.g. Asia/Tokyo)", field="time_zone", value=name
        ) from None
    return name


def create_event(
    db: Database,
    *,
    name: str,
    head_judge: str,
    head_judge_level: int | None,
    head_judge_account: str | None = None,
    starts_on: str | None = None,
    ends_on: str | None = None,
    venue: str | None = None,
    rel: int = 3,
    confirmation_threshold: str | None = None,
    round_minutes: int | None = None,
    time_zone: str | None = None,
    match_format: str | None = None,
    time_out: str | None = None,
    tiebreakers: str | None = None,
    now: datetime | None = None,
) -> int:
    """A new event under the built-in guideline; refused when D15 does not hold.
    ``match_format``, ``time_out`` and ``tiebreakers`` choose its format (T7–T9; default
    best of three, a match at time decided by duels, OMW, GW, OGW).
    ``head_judge_account`` is the uid of the account that holds the head judge's seat
    (None: the seat waits to be claimed with a claim code). ``time_zone`` (an IANA name,
    default Asia/Tokyo) is the zone every time of the event is shown in."""
    name = name.strip()
    if not name:
        raise InvalidInput("the event needs a name", field="name")
    if not head_judge.strip():
        raise InvalidInput("the event needs a head judge", field="head_judge")
    g = default_guideline()
    problems = scope_problems(g, rel, head_judge_level)
    if problems:
        raise Refused(
            "the event cannot be created: {reason}", field="head_judge_level", reason="; ".join(problems)
        )
    threshold = confirmation_threshold or g.confirmation_threshold
    codes = {c.code: c.severity for c in g.components}
    base = codes[g.confirmation_threshold] or 0
    if (codes.get(threshold) or 0) < base:
        raise InvalidInput(
            "the confirmation threshold may be raised, not lowered, from {base} (D11)",
            field="confirmation_threshold",
            base=g.confirmation_threshold,
        )
    if round_minutes is not None and not 1 <= round_minutes <= MAX_ROUND_MINUTES:
        raise InvalidInput(
            "give between 1 and {highest} minutes", field="round_minutes", highest=MAX_ROUND_MINUTES
        )
    created = EventCreated(
        uid=str(uuid.uuid4()), name=name, starts_on=_date(starts_on, "starts_on"),
        ends_on=_date(ends_on, "ends_on") or _date(starts_on, "starts_on"), venue=venue, rel=rel,
        guideline=GuidelineRef(g.id, g.version),
        head_judge=HeadJudge(head_judge.strip(), head_judge_level, head_judge_account),
        confirmation_threshold=threshold, time_zone=_time_zone(time_zone), round_minutes=round_minutes,
    )  # fmt: skip
    chosen = None
    if match_format or time_out or tiebreakers:
        chosen = format_entry(parse_format(match_format, time_out, tiebreakers))
    with db.write(None) as conn:
        event_id = next_event_id(conn)
        appender = Appender(conn, event_id, head_judge.strip(), stamp(now))
        appender.append(created)
        if chosen is not None:
            appender.append(chosen)
    return event_id


def list_events(db: Database) -> list[EventSummary]:
    with db.read() as conn:
        return event_summaries(conn)


def add_judge(
    db: Database, event_id: int, *, name: str, level: int | None, role: Role, actor: str | None = None,
    account: str | None = None, command_id: str | None = None, now: datetime | None = None,
) -> None:  # fmt: skip
    """A judge's seat at the event, held by the account ``account`` (a uid), or waiting to
    be claimed with a claim code (:func:`shinpan.services.accounts.claim_code`)."""
    if not name.strip():
        raise InvalidInput("the judge needs a name", field="name")
    if role is Role.head_judge:
        raise InvalidInput("an event has one head judge, named when it is created", field="role")
    seat = JudgeAdded(name.strip(), level, role.value, account)

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        if judge_seat(conn, event_id, name.strip()) is not None:
            raise Conflict("{name} already has a seat at this event", field="name", name=name.strip())
        ap.append(seat)
        return seat.body()

    run_command(db, event_id, "invite", actor, command_id, seat.body(), act, now)


def claim_seat(db: Database, event_id: int, seat: str, account: str, *, now: datetime | None = None) -> None:
    """The seat ``seat``, made without an account, goes to the account ``account`` (its
    claim code was used: see :func:`shinpan.services.accounts.join`)."""

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        found = judge_seat(conn, event_id, seat)
        if found is not None and found.account is not None:
            raise Conflict("{judge}'s seat is already held by an account", judge=seat)
        claimed = JudgeClaimed(seat, account)
        ap.append(claimed)
        return claimed.body()

    run_command(db, event_id, "read", seat, None, {"claim": seat, "account": account}, act, now)


def import_players(
    db: Database, event_id: int, rows: list[PlayerRow], *, actor: str | None = None,
    command_id: str | None = None, now: datetime | None = None,
) -> int:  # fmt: skip
    """Add players; nothing is added when any is already registered. Their ids are stored
    normalized (D18); two that normalize alike are refused."""
    clash = first_clash(r.number for r in rows)
    if clash is not None:
        raise InvalidInput(
            "{first} and {second} are the same player id", field="number", first=clash[0], second=clash[1]
        )
    try:
        numbers = [check_id(r.number) for r in rows]
    except ValueError:
        raise InvalidInput(
            "a player id has 1 to {limit} characters", field="number", limit=MAX_ID_LENGTH
        ) from None
    registered = tuple(
        Registration(n, r.name, r.reading, r.club, r.handle) for n, r in zip(numbers, rows, strict=True)
    )
    payload = [p.body() for p in registered]

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        taken = statuses(conn, event_id).keys() & set(numbers)
        if taken:
            raise Conflict("already registered: {numbers}", numbers=", ".join(sorted(taken)[:20]))
        ap.append(PlayersImported(registered))
        return {"imported": len(payload)}

    result = run_command(
        db, event_id, "manage", actor, command_id, {"players": payload}, act, now,
        lambda _conn, entry: {"imported": len(entry.of(PlayersImported).players)},
    )  # fmt: skip
    return int(result["imported"])


def import_pairings(
    db: Database, event_id: int, round_no: int, rows: list[PairingRow], *, actor: str | None = None,
    command_id: str | None = None, now: datetime | None = None,
) -> int:  # fmt: skip
    """Pair a round; refused for unknown players and for those out of the event (D14)."""
    if round_no < 1:
        raise InvalidInput("rounds count from 1", field="round")
    paired = tuple(
        Pairing(r.table, normalize_id(r.player_a), normalize_id(r.player_b) if r.player_b else None)
        for r in rows
    )  # D18
    pairings = [p.body() for p in paired]

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        event = load_event(conn, event_id)
        if round_of(conn, event_id, round_no) is not None:
            raise Conflict("round {round} is already paired", round=round_no)
        if round_no <= event.current_round:
            raise Conflict(
                "round {round} comes before the current round {current}",
                round=round_no,
                current=event.current_round,
            )
        named = [normalize_id(p) for r in rows for p in (r.player_a, r.player_b) if p]
        known = statuses(conn, event_id)
        unknown = [p for p in named if p not in known]
        if unknown:
            raise InvalidInput(
                "not registered in this event: {players}", field="file", players=", ".join(unknown[:20])
            )
        out = [f"{p} ({known[p]})" for p in named if not may_be_paired(known[p])]
        if out:
            raise Refused(
                "out of the event and cannot be paired (D14): {players}", field="file", players=", ".join(out)
            )
        ap.append(RoundPaired(round_no, paired))
        settle_carried(ap, round_no)
        return {"paired": len(pairings)}

    result = run_command(
        db, event_id, "results", actor, command_id, {"round": round_no, "pairings": pairings}, act, now,
        lambda _conn, entry: {"paired": len(entry.of(RoundPaired).pairings)},
    )  # fmt: skip
    return int(result["paired"])


def end_round(
    db: Database, event_id: int, round_no: int | None = None, *, actor: str | None = None,
    command_id: str | None = None, now: datetime | None = None,
) -> int:  # fmt: skip
    """End a round (default: the current one): its end-of-round deadlines fall due (D21).
    Tables still playing go on; their end-of-match deadlines fall due as each ends."""

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        number = round_no or load_event(conn, event_id).current_round
        row = round_of(conn, event_id, number)
        if row is None:
            raise NotFound("round {round} is not paired", round=number)
        if row.state == "ended":
            raise Conflict("round {round} has already ended", round=number)
        ap.append(RoundEnded(number))
        return {"round": number}

    payload = {"end_round": round_no}
    done = run_command(db, event_id, "results", actor, command_id, payload, act, now,
                       lambda _conn, entry: {"round": entry.of(RoundEnded).round})  # fmt: skip
    return int(done["round"])


def report_result(
    db: Database, event_id: int, round_no: int, table: int, *, duel: int | None = None,
    winner: str | None = None, result: str | None = None, actor: str | None = None,
    command_id: str | None = None, now: datetime | None = None,
) -> None:  # fmt: skip
    """A scorekeeper's result: one duel's winner (``duel`` left out: the match's next duel,
    chosen in the write transaction), or the match result (a, b or draw)."""

    def act(conn: Connection, ap: Appender) -> dict[str, Any]:
        m = match_at(conn, event_id, round_no, table)
        if m is None:
            raise NotFound("no match at table {table} in round {round}", table=table, round=round_no)
        if m.b is None:
            raise Refused("table {table} is a bye: it has no result to report", table=table)
        if winner is not None or duel is not None:
            if winner is None or normalize_id(winner) not in (m.a, m.b):
                raise InvalidInput("the winner must be one of the match's players", field="winner")
            append_effects(ap, [plan_reported_duel(m, duel, normalize_id(winner))])
        else:
            if result not in ("a", "b", "draw"):
                raise InvalidInput("a match result is a, b or draw", field="result")
            started = playoff(conn, event_id)
            refusal = result_refusal(started.round if started else None, round_no, result)
            if refusal is not None:
                raise Refused(refusal, field="result")
            ap.append(MatchResult(round_no, table, result, by_hand=True))
        return {}

    payload = {"round": round_no, "table": table, "duel": duel, "winner": winner, "result": result}
    run_command(db, event_id, "results", actor, command_id, payload, act, now)
