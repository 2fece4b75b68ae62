"""Appeals to the head judge, whose decision is final (D11), and statements (D14)."""

from __future__ import annotations

from typing import Unpack

from shinpan.engine.event_rules import Action, RulingState
from shinpan.engine.participants import check_name
from shinpan.entries import AppealDecided, AppealFiled, StatementTaken
from shinpan.errors import Conflict, InvalidInput, NotFound
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.corrections import deviate_in, void_in
from shinpan.services.recording import rows_of
from shinpan.services.shapes import AppealDecidedJson, appeal_decided_json
from shinpan.store.appeals import filed_appeal
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender

OUTCOMES = ("upheld", "overturned", "changed")
AUTHOR_ROLES = ("player", "opponent", "witness", "judge")


def file_appeal(
    db: Database,
    event_id: int,
    ruling: int,
    by: str,
    reason: str,
    **asked: Unpack[Judged],
) -> int:
    """A player appeals a ruling; returns the appeal's entry number."""
    if not by.strip() or not reason.strip():
        raise InvalidInput("an appeal needs who appeals and why", field="reason")

    def act(conn: Connection, ap: Appender) -> int:
        (row,) = rows_of(conn, event_id, [ruling])
        if row.state == RulingState.voided:
            raise Conflict("ruling {n} is voided", n=ruling)
        entry = ap.append(AppealFiled(ruling, by.strip(), reason.strip()), refs=[row.entry_seq])
        return entry.seq

    payload = {"appeal": ruling, "by": by, "reason": reason}
    return run_asked(db, event_id, Action.statement, payload, act, lambda _c, e: e.seq, **by_judge(asked))


def decide_appeal(
    db: Database,
    event_id: int,
    appeal: int,
    outcome: str,
    reason: str,
    *,
    penalties: list[str] | None = None,
    **asked: Unpack[Judged],
) -> AppealDecidedJson:
    """The head judge's final decision: upheld, overturned (voided) or changed (deviated)."""
    if outcome not in OUTCOMES:
        raise InvalidInput("the outcome is upheld, overturned or changed", field="outcome")
    if not reason.strip():
        raise InvalidInput("a decision needs a written reason", field="reason")
    if outcome == "changed" and penalties is None:
        raise InvalidInput("a changed ruling needs its new penalties", field="penalties")

    def act(conn: Connection, ap: Appender) -> AppealDecidedJson:
        row = filed_appeal(conn, event_id, appeal)
        if row is None:
            raise NotFound("no appeal {n}", n=appeal)
        if row.outcome is not None:
            raise Conflict("appeal {n} was already decided: {outcome}", n=appeal, outcome=row.outcome)
        decided = AppealDecided(appeal, row.ruling, outcome, reason.strip())
        ap.append(decided, refs=[appeal])
        if outcome == "overturned":
            void_in(ap, row.ruling, f"appeal upheld: {reason.strip()}")
        elif outcome == "changed":
            deviate_in(ap, row.ruling, penalties or [], f"appeal: {reason.strip()}")
        return appeal_decided_json(decided)

    payload = {"decide": appeal, "outcome": outcome, "reason": reason, "penalties": penalties}
    return run_asked(
        db,
        event_id,
        Action.appeal,
        payload,
        act,
        lambda _c, e: appeal_decided_json(e.of(AppealDecided)),
        **by_judge(asked),
    )


def add_statement(
    db: Database,
    event_id: int,
    author: str,
    author_role: str,
    text: str,
    *,
    ruling: int | None = None,
    **asked: Unpack[Judged],
) -> int:
    """A statement from someone involved (player, opponent, witness, judge), e.g. for a DQ report."""
    if author_role not in AUTHOR_ROLES:
        raise InvalidInput("the author is a player, opponent, witness or judge", field="author_role")
    if not author.strip() or not text.strip():
        raise InvalidInput("a statement needs its author and its text", field="text")
    check_name(author, "author")

    def act(conn: Connection, ap: Appender) -> int:
        if ruling is not None:
            rows_of(conn, event_id, [ruling])
        return ap.append(StatementTaken(ruling, author.strip(), author_role, text.strip())).seq

    payload = {"statement": ruling, "author": author, "role": author_role, "text": text}
    return run_asked(db, event_id, Action.statement, payload, act, lambda _c, e: e.seq, **by_judge(asked))
