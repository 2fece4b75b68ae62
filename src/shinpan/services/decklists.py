"""Decklists (T13): the event's deck rules, a list registered (by the staff, or by the player
with their registration code) until the lock, the lock, the head judge's correction after it,
and what the desk reads (each player's state, a list with its versions).

Each list is checked at once against the deck rules (:func:`shinpan.tournament.decks.problems`);
a list with problems may still be registered before the lock. After the lock a list changes
only by the head judge, with a reason; every version stays in the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import (
    DeadlineDone,
    DecklistCorrected,
    DecklistRegistered,
    DecklistsLocked,
    DecklistsPublished,
    ListProblem,
)
from shinpan.entries.decks import Sections
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.codes import player_code_is_right
from shinpan.services.commands import run_apart
from shinpan.services.context import check_reason, load_event
from shinpan.services.deck_rules import event_rules, locked_at, rules_were_set
from shinpan.services.deck_shapes import ListStateJson, ListStatusJson, ShownListJson, SubmittedJson
from shinpan.services.playoff import final_placings
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.deadlines import pending_positions
from shinpan.store.decks import (
    ListRow,
    citing_rulings,
    current_lists,
    event_players,
    list_versions,
)
from shinpan.store.ledger import Appender, Entry
from shinpan.store.players import player as player_row
from shinpan.store.rounds import round_of
from shinpan.tournament.decks import (
    Card,
    Decklist,
    DeckRules,
    list_wanted,
    problems,
)

PLAYERS_PAGE = "選手(デッキリスト)"  # who submitted a list in the ledger: a player, without an account
STATES = ("missing", "registered", "illegal", "locked")


# -- a list ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Submitted:
    """What registering a list did: its entry, its sections' sizes, its problems, the lock."""

    player: str
    entry: int
    sections: dict[str, int]
    problems: tuple[ListProblem, ...]
    locked: bool

    def as_json(self) -> SubmittedJson:
        return {
            "player": self.player,
            "entry": self.entry,
            "sections": self.sections,
            "problems": [{"line": p.line, "message": p.ja, "message_en": p.en} for p in self.problems],
            "locked": self.locked,
        }


def sections_of(deck: Decklist) -> Sections:
    return {s: tuple((c.count, c.name, c.line) for c in cards) for s, cards in deck.sections.items()}


def deck_of(sections: Mapping[str, Sequence[Sequence[Any]]]) -> Decklist:
    """A list from its stored sections ([[count, name, line]])."""
    return Decklist(
        {s: tuple(Card(int(c[0]), str(c[1]), c[2]) for c in cards) for s, cards in sections.items()}
    )


def _problems(rules: DeckRules, deck: Decklist) -> tuple[ListProblem, ...]:
    return tuple(ListProblem(p.line, p.ja, p.en) for p in problems(rules, deck))


def _known_player(conn: Connection, event_id: int, player: str) -> None:
    if player_row(conn, event_id, player) is None:
        raise NotFound("no player {player} at this event", player=player, field="player")


def _payload(player: str, deck: Decklist, fmt: str, source: str, digest: str) -> dict[str, object]:
    return {
        "player": player,
        "sections": {s: [[n, name] for n, name, _ in c] for s, c in sections_of(deck).items()},
        "format": fmt,
        "source": source,
        "digest": digest,
    }


def _submitted(
    conn: Connection, event_id: int, seq: int, b: DecklistRegistered | DecklistCorrected, now: datetime
) -> Submitted:
    sizes = {s: sum(c[0] for c in cards) for s, cards in b.sections.items()}
    return Submitted(b.player, seq, sizes, b.problems, locked_at(conn, event_id, now) is not None)


def submit(
    db: Database,
    event_id: int,
    player: str,
    deck: Decklist,
    *,
    fmt: str = "text",
    source: str = "",
    digest: str = "",
    **asked: Unpack[Judged],
) -> Submitted:
    """The staff register ``player``'s list, before the lock (T13)."""
    moment = asked.get("now") or datetime.now().astimezone()

    def act(conn: Connection, ap: Appender) -> Submitted:
        _known_player(conn, event_id, player)
        if locked_at(conn, event_id, moment) is not None:
            raise Conflict(
                "the decklists are locked: only the head judge corrects a list now, with a reason "
                "(decklist correct)"
            )
        entry = DecklistRegistered(
            player, sections_of(deck), fmt, source[:200], digest, _problems(event_rules(conn, event_id), deck)
        )
        made = ap.append(entry)
        return _submitted(conn, event_id, made.seq, entry, moment)

    def again(conn: Connection, entry: Any) -> Submitted:
        return _submitted(conn, event_id, entry.seq, entry.of(DecklistRegistered), moment)

    payload = _payload(player, deck, fmt, source, digest)
    return run_asked(db, event_id, Action.decklist, payload, act, again, **by_judge(asked))


