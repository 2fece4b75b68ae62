"""Deck checks (T13): tables picked for a round, a check started, each player's deck counted,
the check ended with the comparison, the four findings and the rulings T13 proposes, the
table's extension given on the clock once the judge confirms it (T5), a deck marked corrected.

The proposal is recorded in the usual flow (:func:`shinpan.services.recording.record` with
``deck_check``), so the ruling cites the check; :func:`check_cited` is what that flow asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Unpack

from shinpan.engine.event_rules import Action, RoundState
from shinpan.entries import (
    CheckFinding,
    DeckCheckCounted,
    DeckCheckEnded,
    DeckCheckStarted,
    DeckCorrected,
    TimeExtended,
)
from shinpan.errors import Conflict, InvalidInput, NotFound
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.context import load_event, paired_round, parse_stamp
from shinpan.services.deck_rules import event_rules
from shinpan.services.deck_shapes import (
    CheckJson,
    CountedJson,
    DeckCorrectedJson,
    EndedJson,
    PickedJson,
    StartedJson,
    ended_json,
    finding_json,
    foreign_json,
    line_json,
    stored_json,
)
from shinpan.services.decklists import close_remedies, deck_of, sections_of
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.decks import (
    CheckRow,
    all_checks,
    check_at,
    check_by_seq,
    citing_rulings,
    current_lists_of,
)
from shinpan.store.ledger import Appender
from shinpan.store.matches import round_matches
from shinpan.store.rounds import round_of
from shinpan.store.snapshots import match_at
from shinpan.tournament.deckcheck import (
    Comparison,
    Findings,
    checks_per_player,
    compare,
    minutes,
    pick_tables,
    propose,
)
from shinpan.tournament.decks import Decklist, is_legal

EXTENSION_REASON = "デッキチェック"
MISMATCH = "deck.deck-decklist-mismatch"


# -- picking tables ----------------------------------------------------------------------------


def pick(
    db: Database,
    event_id: int,
    round_no: int,
    *,
    tables: int = 2,
    top: bool = False,
    seed: int | None = None,
) -> PickedJson:
    """Tables to check in the round, drawn from the round's seed (or ``seed``), leaving out
    players checked already while others remain; with the count per player (T13)."""
    if not 1 <= tables <= 100:
        raise InvalidInput("pick from 1 to 100 tables", field="tables")
    with db.read() as conn:
        load_event(conn, event_id)
        row = paired_round(conn, event_id, round_no)
        seated = [
            (m.table_no, (m.player_a, m.player_b))
            for m in round_matches(conn, event_id, round_no)
            if m.player_b
        ]
        checked = checks_per_player(c.players for c in all_checks(conn, event_id))
    drawn_from = seed if seed is not None else (row.seed if row.seed is not None else round_no)
    picked = pick_tables(
        [(t, tuple(p for p in ps if p)) for t, ps in seated],
        checked,
        tables,
        f"{drawn_from}:{round_no}",
        top=top,
    )
    return {"tables": picked, "round": round_no, "checked": dict(sorted(checked.items()))}


# -- a check -----------------------------------------------------------------------------------


def _at_table(check: CheckRow, player: str, table: int) -> None:
    """Refuse a player the check does not look at: one who does not play at its table."""
    if player not in check.players:
        raise NotFound(
            "player {player} does not play at table {table}", player=player, table=table, field="player"
        )


def _open_check(conn: Connection, event_id: int, round_no: int, table: int) -> CheckRow:
    found = check_at(conn, event_id, round_no, table)
    if found is None or found.ended_at is not None:
        raise NotFound(
            "no deck check is under way at table {table} in round {round}", table=table, round=round_no
        )
    return found


def start(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    **asked: Unpack[Judged],
) -> StartedJson:
    """A judge starts a deck check of one table of the round (T13)."""

    def act(conn: Connection, ap: Appender) -> StartedJson:
        row = paired_round(conn, event_id, round_no)
        if row.state is RoundState.ended:
            raise Conflict("round {round} has already ended", round=round_no)
        m = match_at(conn, event_id, round_no, table)
        if m is None:
            raise NotFound("no table {table} in round {round}", table=table, round=round_no, field="table")
        if m.b is None:
            raise Conflict("table {table} is a bye: there is no deck to check", table=table)
        under_way = check_at(conn, event_id, round_no, table)
        if under_way is not None and under_way.ended_at is None:
            raise Conflict(
                "table {table} is being checked already (since {at})", table=table, at=under_way.started_at
            )
        made = ap.append(DeckCheckStarted(round_no, table, (m.a, m.b)))
        return {
            "check": made.seq,
            "round": round_no,
            "table": table,
            "players": [m.a, m.b],
            "started_at": ap.now,
        }

    def again(conn: Connection, entry: Any) -> StartedJson:
        b = entry.of(DeckCheckStarted)
        return {
            "check": entry.seq,
            "round": b.round,
            "table": b.table,
            "players": list(b.players),
            "started_at": entry.recorded_at,
        }

    payload = {"round": round_no, "table": table}
    return run_asked(db, event_id, Action.deckcheck, payload, act, again, **by_judge(asked))


def count(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    player: str,
    deck: Decklist,
    **asked: Unpack[Judged],
) -> CountedJson:
    """The cards the judge counted in ``player``'s deck, with the differences from the list."""

    def act(conn: Connection, ap: Appender) -> CountedJson:
        check = _open_check(conn, event_id, round_no, table)
        _at_table(check, player, table)
        ap.append(DeckCheckCounted(check.seq, player, sections_of(deck)))
        lists = current_lists_of(conn, event_id, check.players)
        compared = _compared(check, player, deck, lists)
        return {
            "check": check.seq,
            "player": player,
            "missing": [line_json(x.section, x.name, x.count) for x in compared.missing],
            "extra": [line_json(x.section, x.name, x.count) for x in compared.extra],
            "foreign": [foreign_json(x.section, x.name, x.count, x.owner) for x in compared.foreign],
            "matches": compared.matches,
        }

    payload = {
        "round": round_no,
        "table": table,
        "player": player,
        "sections": {s: [[n, name] for n, name, _ in c] for s, c in sections_of(deck).items()},
    }
    return run_asked(
        db,
        event_id,
        Action.deckcheck,
        payload,
        act,
        lambda conn, entry: _recounted(conn, event_id, entry),
        **by_judge(asked),
    )


