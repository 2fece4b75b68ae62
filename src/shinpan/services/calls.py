"""Judge calls (T14): a table calls a judge, a judge claims the call, may hand it to the
head judge, and resolves it; the table gets its time back on the clock (T5).

A judge raises a call for any table, claims, escalates and resolves it through
:func:`~shinpan.services.commands.run_command`. A player has no account: a call raised on
the players' page is written in the ledger by :data:`PLAYER` (as a winner's report is by
its own name, :mod:`shinpan.services.winner_reports`), and so is a player's own drop
(:mod:`shinpan.services.self_service`). What may happen to a call is decided in
:mod:`shinpan.tournament.calls`; here it is said in the user's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict, Unpack

from shinpan.engine.clock import MAX_EXTENSION_MINUTES
from shinpan.engine.event_rules import Action
from shinpan.entries import CallClaimed, CallEscalated, CallRaised, CallResolved, TimeExtended
from shinpan.errors import N_, Conflict, InvalidInput, NotFound, Refused, ShinpanError
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.commands import run_apart
from shinpan.services.context import check_reason, load_event, parse_stamp, stamp
from shinpan.store.calls import CallRow, call_of, calls_of, open_call_at
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.feed import rulings_numbered
from shinpan.store.ledger import Appender, Entry
from shinpan.store.public import published
from shinpan.store.snapshots import match_at
from shinpan.tournament.calls import (
    CallReason,
    CallRefused,
    CallState,
    Outcome,
    extension_minutes,
    why_no_claim,
    why_no_escalate,
    why_no_raise,
    why_no_resolve,
)

PLAYER = "選手(本人)"  # who wrote a player's own call or drop in the ledger: a player, without an account
WAITING_THRESHOLD = timedelta(minutes=5)  # a call waiting longer is marked in the judges' queue
EXTENSION_REASON = "ジャッジ・コールの対応時間"  # the reason a call's extension carries on the clock

__all__ = [
    "PLAYER",
    "WAITING_THRESHOLD",
    "CallJson",
    "CallListed",
    "CallsJson",
    "ResolvedJson",
    "citable_call",
    "claim_call",
    "escalate_call",
    "list_calls",
    "pages_published",
    "proposed_minutes",
    "raise_call",
    "raise_call_as_player",
    "resolve_call",
]

_REFUSED: dict[CallRefused, tuple[type[ShinpanError], str]] = {
    CallRefused.not_in_round: (Refused, N_("table {table} has no match in the round being played")),
    CallRefused.already_open: (
        Conflict,
        N_("a judge has already been called to table {table}: please wait, a judge is coming"),
    ),
    CallRefused.already_claimed: (Conflict, N_("call {call} has already been taken by {judge}")),
    CallRefused.escalated: (Conflict, N_("call {call} is already with the head judge")),
    CallRefused.not_claimed: (Conflict, N_("call {call} has not been taken yet: claim it first")),
    CallRefused.resolved: (Conflict, N_("call {call} has already been resolved")),
    CallRefused.cites_none: (
        InvalidInput,
        N_("a call resolved with a ruling names the rulings recorded from it"),
    ),
    CallRefused.cites_without_ruling: (
        InvalidInput,
        N_("only a call resolved with a ruling names rulings"),
    ),
}


def _refuse(why: CallRefused | None, **params: object) -> None:
    if why is None:
        return
    kind, template = _REFUSED[why]
    field = "rulings" if why in (CallRefused.cites_none, CallRefused.cites_without_ruling) else None
    raise kind(template, field=field, **params)


class CallJson(TypedDict):
    """A call as raising, claiming and escalating it answer."""

    call: int
    round: int
    table: int
    state: str


class CallListed(TypedDict):
    """One call in ``shinpan call list --json`` and the JSON API's list."""

    call: int
    round: int
    table: int
    state: str
    reason: str | None
    waited_s: int  # from raised to claimed (to now while nobody has taken it)
    over: bool  # waited past the threshold, nobody has taken it yet
    judge: str | None
    escalated: bool
    outcome: str | None
    rulings: list[int]
    handled_s: int | None  # from claimed to resolved (to now while being handled)
    proposed: int | None
    minutes: int | None


class CallsJson(TypedDict):
    calls: list[CallListed]


class ResolvedJson(CallJson):
    """A resolved call: its outcome, the rulings it cites, the extension proposed and given."""

    outcome: str
    rulings: list[int]
    proposed: int
    minutes: int


def _json(row: CallRow) -> CallJson:
    return {"call": row.number, "round": row.round, "table": row.table, "state": row.state}


def _seconds(start: str | None, end: str | None, now: datetime) -> int | None:
    if start is None:
        return None
    stop = parse_stamp(end) if end is not None else now
    return max(0, int((stop - parse_stamp(start)).total_seconds()))