def submit_by_player(
    db: Database,
    event_id: int,
    player: str,
    code: str,
    deck: Decklist,
    *,
    fmt: str = "text",
    source: str = "",
    digest: str = "",
    command_id: str | None = None,
    now: datetime | None = None,
) -> Submitted:
    """A player submits their own list on the players' page with their registration code,
    until the lock (T13). No account: the ledger names the players' page."""
    moment = now or datetime.now().astimezone()

    def act(conn: Connection, ap: Appender) -> Submitted:
        if (
            len(code) > 40
            or player_row(conn, event_id, player) is None
            or not player_code_is_right(db, conn, event_id, player, code)
        ):
            raise Refused("the player number or the registration code is wrong: check the slip", field="code")
        if locked_at(conn, event_id, moment) is not None:
            raise Conflict("the decklists are locked: ask a judge")
        load_event(conn, event_id)
        entry = DecklistRegistered(
            player,
            sections_of(deck),
            fmt,
            source[:200],
            digest,
            _problems(event_rules(conn, event_id), deck),
            by_player=True,
        )
        made = ap.append(entry)
        return _submitted(conn, event_id, made.seq, entry, moment)

    return run_apart(
        db,
        event_id,
        PLAYERS_PAGE,
        "decklist_self",
        command_id,
        _payload(player, deck, fmt, source, digest),
        act,
        now,
        lambda conn, earlier: _submitted(conn, event_id, earlier.seq, earlier.of(DecklistRegistered), moment),
    )


def import_lists(
    db: Database,
    event_id: int,
    lists: Mapping[str, tuple[Decklist, str, str, str]],
    **asked: Unpack[Judged],
) -> list[Submitted]:
    """Many players' lists at once (a CSV from a registration form, a folder of files): every
    player must be one of the event's, or nothing is registered. ``lists``: by player, the
    list, its format, its source and its hash."""
    moment = asked.get("now") or datetime.now().astimezone()

    def act(conn: Connection, ap: Appender) -> list[Submitted]:
        known = set(event_players(conn, event_id))
        unknown = sorted(set(lists) - known)
        if unknown:
            raise NotFound(
                "no player {players} at this event: nothing was registered",
                players=", ".join(unknown[:10]),
                field="player",
            )
        if locked_at(conn, event_id, moment) is not None:
            raise Conflict(
                "the decklists are locked: only the head judge corrects a list now, with a reason "
                "(decklist correct)"
            )
        rules = event_rules(conn, event_id)
        done: list[Submitted] = []
        for player in sorted(lists):
            deck, fmt, source, digest = lists[player]
            entry = DecklistRegistered(
                player, sections_of(deck), fmt, source[:200], digest, _problems(rules, deck)
            )
            made = ap.append(entry)
            done.append(_submitted(conn, event_id, made.seq, entry, moment))
        return done

    payload = {p: _payload(p, d, f, s, h) for p, (d, f, s, h) in lists.items()}
    return run_asked(db, event_id, Action.decklist, payload, act, lambda *_: [], **by_judge(asked))


def lock(
    db: Database,
    event_id: int,
    **asked: Unpack[Judged],
) -> str:
    """The head judge locks the lists now (T13); when they were locked."""
    moment = asked.get("now") or datetime.now().astimezone()

    def act(conn: Connection, ap: Appender) -> str:
        already = locked_at(conn, event_id, moment)
        if already is not None:
            raise Conflict("the decklists are already locked (since {at})", at=already)
        ap.append(DecklistsLocked())
        return ap.now

    return run_asked(
        db, event_id, Action.manage, {"lock": True}, act, lambda c, e: e.recorded_at, **by_judge(asked)
    )