def _listed(lists: Mapping[str, Any], player: str) -> Decklist:
    return deck_of(lists[player][0].sections) if player in lists else Decklist({})


def _compared(check: CheckRow, player: str, presented: Decklist, lists: Mapping[str, Any]) -> Comparison:
    others = {p: _listed(lists, p) for p in check.players if p != player}
    return compare(_listed(lists, player), presented, others)


@dataclass(frozen=True)
class Confirmed:
    """What the judge confirmed of one player's findings, where it differs from what the
    comparison shows (None: as shown): the deck legal, the list legal, deck and list matching,
    whose cards were found in the deck."""

    deck_legal: bool | None = None
    list_legal: bool | None = None
    matches: bool | None = None
    foreign_from: tuple[str, ...] | None = None

    def over(self, shown: Findings) -> Findings:
        return Findings(
            shown.deck_legal if self.deck_legal is None else self.deck_legal,
            shown.list_legal if self.list_legal is None else self.list_legal,
            shown.recorded_by,
            shown.matches if self.matches is None else self.matches,
            shown.foreign_from if self.foreign_from is None else self.foreign_from,
        )


def findings_of(
    conn: Connection,
    event_id: int,
    check: CheckRow,
    recorded_by: Mapping[str, str] | None = None,
    confirmed: Mapping[str, Confirmed] | None = None,
) -> list[CheckFinding]:
    """For each player of the check: the deck against the list, the four findings (as the
    judge confirmed them), the proposal (T13). A deck not counted is taken as matching the list."""
    rules = event_rules(conn, event_id)
    lists = current_lists_of(conn, event_id, check.players)
    found: list[CheckFinding] = []
    for player in check.players:
        listed = _listed(lists, player)
        presented = deck_of(check.counts[player]) if player in check.counts else listed
        compared = _compared(check, player, presented, lists)
        writer = (recorded_by or {}).get(player)
        facts = Findings(
            deck_legal=is_legal(rules, presented),
            list_legal=player in lists and is_legal(rules, listed),
            recorded_by=writer,
            matches=compared.matches,
            foreign_from=tuple(f.owner for f in compared.foreign),
        )
        if confirmed and player in confirmed:
            facts = confirmed[player].over(facts)
        found.append(
            CheckFinding(
                player,
                tuple((x.section, x.name, x.count) for x in compared.missing),
                tuple((x.section, x.name, x.count) for x in compared.extra),
                tuple((x.section, x.name, x.count, x.owner) for x in compared.foreign),
                facts.deck_legal,
                facts.list_legal,
                facts.matches,
                writer,
                tuple((p.infraction, p.player, dict(p.facts)) for p in propose(player, facts)),
            )
        )
    return found