def listed(row: CallRow, now: datetime, threshold: timedelta = WAITING_THRESHOLD) -> CallListed:
    waited = _seconds(row.raised_at, row.claimed_at or row.resolved_at, now) or 0
    return {
        "call": row.number,
        "round": row.round,
        "table": row.table,
        "state": row.state,
        "reason": row.reason,
        "waited_s": waited,
        "over": row.state == CallState.open and waited > threshold.total_seconds(),
        "judge": row.judge,
        "escalated": row.escalated_at is not None,
        "outcome": row.outcome,
        "rulings": list(row.rulings),
        "handled_s": _seconds(row.claimed_at, row.resolved_at, now),
        "proposed": row.proposed,
        "minutes": row.minutes,
    }


def list_calls(
    db: Database, event_id: int, *, open_only: bool = False, now: datetime | None = None
) -> CallsJson:
    """The event's calls (``open_only``: the judges' queue, longest waiting first)."""
    moment = now or parse_stamp(stamp())
    with db.read() as conn:
        load_event(conn, event_id)
        return {"calls": [listed(r, moment) for r in calls_of(conn, event_id, open_only=open_only)]}


def _reason(reason: str | None) -> str | None:
    if reason is None or reason == "":
        return None
    try:
        return CallReason(reason).value
    except ValueError:
        raise InvalidInput("the reason is one of: rules, dispute, time, other", field="reason") from None


def _check_table(conn: Connection, event_id: int, table: int, *, by_player: bool) -> int:
    """The round being played, once ``table`` is a match of it a call may be raised for."""
    round_no = load_event(conn, event_id).current_round
    m = match_at(conn, event_id, round_no, table) if round_no else None
    in_round = m is not None and m.b is not None
    open_at = open_call_at(conn, event_id, round_no, table) is not None if in_round else False
    _refuse(why_no_raise(table_in_round=in_round, open_at_table=open_at, by_player=by_player), table=table)
    return round_no


def raise_call(
    db: Database,
    event_id: int,
    table: int,
    reason: str | None = None,
    **asked: Unpack[Judged],
) -> CallJson:
    """A judge raises a call for a table of the round being played."""
    chosen = _reason(reason)

    def act(conn: Connection, ap: Appender) -> CallJson:
        return _raise(conn, ap, event_id, table, chosen, by_player=False)

    payload = {"raise": table, "reason": chosen}
    return run_asked(
        db, event_id, Action.record, payload, act, lambda c, e: _again(c, event_id, e.seq), **by_judge(asked)
    )


def _raise(
    conn: Connection, ap: Appender, event_id: int, table: int, reason: str | None, *, by_player: bool
) -> CallJson:
    """A call raised at ``table``, by a judge or by a player from the published page."""
    round_no = _check_table(conn, event_id, table, by_player=by_player)
    entry = ap.append(CallRaised(round_no, table, reason))
    return {"call": entry.seq, "round": round_no, "table": table, "state": CallState.open.value}


def _again(conn: Connection, event_id: int, number: int) -> CallJson:
    return _json(_held(conn, event_id, number))


def raise_call_as_player(
    db: Database,
    event_id: int,
    table: int,
    reason: str | None = None,
    *,
    command_id: str | None = None,
    now: datetime | None = None,
) -> CallJson:
    """A player calls a judge to their table from the event's published players' page: at
    most one open call per table (T14)."""
    chosen = _reason(reason)

    def act(conn: Connection, ap: Appender) -> CallJson:
        return _raise(conn, ap, event_id, table, chosen, by_player=True)

    return run_apart(
        db,
        event_id,
        PLAYER,
        "player_call",
        command_id,
        {"table": table, "reason": chosen},
        act,
        now,
        lambda conn, earlier: _again(conn, event_id, earlier.seq),
        check=pages_published(event_id),
    )


def pages_published(event_id: int) -> Callable[[Connection], None]:
    """The check before a player's own write (a call, their drop): the event's players'
    pages are published; a player has no other way in."""

    def check(conn: Connection) -> None:
        found = published(conn, event_id)
        if found is None or found.token is None:
            raise Refused("this event's players' pages are not published")

    return check


def _held(conn: Connection, event_id: int, number: int) -> CallRow:
    row = call_of(conn, event_id, number)
    if row is None:
        raise NotFound("no call {call}", call=number)
    return row


def claim_call(
    db: Database,
    event_id: int,
    number: int,
    **asked: Unpack[Judged],
) -> CallJson:
    """A judge takes the call: the others see it taken, the table sees who is coming."""
    return _take_up(db, event_id, number, CallState.claimed, **asked)


def escalate_call(
    db: Database,
    event_id: int,
    number: int,
    **asked: Unpack[Judged],
) -> CallJson:
    """The call goes to the head judge (D11): the desk shows it beside the appeals."""
    return _take_up(db, event_id, number, CallState.escalated, **asked)