def correct(
    db: Database,
    event_id: int,
    player: str,
    deck: Decklist,
    reason: str,
    *,
    fmt: str = "text",
    source: str = "",
    digest: str = "",
    **asked: Unpack[Judged],
) -> Submitted:
    """The head judge corrects a list after the lock, with a reason; both versions stay (T13).
    The remedy of ``deck.illegal-decklist`` ("デッキリストの修正") is done: the pending
    deadlines of the player's rulings of it, if the guideline gives any, close."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the list is corrected", field="reason")
    check_reason(reason)
    moment = asked.get("now") or datetime.now().astimezone()

    def act(conn: Connection, ap: Appender) -> Submitted:
        _known_player(conn, event_id, player)
        if locked_at(conn, event_id, moment) is None:
            raise Conflict(
                "the decklists are not locked yet: register the list again instead (decklist submit)"
            )
        entry = DecklistCorrected(
            player,
            sections_of(deck),
            fmt,
            source[:200],
            digest,
            reason,
            _problems(event_rules(conn, event_id), deck),
        )
        made = ap.append(entry)
        close_remedies(conn, ap, event_id, player, "deck.illegal-decklist")
        return _submitted(conn, event_id, made.seq, entry, moment)

    def again(conn: Connection, entry: Any) -> Submitted:
        return _submitted(conn, event_id, entry.seq, entry.of(DecklistCorrected), moment)

    payload = {**_payload(player, deck, fmt, source, digest), "reason": reason}
    return run_asked(db, event_id, Action.manage, payload, act, again, **by_judge(asked))


def close_remedies(conn: Connection, ap: Appender, event_id: int, player: str, rule: str) -> list[int]:
    """The remedy of ``player``'s rulings of ``rule`` that cite a deck check is done: their
    pending deadlines close (D7, D21), when the guideline gives them any. The rulings."""
    closed: list[int] = []
    for rulings in citing_rulings(conn, event_id).values():
        for number, who, ruled, _state in rulings:
            if who != player or ruled != rule:
                continue
            closed.append(number)
            for position in pending_positions(conn, event_id, number):
                ap.append(DeadlineDone(number, position))
    return closed


# -- what the desk reads -----------------------------------------------------------------------


def state_of(latest: ListRow | None, locked: bool) -> str:
    """missing | registered | illegal | locked: a list's state as the desk sees it (T13)."""
    if latest is None:
        return "missing"
    if latest.problems:
        return "illegal"
    return "locked" if locked else "registered"


def status(db: Database, event_id: int, *, now: datetime | None = None) -> ListStatusJson:
    """Every player's list state, for the desk."""
    moment = now or datetime.now().astimezone()
    with db.read() as conn:
        load_event(conn, event_id)
        lists = current_lists(conn, event_id)
        locked = locked_at(conn, event_id, moment)
        rules = event_rules(conn, event_id)
        set_ = rules_were_set(conn, event_id)
        players = event_players(conn, event_id)
    states: list[ListStateJson] = [
        {
            "player": p,
            "state": state_of(lists[p][0] if p in lists else None, locked is not None),
            "versions": lists[p][1] if p in lists else 0,
        }
        for p in players
    ]
    return {
        "locked": locked is not None,
        "locked_at": locked,
        "required": rules.required,
        "rules_set": set_,
        "players": states,
        # without deck rules set, lists are not asked for: only a list with problems is one
        "problems": [
            s["player"] for s in states if list_wanted(s["state"], required=rules.required and set_)
        ],
    }


def show(db: Database, event_id: int, player: str) -> ShownListJson:
    """A player's current list by section, its problems and how many versions it has."""
    with db.read() as conn:
        load_event(conn, event_id)
        _known_player(conn, event_id, player)
        versions = list_versions(conn, event_id, player)
    if not versions:
        raise NotFound("player {player} has no decklist registered", player=player, field="player")
    latest = versions[-1]
    return {
        "player": player,
        "sections": {
            s: [{"count": c[0], "name": c[1]} for c in cards] for s, cards in latest.sections.items()
        },
        "problems": [{"line": p["line"], "message": p["ja"], "message_en": p["en"]} for p in latest.problems],
        "versions": len(versions),
        "entry": latest.seq,
        "format": latest.format,
        "source": latest.source,
        "digest": latest.digest,
        "submitted_by": latest.submitted_by,
        "submitted_at": latest.submitted_at,
        "reason": latest.reason,
        "history": [
            {
                "version": v.version,
                "entry": v.seq,
                "submitted_by": v.submitted_by,
                "submitted_at": v.submitted_at,
                "reason": v.reason,
                "digest": v.digest,
            }
            for v in versions
        ],
    }


def publish_top(
    db: Database,
    event_id: int,
    top: int,
    **asked: Unpack[Judged],
) -> list[str]:
    """After the event, the head judge publishes the lists of the final top ``top`` on the
    players' pages (T13, T12): the players with a list among the first ``top`` places."""
    if not 1 <= top <= 64:
        raise InvalidInput("publish the lists of the top 1 to 64", field="top")
    placed = final_placings(db, event_id)

    def act(conn: Connection, ap: Appender) -> list[str]:
        event = load_event(conn, event_id)
        last = round_of(conn, event_id, event.current_round) if event.current_round else None
        if last is None or last.ended_at is None:
            raise Conflict("the event is not over: the lists are published after its last round")
        lists = current_lists(conn, event_id)
        chosen = tuple(p for place, p in placed if place <= top and p in lists)
        ap.append(DecklistsPublished(top, chosen))
        return list(chosen)

    return run_asked(db, event_id, Action.manage, {"top": top}, act, _published_again, **by_judge(asked))


def _published_again(_conn: Connection, entry: Entry) -> list[str]:
    """The players whose lists a retry of publishing had published."""
    return list(entry.of(DecklistsPublished).players)
