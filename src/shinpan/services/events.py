"""Setting up an event: create it, add judges, import players and pairings, results."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any, Required, TypedDict, Unpack
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shinpan.engine.clock import DEFAULT_TIME_ZONE, MAX_ROUND_MINUTES
from shinpan.engine.event_rules import (
    Action,
    Role,
    RoundState,
    ThresholdRefused,
    scope_problems,
    why_no_threshold,
)
from shinpan.engine.participants import (
    MAX_ID_LENGTH,
    check_id,
    check_id_characters,
    check_name,
    first_clash,
    normalize_id,
)
from shinpan.entries import (
    EventCreated,
    GuidelineRef,
    HeadJudge,
    JudgeAdded,
    JudgeClaimed,
    Pairing,
    PlayersImported,
    Registration,
    RoundEnded,
    RoundPaired,
)
from shinpan.errors import Conflict, Forbidden, InvalidInput, Refused
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.files.guidelines import HeldGuideline, held_guidelines, rulebook_for, shipped_guideline
from shinpan.services.asked import Asked, run_asked
from shinpan.services.commands import no_answer, run_command
from shinpan.services.context import load_event, paired_round, role_of, stamp
from shinpan.services.effects import settle_carried
from shinpan.services.formats import open_format
from shinpan.services.swiss import refuse_unpairable
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.events import judge_seat, next_event_id
from shinpan.store.ledger import Appender, Entry
from shinpan.store.roster import statuses
from shinpan.store.rounds import round_of
from shinpan.tournament.formats import parse_format
from shinpan.tournament.rounds import OpenTable


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


class NewEvent(TypedDict, total=False):
    """What an event is created with, as :func:`new_event` takes it (each left out has its
    default there): its name, its head judge, their level and account, its dates and venue,
    its REL, confirmation threshold, round length, time zone and guideline."""

    name: Required[str]
    head_judge: Required[str]
    head_judge_level: Required[int | None]
    head_judge_account: str | None
    starts_on: str | None
    ends_on: str | None
    venue: str | None
    rel: int
    confirmation_threshold: str | None
    round_minutes: int | None
    time_zone: str | None
    guideline: HeldGuideline | None


def create_event(
    db: Database,
    *,
    match_format: str | None = None,
    time_out: str | None = None,
    tiebreakers: str | None = None,
    now: datetime | None = None,
    **event: Unpack[NewEvent],
) -> int:
    """A new event under ``guideline`` (one the installation holds; default the shipped
    one, see :mod:`shinpan.files.guidelines`); refused when D15 does not hold.
    ``match_format``, ``time_out`` and ``tiebreakers`` choose its format (T7–T9; default
    best of three, a match at time decided by duels, OMW, GW, OGW).
    ``head_judge_account`` is the uid of the account that holds the head judge's seat
    (None: the seat waits to be claimed with a claim code). ``time_zone`` (an IANA name,
    default Asia/Tokyo) is the zone every time of the event is shown in."""
    created = new_event(**event)
    chosen = (
        parse_format(match_format, time_out, tiebreakers) if match_format or time_out or tiebreakers else None
    )
    with db.write(None) as conn:
        event_id = next_event_id(conn)
        opened = open_event(conn, event_id, created, stamp(now))
        if chosen is not None:
            open_format(conn, event_id, opened, chosen)
    return event_id


def new_event(
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
    uid: str | None = None,
    guideline: HeldGuideline | None = None,
) -> EventCreated:
    """The entry that creates an event, once what :func:`create_event` checks holds (an
    import passes the exported event's ``uid``; a new event gets a new one)."""
    name = name.strip()
    if not name:
        raise InvalidInput("the event needs a name", field="name")
    if not head_judge.strip():
        raise InvalidInput("the event needs a head judge", field="head_judge")
    for field, value in (("name", name), ("head_judge", head_judge), ("venue", venue or "")):
        check_name(value, field)
    held = guideline or shipped_guideline()
    g = rulebook_for(held.id, held.version).guideline
    problems = scope_problems(g, rel, head_judge_level)
    if problems:
        raise Refused(
            "the event cannot be created: {reason}", field="head_judge_level", reason="; ".join(problems)
        )
    threshold = confirmation_threshold or g.confirmation_threshold
    if why_no_threshold(g, threshold) is ThresholdRefused.lowered:
        raise InvalidInput(
            "the confirmation threshold may be raised, not lowered, from {base}",
            field="confirmation_threshold",
            base=g.confirmation_threshold,
        )
    if round_minutes is not None and not 1 <= round_minutes <= MAX_ROUND_MINUTES:
        raise InvalidInput(
            "give between 1 and {highest} minutes", field="round_minutes", highest=MAX_ROUND_MINUTES
        )
    return EventCreated(
        uid=uid or str(uuid.uuid4()),
        name=name,
        starts_on=_date(starts_on, "starts_on"),
        ends_on=_date(ends_on, "ends_on") or _date(starts_on, "starts_on"),
        venue=venue,
        rel=rel,
        guideline=GuidelineRef(g.id, g.version, held.sha256),
        head_judge=HeadJudge(head_judge.strip(), head_judge_level, head_judge_account),
        confirmation_threshold=threshold,
        time_zone=_time_zone(time_zone),
        round_minutes=round_minutes,
    )


def open_event(conn: Connection, event_id: int, created: EventCreated, now: str) -> Entry:
    """The event's first entry, in the caller's write transaction; its head judge is its actor."""
    return Appender(conn, event_id, created.head_judge.name, now).append(created)


def guideline_of(key: str | None) -> HeldGuideline | None:
    """The held guideline a form or a request names by ``id@version`` (None or empty: the
    shipped one); one not held is refused."""
    if not key:
        return None
    for held in held_guidelines():
        if held.key == key:
            return held
    raise InvalidInput("this shinpan holds no guideline {key}", field="guideline", key=key)


def add_judge(
    db: Database,
    event_id: int,
    *,
    name: str,
    level: int | None,
    role: Role,
    actor: str | None = None,
    account: str | None = None,
    command_id: str | None = None,
    now: datetime | None = None,
) -> None:
    """A judge's seat at the event, held by the account ``account`` (a uid), or waiting to
    be claimed with a claim code (:func:`shinpan.services.accounts.claim_code`)."""
    if not name.strip():
        raise InvalidInput("the judge needs a name", field="name")
    check_name(name, "name")
    if role is Role.head_judge:
        raise InvalidInput("an event has one head judge, named when it is created", field="role")
    seat = JudgeAdded(name.strip(), level, role.value, account)

    def act(conn: Connection, ap: Appender) -> None:
        if judge_seat(conn, event_id, name.strip()) is not None:
            raise Conflict("{name} already has a seat at this event", field="name", name=name.strip())
        ap.append(seat)

    run_command(db, event_id, Action.invite, actor, command_id, seat.body(), act, now, no_answer)


def claim_seat(
    db: Database,
    event_id: int,
    seat: str,
    account: str,
    *,
    command_id: str | None = None,
    now: datetime | None = None,
) -> None:
    """The seat ``seat``, made without an account, goes to the account ``account`` (its
    claim code was used: see :func:`shinpan.services.accounts.join`)."""

    def act(conn: Connection, ap: Appender) -> None:
        found = judge_seat(conn, event_id, seat)
        if found is not None and found.account is not None:
            raise Conflict("{judge}'s seat is already held by an account", judge=seat)
        ap.append(JudgeClaimed(seat, account))

    run_command(
        db,
        event_id,
        Action.read,
        seat,
        command_id,
        {"claim": seat, "account": account},
        act,
        now,
        no_answer,
        when_sealed=True,
    )  # a seat claimed is who holds it, not what the event decided: a sealed event's seats too


def import_players(
    db: Database,
    event_id: int,
    rows: list[PlayerRow],
    **asked: Unpack[Asked],
) -> int:
    """Add players; nothing is added when any is already registered. Their ids are stored
    normalized (D18); two that normalize alike are refused."""
    for r in rows:  # look-alikes: an invisible character in an id, a reversing one in a name
        check_id_characters(normalize_id(r.number), "number")
        check_name(r.name, "name")
        check_name(r.club or "", "club")
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

    def act(conn: Connection, ap: Appender) -> int:
        taken = statuses(conn, event_id).keys() & set(numbers)
        if taken:
            raise Conflict("already registered: {numbers}", numbers=", ".join(sorted(taken)[:20]))
        ap.append(PlayersImported(registered))
        return len(payload)

    return run_asked(
        db,
        event_id,
        Action.roster,
        {"players": payload},
        act,
        lambda _conn, entry: len(entry.of(PlayersImported).players),
        **asked,
    )


def import_pairings(
    db: Database,
    event_id: int,
    round_no: int,
    rows: list[PairingRow],
    **asked: Unpack[Asked],
) -> int:
    """Pair a round; refused for unknown players and for those out of the event (D14)."""
    if round_no < 1:
        raise InvalidInput("rounds count from 1", field="round")
    paired = tuple(
        Pairing(r.table, normalize_id(r.player_a), normalize_id(r.player_b) if r.player_b else None)
        for r in rows
    )  # D18
    pairings = [p.body() for p in paired]

    def act(conn: Connection, ap: Appender) -> int:
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
        refuse_unpairable(named, known, "file")
        ap.append(RoundPaired(round_no, paired))
        settle_carried(ap, round_no)
        return len(pairings)

    return run_asked(
        db,
        event_id,
        Action.results,
        {"round": round_no, "pairings": pairings},
        act,
        lambda _conn, entry: len(entry.of(RoundPaired).pairings),
        **asked,
    )


def end_round(
    db: Database,
    event_id: int,
    round_no: int | None = None,
    *,
    before_t5: bool = False,
    open_tables: Mapping[int, OpenTable] | None = None,
    keep_open: bool = False,
    **asked: Unpack[Asked],
) -> int:
    """End a round (default: the current one): its end-of-round deadlines fall due (D21).
    A started round ends with every table resolved: each table still without a result has
    what it becomes said in ``open_tables`` (a draw, or a loss for both where the format
    counts one), recorded with the end; refused otherwise, so the next round can be paired.
    A round whose clock never started is ended by the head judge to take its results after
    (T5). ``before_t5``: an event recorded by a shinpan older than T5 (an import), whose rounds
    took results and ended without their clock started, as anyone of its results desk did.
    ``keep_open``: an imported ledger's end, as it was recorded (open tables and all)."""
    from shinpan.services.results import end_open_tables  # start-up: listing events loads no results

    def act(conn: Connection, ap: Appender) -> int:
        number = round_no or load_event(conn, event_id).current_round
        row = paired_round(conn, event_id, number)
        if row.state is RoundState.ended:
            raise Conflict("round {round} has already ended", round=number)
        if (
            row.state is RoundState.paired
            and not before_t5
            and role_of(conn, event_id, ap.actor) is not Role.head_judge
        ):
            raise Forbidden(
                "round {round} has not started: only the head judge ends a round whose clock never started",
                round=number,
            )
        if row.state is RoundState.started and not keep_open:
            end_open_tables(conn, ap, event_id, number, open_tables or {})
        ap.append(RoundEnded(number))
        return number

    chosen = {str(t): c.value for t, c in sorted((open_tables or {}).items())}
    payload: dict[str, Any] = {"end_round": round_no} | ({"open_tables": chosen} if chosen else {})
    return run_asked(
        db, event_id, Action.results, payload, act, lambda _conn, entry: entry.of(RoundEnded).round, **asked
    )


def report_result(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    *,
    duel: int | None = None,
    winner: str | None = None,
    result: str | None = None,
    **asked: Unpack[Asked],
) -> None:
    """A scorekeeper's result: one duel's winner (``duel`` left out: the match's next duel,
    chosen in the write transaction), or the match result (a, b or draw); see
    :func:`shinpan.services.results.report_result` for scores, drawn duels and corrections."""
    from shinpan.services.results import Wanted  # start-up: listing events loads no results
    from shinpan.services.results import report_result as report  # start-up

    wanted = Wanted(duel=duel, winner=winner, match=result if duel is None and winner is None else None)
    if wanted.duel is None and wanted.winner is None and wanted.match is None:
        raise InvalidInput("a match result is a, b or draw", field="result")
    report(db, event_id, round_no, table, wanted, **asked)
