"""Swiss rounds: pair the next round, the head judge's changes to a pairing, a player
dropping between rounds.

The pairing itself is :func:`shinpan.tournament.pair_round`'s. The seed it ran with is in the
ledger with the pairing, so anyone can pair the round again from the same history and get
the same tables. Only active players are paired (D14, D17: ejected, disqualified,
withdrawn and dropped ones are not; an ejection or a disqualification waiting for the head
judge has not changed the status yet), nor, in round 1, those marked absent: they drop
before it, in the same command. Losses waiting for a player's next match land on
the new one (D10).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from shinpan.engine.event_rules import (
    Action,
    DropRefused,
    RoundState,
    Status,
    may_be_paired,
    may_drop,
    may_mark_attendance,
    why_no_drop,
)
from shinpan.engine.participants import normalize_id
from shinpan.entries import Pairing, PairingEdited, PlayerDropped, RoundPaired
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import load_event
from shinpan.services.effects import settle_carried
from shinpan.services.formats import SEED_LIMIT, check_seed
from shinpan.services.shapes import PairingJson, PlayerDroppedJson, dropped_json, pairing_json
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry
from shinpan.store.registration import absent
from shinpan.store.roster import status_of, statuses
from shinpan.store.rounds import round_duels, round_matches, round_of, unfinished_match, unfinished_tables
from shinpan.store.standings import entrants, played, playoff_round
from shinpan.tournament import pair_round, recommended_rounds
from shinpan.tournament.rounds import PairRefused, why_no_pairing


@dataclass(frozen=True)
class PairedRound:
    """A round as it was paired: its number, the seed, the tables (the bye has no table)."""

    round: int
    seed: int | None
    pairings: list[ShownPairing]

    def as_json(self) -> PairedRoundJson:
        """``{"round": N, "pairings": [{"table": 1, "a": "1004", "b": "1017"}, …]}``; b and table
        are null for the bye."""
        return {"round": self.round, "pairings": self.pairings}


class ShownPairing(TypedDict):
    """A table of a round as it is shown: the bye has no table (``table`` and ``b`` None)."""

    table: int | None
    a: str
    b: str | None


class PairedRoundJson(TypedDict):
    round: int
    pairings: list[ShownPairing]


def _shown(pairings: list[PairingJson]) -> list[ShownPairing]:
    return [{"table": p["table"] if p.get("b") else None, "a": p["a"], "b": p.get("b")} for p in pairings]


def _paired(entry: Entry) -> PairedRound:
    b = entry.of(RoundPaired)
    return PairedRound(b.round, b.seed, _shown([pairing_json(p) for p in b.pairings]))


def refuse_unpairable(named: Sequence[str], known: Mapping[str, Status], field: str) -> None:
    """Refused when a player named for a table is withdrawn, ejected or disqualified (D14):
    a pairing file's round and a head judge's edited tables alike."""
    out = [p for p in named if not may_be_paired(known[p])]
    if out:
        raise Refused(
            "withdrawn, ejected or disqualified, and cannot be paired: {players}",
            field=field,
            players=", ".join(out),
        )


def still_open(conn: Connection, event_id: int, round_no: int) -> None:
    """The round before the next one must be over (T5): ended, and every match with a result."""
    row = round_of(conn, event_id, round_no)
    refused = why_no_pairing(
        row.state if row is not None else RoundState.none, unfinished_tables(conn, event_id, round_no)
    )
    if refused is None:
        return
    if refused.why is PairRefused.unfinished:
        raise Conflict(
            "round {round} still has matches without a result (tables {tables}): report them first",
            round=round_no,
            tables=", ".join(str(t) for t in refused.tables[:20]),
        )
    raise Conflict("round {round} has not ended: end it before pairing the next round", round=round_no)


def pair_next_round(
    db: Database,
    event_id: int,
    *,
    seed: int | None = None,
    **asked: Unpack[Asked],
) -> PairedRound:
    """Pair the round after the current one by match points (round 1 at random) and record
    it with its seed: ``seed`` if given, else one chosen here."""
    check_seed(seed)

    def act(conn: Connection, ap: Appender) -> PairedRound:
        event = load_event(conn, event_id)
        if playoff_round(conn, event_id) is not None:
            raise Conflict("the playoff has started: its next round is paired with `playoff pair`")
        if event.current_round:
            still_open(conn, event_id, event.current_round)
        round_no = event.current_round + 1
        people = entrants(conn, event_id)
        away = absent(conn, event_id) if may_mark_attendance(event.current_round) else set()
        no_shows = sorted(p.player for p in people if p.player in away and may_be_paired(p.status))
        people = [p for p in people if p.player not in away]
        if sum(1 for p in people if may_be_paired(p.status)) < 2:
            raise Conflict("fewer than two players can be paired")
        chosen = seed if seed is not None else secrets.randbelow(SEED_LIMIT)
        made = pair_round(round_no, people, played(conn, event_id), chosen)
        last = max((p.table for p in made if p.table is not None), default=0)
        paired = tuple(
            Pairing(p.table if p.table is not None else last + 1, p.a, p.b)
            for p in sorted(made, key=lambda p: p.table if p.table is not None else last + 1)
        )
        pairings = [pairing_json(p) for p in paired]
        ap.append(RoundPaired(round_no, paired, chosen))
        for player in no_shows:  # marked absent before round 1 and still away: never paired
            ap.append(PlayerDropped(player, 0))
        settle_carried(ap, round_no)
        return PairedRound(round_no, chosen, _shown(pairings))

    payload = {"pair": "swiss", "seed": seed}
    return run_asked(db, event_id, Action.results, payload, act, lambda _conn, entry: _paired(entry), **asked)


def recommended(db: Database, event_id: int) -> int:
    """The recommended number of Swiss rounds for the event's players still in it."""
    with db.read() as conn:
        load_event(conn, event_id)
        active = sum(1 for p in entrants(conn, event_id) if p.status is Status.active)
    return recommended_rounds(active)