def end(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    *,
    recorded_by: Mapping[str, str] | None = None,
    extend: bool = False,
    confirmed: Mapping[str, Confirmed] | None = None,
    **asked: Unpack[Judged],
) -> EndedJson:
    """The judge ends the check: the findings and proposals of each player, the check's
    length in whole minutes rounded up; with ``extend``, the table is given those minutes (T5)."""

    def act(conn: Connection, ap: Appender) -> EndedJson:
        check = _open_check(conn, event_id, round_no, table)
        for player, writer in (recorded_by or {}).items():
            _at_table(check, player, table)
            if not writer.strip() or writer == player:
                raise InvalidInput(
                    "name who wrote the list, someone other than the player", field="recorded_by"
                )
        took = minutes(parse_stamp(check.started_at), parse_stamp(ap.now))
        for player, said in (confirmed or {}).items():
            _at_table(check, player, table)
            if said.foreign_from and not set(said.foreign_from) <= set(check.players) - {player}:
                raise InvalidInput(
                    "the cards found can only be the other player's at the table", field="foreign_from"
                )
        found = findings_of(conn, event_id, check, recorded_by, confirmed)
        given = False
        if extend and took > 0:
            m = match_at(conn, event_id, round_no, table)
            row = round_of(conn, event_id, round_no)
            given = (
                m is not None and m.result is None and row is not None and row.state is not RoundState.ended
            )
        ended = ap.append(DeckCheckEnded(check.seq, took, tuple(found), given), refs=[check.seq])
        if given:  # the table's extension (T5), in the same command
            ap.append(TimeExtended(round_no, table, took, EXTENSION_REASON), refs=[ended.seq])
        return ended_json(check.seq, took, found, given)

    def again(conn: Connection, entry: Any) -> EndedJson:
        check = check_at(conn, event_id, round_no, table)
        if check is None or check.findings is None:
            return {"players": [], "minutes": 0, "check": 0, "extended": False}
        shown = stored_json(check)
        return {
            "players": shown["players"],
            "minutes": shown["minutes"],
            "check": shown["check"],
            "extended": shown["extended"],
        }

    payload = {
        "round": round_no,
        "table": table,
        "recorded_by": dict(recorded_by or {}),
        "extend": extend,
        "confirmed": {p: asdict(c) for p, c in sorted((confirmed or {}).items())},
    }
    return run_asked(db, event_id, Action.deckcheck, payload, act, again, **by_judge(asked))


def _recounted(conn: Connection, event_id: int, entry: Any) -> CountedJson:
    """A count sent again: the differences as they stand."""
    b = entry.of(DeckCheckCounted)
    check = check_by_seq(conn, event_id, b.check)
    if check is None:
        raise NotFound("no deck check {check}", check=b.check)
    compared = _compared(
        check, b.player, deck_of(b.sections), current_lists_of(conn, event_id, check.players)
    )
    return {
        "check": check.seq,
        "player": b.player,
        "missing": [line_json(x.section, x.name, x.count) for x in compared.missing],
        "extra": [line_json(x.section, x.name, x.count) for x in compared.extra],
        "foreign": [foreign_json(x.section, x.name, x.count, x.owner) for x in compared.foreign],
        "matches": compared.matches,
    }