def _take_up(
    db: Database,
    event_id: int,
    number: int,
    to: CallState,
    **asked: Unpack[Judged],
) -> CallJson:
    """Claim or escalate a call (``to``), unless the core refuses it in its state."""
    claim = to is CallState.claimed

    def act(conn: Connection, ap: Appender) -> CallJson:
        row = _held(conn, event_id, number)
        if claim:
            _refuse(why_no_claim(CallState(row.state)), call=number, judge=row.judge or "")
        else:
            _refuse(why_no_escalate(CallState(row.state)), call=number)
        ap.append(CallClaimed(number) if claim else CallEscalated(number))
        return {**_json(row), "state": to.value}

    payload = {"claim" if claim else "escalate": number}
    return run_asked(
        db,
        event_id,
        Action.record,
        payload,
        act,
        lambda c, _e: _again(c, event_id, number),
        **by_judge(asked),
    )


def proposed_minutes(row: CallRow, resolved_at: datetime) -> int:
    """T14: the extension a call resolved at ``resolved_at`` proposes, from its claim."""
    taken = row.claimed_at or row.escalated_at  # the head judge took one escalated unclaimed
    if taken is None:
        return 0
    return extension_minutes(resolved_at - parse_stamp(taken))


def proposal(db: Database, event_id: int, number: int, now: datetime | None = None) -> int:
    """What resolving the call now would propose to the judge."""
    with db.read() as conn:
        return proposed_minutes(_held(conn, event_id, number), now or parse_stamp(stamp()))


@dataclass(frozen=True)
class Resolution:
    """How a judge resolves a call: the outcome, the rulings it cites, and the minutes given
    when they change the proposal (``extend``, with ``reason``). ``seen``: the proposal the
    judge was shown and confirmed (a minute may pass before the tap reaches the server)."""

    outcome: str
    rulings: Sequence[int] = ()
    extend: int | None = None
    reason: str | None = None
    seen: int | None = None


def resolve_call(
    db: Database,
    event_id: int,
    number: int,
    resolution: Resolution,
    **asked: Unpack[Judged],
) -> ResolvedJson:
    """The call is over: the table gets the proposed extension (T14), or the minutes the
    judge gives instead, with a reason; it lands on the table's clock (T5)."""
    try:
        outcome = Outcome(resolution.outcome)
    except ValueError:
        raise InvalidInput("the outcome is one of: none, ruling, appeal", field="outcome") from None
    cited = tuple(sorted(set(resolution.rulings)))
    extend, reason = resolution.extend, (resolution.reason or "").strip() or None
    if extend is not None and not 0 <= extend <= MAX_EXTENSION_MINUTES:
        raise InvalidInput(
            "give between 0 and {highest} minutes", field="extend", highest=MAX_EXTENSION_MINUTES
        )
    check_reason(reason)

    def act(conn: Connection, ap: Appender) -> ResolvedJson:
        row = _held(conn, event_id, number)
        _refuse(why_no_resolve(CallState(row.state), outcome, cited), call=number)
        missing = sorted(set(cited) - {r.number for r in rulings_numbered(conn, event_id, cited)})
        if missing:
            raise NotFound(
                "no ruling {numbers} in event {event}", numbers=", ".join(map(str, missing)), event=event_id
            )
        proposed = proposed_minutes(row, parse_stamp(ap.now))
        minutes = proposed if extend is None else extend
        if minutes not in (proposed, resolution.seen) and reason is None:
            raise InvalidInput(
                "say why the table gets other than the proposed {proposed} minutes",
                field="reason",
                proposed=proposed,
            )
        m = match_at(conn, event_id, row.round, row.table)
        over = m is None or m.result is not None
        given = 0 if over else minutes  # a match already over gets no time
        ap.append(CallResolved(number, outcome.value, cited, proposed, given, reason))
        if given:
            ap.append(TimeExtended(row.round, row.table, given, reason or EXTENSION_REASON))
        return {
            **_json(row),
            "state": CallState.resolved.value,
            "outcome": outcome.value,
            "rulings": sorted({*row.rulings, *cited}),
            "proposed": proposed,
            "minutes": given,
        }

    payload = {
        "resolve": number,
        "outcome": outcome.value,
        "rulings": list(cited),
        "extend": extend,
        "reason": reason,
        "seen": resolution.seen,
    }
    return run_asked(db, event_id, Action.record, payload, act, _resolved_again, **by_judge(asked))


def _resolved_again(conn: Connection, entry: Entry) -> ResolvedJson:
    b = entry.of(CallResolved)
    row = _held(conn, entry.event_id, b.call)
    return {
        **_json(row),
        "outcome": b.outcome,
        "rulings": list(row.rulings),
        "proposed": b.proposed,
        "minutes": b.minutes,
    }


def citable_call(conn: Connection, event_id: int, number: int) -> None:
    """A ruling is recorded from a call not yet resolved (the call then cites it)."""
    row = _held(conn, event_id, number)
    if row.state == CallState.resolved:
        raise Conflict("call {call} has already been resolved", call=number)