@dataclass(frozen=True)
class TableChange:
    """A table as the head judge pairs it instead: players a and b (None: a bye)."""

    table: int
    a: str
    b: str | None = None


def edit_pairings(
    db: Database,
    event_id: int,
    tables: list[TableChange],
    reason: str,
    **asked: Unpack[Asked],
) -> list[PairingJson]:
    """The head judge pairs some tables of the current round again before it starts, with a
    reason. Every player stays paired at most once; no table may have a result yet."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the pairing is changed", field="reason")
    if not tables:
        raise InvalidInput("name at least one table to pair again", field="tables")
    changed: list[PairingJson] = [
        {"table": t.table, "a": normalize_id(t.a), "b": normalize_id(t.b) if t.b else None} for t in tables
    ]
    if len({c["table"] for c in changed}) != len(changed):
        raise InvalidInput("a table is named twice", field="tables")

    def act(conn: Connection, ap: Appender) -> list[PairingJson]:
        event = load_event(conn, event_id)
        round_no = event.current_round
        row = round_of(conn, event_id, round_no)
        if row is None:
            raise Conflict("no round is paired yet: pair round 1 first")
        if row.state is not RoundState.paired:
            raise Conflict("round {round} has started: its pairing can no longer be changed", round=round_no)
        if any(c["table"] < 1 for c in changed):
            raise InvalidInput("tables count from 1", field="tables")
        numbers = {c["table"] for c in changed}
        duels = round_duels(conn, event_id, round_no)
        tables = round_matches(conn, event_id, round_no, duels)
        decided = [d.table for d in duels if d.table in numbers]
        reported = [
            m.table for m in tables if m.table in numbers and m.result is not None and m.b is not None
        ]
        if decided or reported:
            raise Conflict(
                "table {table} already has a result or a duel decided by a penalty: it cannot be paired again",
                table=(decided or reported)[0],
            )
        named = [p for c in changed for p in (c["a"], c["b"]) if p]
        known = statuses(conn, event_id, named)
        unknown = [p for p in named if p not in known]
        if unknown:  # no such player (404), before how the tables name them
            raise NotFound("not registered in this event: {players}", players=", ".join(unknown[:20]))
        kept = [(m.a, m.b) for m in tables if m.table not in numbers]
        seated = [p for m in kept for p in m if p] + [p for c in changed for p in (c["a"], c["b"]) if p]
        twice = sorted({p for p in seated if seated.count(p) > 1})
        if twice:
            raise InvalidInput(
                "paired twice in round {round}: {players}",
                field="tables",
                round=round_no,
                players=", ".join(twice[:20]),
            )
        refuse_unpairable(named, known, "tables")
        ap.append(
            PairingEdited(round_no, tuple(Pairing(c["table"], c["a"], c["b"]) for c in changed), reason)
        )
        settle_carried(ap, round_no)
        return changed

    payload = {"tables": changed, "reason": reason}
    return run_asked(
        db,
        event_id,
        Action.edit_pairings,
        payload,
        act,
        lambda _conn, entry: [pairing_json(p) for p in entry.of(PairingEdited).pairings],
        **asked,
    )


def _may_drop(status: Status, player: str) -> None:
    if may_drop(status):
        return
    if status is Status.dropped:
        raise Refused("{player} has already dropped", field="player", player=player)
    if status is Status.withdrawn:
        raise Refused("{player} has withdrawn from the event and cannot drop", field="player", player=player)
    if status is Status.ejected:
        raise Refused(
            "{player} has been ejected from the event and cannot drop", field="player", player=player
        )
    raise Refused("{player} is disqualified and cannot drop", field="player", player=player)


def drop_player(
    db: Database,
    event_id: int,
    player: str,
    **asked: Unpack[Asked],
) -> PlayerDroppedJson:
    """The player leaves the event between rounds: never paired again; their results stay
    in the standings and count for their opponents."""
    number = normalize_id(player)

    def act(conn: Connection, ap: Appender) -> PlayerDroppedJson:
        event = load_event(conn, event_id)
        found = status_of(conn, event_id, number)
        if found is None:
            raise NotFound(
                "no player {player} in event {event}", field="player", player=number, event=event_id
            )
        playing = unfinished_match(conn, event_id, number)
        refused = why_no_drop(found, playing is not None)
        if refused is DropRefused.left:
            _may_drop(found, number)
        if refused is DropRefused.playing and playing is not None:
            raise Conflict(
                "{player} is paired at table {table} in round {round}: report that match's result "
                "(or the head judge pairs the table again) before the player drops",
                player=number,
                table=playing[1],
                round=playing[0],
            )
        dropped = PlayerDropped(number, event.current_round)
        ap.append(dropped)
        return dropped_json(dropped)

    return run_asked(
        db,
        event_id,
        Action.results,
        {"drop": number},
        act,
        lambda _conn, entry: dropped_json(entry.of(PlayerDropped)),
        **asked,
    )