# -- after the check: the ruling cites it, the remedy is done ----------------------------------


def check_cited(conn: Connection, event_id: int, check_seq: int, record: Any) -> None:
    """A record citing deck check ``check_seq``: the check exists and has ended, and the ruling
    is about one of its players."""
    check = check_by_seq(conn, event_id, check_seq)
    if check is None:
        raise NotFound("no deck check {check}", check=check_seq, field="deck_check")
    if check.ended_at is None:
        raise Conflict("deck check {check} is still under way: end it first", check=check_seq)
    named = {record.player, *(str(v) for v in record.facts.values() if isinstance(v, str))}
    if not named & set(check.players):
        raise InvalidInput(
            "the ruling names no player of deck check {check}", check=check_seq, field="deck_check"
        )


def deck_corrected(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    player: str,
    **asked: Unpack[Judged],
) -> DeckCorrectedJson:
    """A judge marks ``player``'s deck corrected to match the list after the table's check:
    the remedy of ``deck.deck-decklist-mismatch`` is done (T13)."""

    def act(conn: Connection, ap: Appender) -> DeckCorrectedJson:
        check = check_at(conn, event_id, round_no, table)
        if check is None or check.ended_at is None:
            raise NotFound(
                "no ended deck check at table {table} in round {round}", table=table, round=round_no
            )
        _at_table(check, player, table)
        if player in check.corrected:
            raise Conflict("player {player}'s deck is already marked corrected", player=player)
        ap.append(DeckCorrected(check.seq, player))
        closed = close_remedies(conn, ap, event_id, player, MISMATCH)
        return {"check": check.seq, "player": player, "rulings": closed}

    payload = {"round": round_no, "table": table, "player": player}

    def again(conn: Connection, entry: Any) -> DeckCorrectedJson:
        return {"check": entry.of(DeckCorrected).check, "player": player, "rulings": []}

    return run_asked(db, event_id, Action.deckcheck, payload, act, again, **by_judge(asked))


def checks(db: Database, event_id: int, round_no: int | None = None) -> list[CheckJson]:
    """The event's deck checks (of one round), with the rulings citing each."""
    with db.read() as conn:
        load_event(conn, event_id)
        found = all_checks(conn, event_id)
        cited = citing_rulings(conn, event_id)
    return [
        stored_json(c)
        | {
            "rulings": [
                {"number": n, "player": p, "rule": r, "state": s} for n, p, r, s in cited.get(c.seq, [])
            ]
        }
        for c in found
        if round_no is None or c.round == round_no
    ]


def check_view(db: Database, event_id: int, round_no: int, table: int) -> CheckJson:
    """The table's latest check as the judge's phone shows it: each player's list by section,
    the counts entered, the differences so far."""
    with db.read() as conn:
        load_event(conn, event_id)
        check = check_at(conn, event_id, round_no, table)
        if check is None:
            raise NotFound("no deck check at table {table} in round {round}", table=table, round=round_no)
        lists = current_lists_of(conn, event_id, check.players)
        live = findings_of(conn, event_id, check) if check.ended_at is None else None
        cited = citing_rulings(conn, event_id).get(check.seq, [])
    shown = stored_json(check)
    if live is not None:
        shown["players"] = [finding_json(f) for f in live]
    shown["lists"] = {
        p: {s: [{"count": c[0], "name": c[1]} for c in cards] for s, cards in lists[p][0].sections.items()}
        if p in lists
        else {}
        for p in check.players
    }
    shown["counted"] = sorted(check.counts)
    shown["rulings"] = [{"number": n, "player": p, "rule": r, "state": s} for n, p, r, s in cited]
    shown["under_way"] = check.ended_at is None
    return shown
