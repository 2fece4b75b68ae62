"""The JSON API: who may call what (D11), CSRF, bad input, retries, sign-in limits, cookies.

Driven by one table, :data:`ENDPOINTS`: every route under /api with the roles it allows and
a way to make a valid request for it. A route missing from the table fails
:func:`test_the_table_covers_every_api_route`, so a new endpoint cannot go untested. Every
test runs on a fresh SQLite file and on a fresh PostgreSQL schema.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from round_end import draws
from shinpan.services import access, accounts, appeals, rounds
from shinpan.services.context import load_event
from shinpan.web.app import create_app
from web_support import (
    FLOOR_JUDGE,
    HEAD_JUDGE,
    OUTSIDER,
    ROLES,
    SCOREKEEPER,
    VIEWER,
    Client,
    World,
    build_world,
    csrf_in,
    database_url,
    in_english,
    ledger_size,
    pairings_csv,
    players_csv,
    sign_in,
)

HJ, FJ, SK, VW, OUT, ANON = ROLES
EVENT_ROLES = frozenset({HJ, FJ, SK, VW})
SIGNED_IN = EVENT_ROLES | {OUT}
EVERYONE = SIGNED_IN | {ANON}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with database_url(request.param, tmp_path_factory.mktemp("api")) as url:
        w = build_world(url, players=40, spare=80)
        rounds.start_round(w.db, w.event)  # round 1 runs: it takes results (T5)
        try:
            with TestClient(w.app):  # runs the lifespan, so live updates are on
                _first_stream_event_only(w.app)
                yield w
        finally:
            w.close()


def _first_stream_event_only(app: FastAPI) -> None:
    """The test client reads a response to its end: serve only the stream's first event."""
    live = app.state.live
    real = live.stream

    def stream(event_id: int, **kw: Any) -> AsyncIterator[str]:
        async def first() -> AsyncIterator[str]:
            events = real(event_id, **kw)
            try:
                yield await events.__anext__()
            finally:
                await events.aclose()

        return first()

    live.stream = stream


# -- the table -------------------------------------------------------------------------------


@dataclass
class Call:
    """One request's variable parts: path parameters, query, and a JSON body or a form."""

    params: dict[str, Any] = field(default_factory=dict)
    query: dict[str, Any] | None = None
    json: Any = None
    data: dict[str, Any] | None = None
    files: dict[str, Any] | None = None


Prepare = Callable[[World, str], Call]


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    allowed: frozenset[str]
    prepare: Prepare
    ok: int = 200
    # An allowed role that is refused for another reason than its role, and the status.
    otherwise: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.method} {self.path}"

    def url(self, w: World, call: Call) -> str:
        return self.path.format(**{"event_id": w.event, **call.params})

    def expected(self, role: str) -> int:
        if role in self.allowed:
            return dict(self.otherwise).get(role, self.ok)
        return 401 if role == ANON else 403


def send(w: World, endpoint: Endpoint, client: Client, call: Call, *, csrf: bool = True) -> httpx.Response:
    url = endpoint.url(w, call)
    if endpoint.method == "GET":
        return client.get(url, params=call.query)
    return client.post(url, json=call.json, data=call.data, files=call.files, csrf=csrf)


# How each request is made valid. Players P001–P020 get rulings, tables 11–20 get results,
# spare players Q… get paired in new rounds.


def _nothing(w: World, role: str) -> Call:
    return Call()


def _player(w: World) -> str:
    return w.players[next(w.counter) % 20]


def _record_body(w: World, infraction: str = "ingame.cards-off-table") -> dict[str, Any]:
    return {"command_id": w.cid(), "player": _player(w), "infraction": infraction}


def _search(w: World, role: str) -> Call:
    return Call(query={"q": "たなか"})


def _one_player(w: World, role: str) -> Call:
    return Call(params={"number": w.players[0]})


def _new_event(w: World, role: str) -> Call:
    return Call(json={"name": f"新しい大会 {w.cid()}", "starts_on": "2026-03-01", "venue": "東京"})


def _record(w: World, role: str) -> Call:
    return Call(json=_record_body(w))


def _ruling(w: World, role: str) -> Call:
    return Call(params={"number": w.record(_player(w), "ingame.cards-off-table")})


def _confirm(w: World, role: str) -> Call:
    pending = w.record(_player(w), "ingame.slow-play")  # a warning waits for the head judge
    return Call(params={"number": pending}, json={"command_id": w.cid()})


def _deviate(w: World, role: str) -> Call:
    number = w.record(_player(w), "ingame.cards-off-table")
    body = {"command_id": w.cid(), "penalties": ["warning2"], "reason": "繰り返しのため"}
    return Call(params={"number": number}, json=body)


def _void(w: World, role: str) -> Call:
    number = w.record(_player(w), "ingame.cards-off-table")
    return Call(params={"number": number}, json={"command_id": w.cid(), "reason": "別の選手でした"})


def _deadline(w: World, role: str) -> Call:
    number = w.record(_player(w), "pregame.tardiness")  # a remedy due in 10 minutes
    return Call(params={"ruling": number, "position": 0, "outcome": "done"}, json={"command_id": w.cid()})


def _round(w: World, role: str) -> Call:
    return Call(params={"round_no": 1})


def _import_players(w: World, role: str) -> Call:
    n = next(w.counter)
    csv = players_csv([(f"N{n:04d}", f"新人 {n}", "しんじん")])
    return Call(files={"file": ("players.csv", csv, "text/csv")}, data={"command_id": w.cid()})


def _pairings(w: World, role: str) -> Call:
    with w.db.read() as conn:
        next_round = load_event(conn, w.event).current_round + 1
    pair = [w.spare.pop(), w.spare.pop()]
    return Call(
        params={"round_no": next_round},
        files={"file": ("pairings.csv", pairings_csv(pair), "text/csv")},
        data={"command_id": w.cid()},
    )


def _result(w: World, role: str) -> Call:
    """A drawn duel, the next of one of tables 11–20: it never ends the match (T7), so the
    calls in any order never report over a result (T11)."""
    table = 11 + next(w.counter) % 10
    return Call(json={"command_id": w.cid(), "round": 1, "table": table, "draw": True})


def _appeal(w: World, role: str) -> Call:
    player = _player(w)
    number = w.record(player, "ingame.cards-off-table")
    return Call(json={"command_id": w.cid(), "ruling": number, "by": player, "reason": "見ていなかった"})


def _decision(w: World, role: str) -> Call:
    player = _player(w)
    number = w.record(player, "ingame.cards-off-table")
    appeal = appeals.file_appeal(w.db, w.event, number, player, "納得できない", command_id=w.cid())
    body = {"command_id": w.cid(), "outcome": "upheld", "reason": "ガイドラインどおり"}
    return Call(params={"appeal": appeal}, json=body)


def _statement(w: World, role: str) -> Call:
    body = {"command_id": w.cid(), "author": "証人 A", "author_role": "witness", "text": "手札を見ていました"}
    return Call(json=body)


def _invitation(w: World, role: str) -> Call:
    return Call(json={"role": "viewer"})


def _as_json(w: World, role: str) -> Call:
    return Call(query={"format": "json"})


def _history(w: World, role: str) -> Call:
    return Call(query={"name": "高橋 翔太", "reading": "たかはし しょうた", "format": "json"})


def _slip(w: World, role: str) -> Call:
    return Call(params={"number": w.record(_player(w), "ingame.cards-off-table")}, query={"format": "json"})


def _penalty_slips(w: World, role: str) -> Call:
    return Call(query={"format": "json", "ruling": w.record(_player(w), "ingame.cards-off-table")})


def _result_slips(w: World, role: str) -> Call:
    return Call(query={"format": "json", "round": 1})


def _swiss_event(w: World, *, state: str = "new") -> int:
    """An event of its own, with the world's people in their seats and 9 players: ``new``
    (nothing paired), ``paired`` (round 1 paired by the service), ``started`` or ``ended``."""
    from shinpan.engine.event_rules import Role
    from shinpan.files.csvio import PlayerRow
    from shinpan.services import accounts, events, rounds, swiss

    def uid(name: str) -> str:
        found = accounts.account_named(w.db, name)
        assert found is not None
        return found.uid

    hj = HEAD_JUDGE[0]
    event = events.create_event(
        w.db,
        name=f"スイス {w.cid()}",
        head_judge=hj,
        head_judge_level=HEAD_JUDGE[2],
        head_judge_account=uid(hj),
    )
    for role, name in (
        (Role.floor_judge, FLOOR_JUDGE[0]),
        (Role.scorekeeper, SCOREKEEPER[0]),
        (Role.viewer, VIEWER[0]),
    ):
        events.add_judge(w.db, event, name=name, level=None, role=role, account=uid(name))
    events.import_players(
        w.db, event, [PlayerRow(f"S{i:02d}", f"選手 {i}", "せんしゅ", None) for i in range(9)]
    )
    if state in ("paired", "started", "ended"):
        swiss.pair_next_round(w.db, event, seed=1)
    if state in ("started", "ended"):
        rounds.start_round(w.db, event)
    if state == "ended":
        events.end_round(w.db, event, open_tables=draws(w.db, event))
    return event


def _pair(w: World, role: str) -> Call:
    return Call(params={"event_id": _swiss_event(w)}, json={"command_id": w.cid(), "seed": 5})


def _start(w: World, role: str) -> Call:
    return Call(
        params={"event_id": _swiss_event(w, state="paired")}, json={"command_id": w.cid(), "minutes": 45}
    )


def _end(w: World, role: str) -> Call:
    event = _swiss_event(w, state="started")
    chosen = {str(t): c.value for t, c in draws(w.db, event).items()}  # each open table: a draw
    return Call(params={"event_id": event}, json={"command_id": w.cid(), "open_tables": chosen})


def _give_time(w: World, role: str) -> Call:
    body = {"command_id": w.cid(), "table": 1, "minutes": 3, "reason": "デッキチェック"}
    return Call(params={"event_id": _swiss_event(w, state="started")}, json=body)


def _edit_pairings(w: World, role: str) -> Call:
    from shinpan.services.scoresheet import round_sheet

    event = _swiss_event(w, state="paired")
    one, two = round_sheet(w.db, event).rows[:2]
    assert one.b is not None and two.b is not None
    tables = [
        {"table": 1, "a": one.a.number, "b": two.b.number},
        {"table": 2, "a": two.a.number, "b": one.b.number},
    ]
    return Call(
        params={"event_id": event}, json={"command_id": w.cid(), "reason": "同じ店の選手", "tables": tables}
    )


def _drop(w: World, role: str) -> Call:
    return Call(params={"number": w.spare.pop()}, json={"command_id": w.cid()})


def _standings(w: World, role: str) -> Call:
    return Call(query={"round": 1})


def _wall_pairings(w: World, role: str) -> Call:
    return Call(query={"format": "csv", "round": 1, "by": "name"})


def _wall_standings(w: World, role: str) -> Call:
    return Call(params={"event_id": _swiss_event(w, state="ended")}, query={"format": "json", "round": 1})


def _set_format(w: World, role: str) -> Call:
    body = {"command_id": w.cid(), "format": "bo1", "tiebreakers": ["omw", "oomw", "seeded"]}
    return Call(params={"event_id": _swiss_event(w)}, json=body)


def _publish(w: World, role: str) -> Call:
    return Call(json={"command_id": w.cid(), "names": "names"})


def _winner_report(w: World, role: str) -> Call:
    """A winner's report waiting at table 1 of a Swiss event's round 1 (T11, T12)."""
    from shinpan.services import publish, winner_reports
    from shinpan.services.codes import match_codes

    event = _swiss_event(w, state="started")
    publish.publish(w.db, event, winner_report=True)
    with w.db.read() as conn:
        code = match_codes(w.db, conn, event, 1, [1])[1]
    done = winner_reports.report_win(w.db, event, 1, 1, code, "2-0")
    return Call(params={"event_id": event, "report": done.seq}, json={"command_id": w.cid()})


def _swiss_played(w: World, playoff: bool = False) -> int:
    """A Swiss event whose round 1 has ended with every result in (and, with ``playoff``, a
    playoff of four whose semi-finals have ended too)."""
    from shinpan.services import events, rounds, scoresheet
    from shinpan.services import playoff as playoffs

    event = _swiss_event(w, state="started")

    def finish(number: int) -> None:
        for row in scoresheet.round_sheet(w.db, event, number).rows:
            if row.b is not None:
                events.report_result(w.db, event, number, row.table, result="a")
        events.end_round(w.db, event, number)

    finish(1)
    if playoff:
        playoffs.start_playoff(w.db, event, 4)
        rounds.start_round(w.db, event)
        finish(2)
    return event


def _start_playoff(w: World, role: str) -> Call:
    return Call(
        params={"event_id": _swiss_played(w)}, json={"command_id": w.cid(), "size": 4, "third_place": True}
    )


def _pair_playoff(w: World, role: str) -> Call:
    return Call(params={"event_id": _swiss_played(w, playoff=True)}, json={"command_id": w.cid()})


def _session_of(w: World, name: str) -> str:
    """How the lists name a new session of the account ``name`` (another phone of theirs)."""
    user = accounts.account_named(w.db, name)
    assert user is not None
    return accounts.session_hash(access.start_session(w.db, user))


def _own_session(w: World, role: str) -> Call:
    names = {HJ: HEAD_JUDGE[0], FJ: FLOOR_JUDGE[0], SK: SCOREKEEPER[0], VW: VIEWER[0], OUT: OUTSIDER[0]}
    return Call(params={"key": _session_of(w, names.get(role, FLOOR_JUDGE[0]))})


def _judges_session(w: World, role: str) -> Call:
    return Call(params={"key": _session_of(w, FLOOR_JUDGE[0])})


def _seal(w: World, role: str) -> Call:
    """An event of its own to seal: the world's stays open for the other calls."""
    return Call(params={"event_id": _swiss_event(w)}, json={"command_id": w.cid()})


def _reopen(w: World, role: str) -> Call:
    from shinpan.services import seal

    event = _swiss_event(w)
    seal.seal_event(w.db, event)
    return Call(params={"event_id": event}, json={"command_id": w.cid(), "reason": "記録漏れ"})


@pytest.fixture(scope="module", autouse=True)
def seal_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Where a PostgreSQL installation keeps its seal key and its seals: this module's."""
    patch = pytest.MonkeyPatch()
    patch.setenv("SHINPAN_HOME", str(tmp_path_factory.mktemp("home")))
    yield
    patch.undo()


def _started_call(w: World, *, claimed: bool = False) -> tuple[int, int]:
    """A judge call open (or claimed) at table 1 of a running Swiss event of its own (T14)."""
    from shinpan.services.calls import claim_call, raise_call

    event = _swiss_event(w, state="started")
    number = raise_call(w.db, event, 1, "rules")["call"]
    if claimed:
        claim_call(w.db, event, number)
    return event, number


def _raise_call(w: World, role: str) -> Call:
    body = {"command_id": w.cid(), "table": 1, "reason": "rules"}
    return Call(params={"event_id": _swiss_event(w, state="started")}, json=body)


def _open_call(w: World, role: str) -> Call:
    event, number = _started_call(w)
    return Call(params={"event_id": event, "call": number}, json={"command_id": w.cid()})


def _claimed_call(w: World, role: str) -> Call:
    event, number = _started_call(w, claimed=True)
    return Call(params={"event_id": event, "call": number}, json={"command_id": w.cid(), "outcome": "none"})


def _players_event(w: World) -> tuple[int, str]:
    """A running Swiss event published to its players, the calls' limit per address out of
    the way (every role's client shares one address here)."""
    from shinpan.services import publish
    from shinpan.web.public import AddressLimit

    event = _swiss_event(w, state="started")
    token = publish.publish(w.db, event, names="names").token
    assert token is not None
    w.app.state.call_limit = AddressLimit(10_000)
    return event, token


def _player_call(w: World, role: str) -> Call:
    _, token = _players_event(w)
    return Call(params={"token": token}, json={"command_id": w.cid(), "table": 2, "reason": "time"})


def _finished_player(w: World) -> tuple[str, str, str]:
    """The token, a player whose match has its result, and their registration code."""
    from shinpan.services import events
    from shinpan.services.codes import player_codes
    from shinpan.services.scoresheet import round_sheet

    event, token = _players_event(w)
    row = round_sheet(w.db, event).rows[0]
    events.report_result(w.db, event, 1, row.table, result="a")
    with w.db.read() as conn:
        code = player_codes(w.db, conn, event, [row.a.number])[row.a.number]
    return token, row.a.number, code


def _player_drop(w: World, role: str) -> Call:
    token, player, code = _finished_player(w)
    return Call(params={"token": token}, json={"command_id": w.cid(), "player": player, "code": code})


def _player_state(w: World, role: str) -> Call:
    token, player, _ = _finished_player(w)
    return Call(params={"token": token, "number": player})


# -- decklists and deck checks (T13): each call on an event of its own ------------------------

_DECK_TEXT = "\n".join(["4 稲妻", *[f"1 Card {i}" for i in range(56)]]) + "\n\n3 Duress\n"


def _deck_event(w: World, *, state: str = "paired", lists: bool = True) -> int:
    from shinpan.services import decklists, rounds
    from shinpan.tournament.decks import Decklist

    event = _swiss_event(w, state="paired")
    if lists:
        deck = Decklist.of(
            {"main": [(4, "稲妻"), *[(1, f"Card {i}") for i in range(56)]], "side": [(3, "Duress")]}
        )
        decklists.import_lists(w.db, event, {f"S{i:02d}": (deck, "text", "t", "x") for i in range(9)})
    if state == "started":
        rounds.start_round(w.db, event)
    return event


def _deck_check(w: World, *, ended: bool = False) -> int:
    from shinpan.services import deckchecks

    event = _deck_event(w, state="started")
    deckchecks.start(w.db, event, 1, 1)
    if ended:
        deckchecks.end(w.db, event, 1, 1)
    return event


def _deck_rules(w: World, role: str) -> Call:
    return Call(params={"event_id": _swiss_event(w)}, json={"command_id": w.cid(), "copies": 3})


def _deck_submit(w: World, role: str) -> Call:
    body = {"command_id": w.cid(), "player": "S01", "text": _DECK_TEXT}
    return Call(params={"event_id": _swiss_event(w)}, json=body)


def _deck_import(w: World, role: str) -> Call:
    csv = "player,section,count,name\nS01,main,4,稲妻\nS02,main,4,稲妻\n"
    return Call(params={"event_id": _swiss_event(w)}, json={"command_id": w.cid(), "csv": csv})


def _deck_lock(w: World, role: str) -> Call:
    return Call(params={"event_id": _deck_event(w)}, json={"command_id": w.cid()})


def _deck_correct(w: World, role: str) -> Call:
    from shinpan.services import decklists

    event = _deck_event(w)
    decklists.lock(w.db, event)
    body = {"command_id": w.cid(), "player": "S01", "text": _DECK_TEXT, "reason": "記入ミス"}
    return Call(params={"event_id": event}, json=body)


def _deck_list(w: World, role: str) -> Call:
    return Call(params={"event_id": _deck_event(w), "player": "S01"})


def _deck_pick(w: World, role: str) -> Call:
    return Call(params={"event_id": _deck_event(w)}, query={"round": 1, "tables": 2, "seed": 3})


def _deck_start(w: World, role: str) -> Call:
    return Call(
        params={"event_id": _deck_event(w, state="started")},
        json={"command_id": w.cid(), "round": 1, "table": 1},
    )


def _deck_count(w: World, role: str) -> Call:
    from shinpan.store.matches import seated

    event = _deck_check(w)
    with w.db.read() as conn:
        found = seated(conn, event, 1, 1)
    assert found is not None
    body = {"command_id": w.cid(), "round": 1, "table": 1, "player": found[0], "text": _DECK_TEXT}
    return Call(params={"event_id": event}, json=body)


def _deck_end(w: World, role: str) -> Call:
    return Call(
        params={"event_id": _deck_check(w)},
        json={"command_id": w.cid(), "round": 1, "table": 1, "extend": True},
    )


def _deck_corrected(w: World, role: str) -> Call:
    from shinpan.store.matches import seated

    event = _deck_check(w, ended=True)
    with w.db.read() as conn:
        found = seated(conn, event, 1, 1)
    assert found is not None
    body = {"command_id": w.cid(), "round": 1, "table": 1, "player": found[0]}
    return Call(params={"event_id": event}, json=body)


def _deck_view(w: World, role: str) -> Call:
    return Call(params={"event_id": _deck_check(w), "round": 1, "table": 1})


def _deck_checks(w: World, role: str) -> Call:
    return Call(params={"event_id": _deck_check(w, ended=True)}, query={"round": 1})


_NO_LEVEL = tuple((role, 422) for role in (FJ, SK, VW, OUT))  # D15: REL 3 needs a level-2 head judge

E = "/api/events/{event_id}"
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", "/api/openapi.json", EVERYONE, _nothing),
    Endpoint("GET", "/api/guideline", EVERYONE, _nothing),
    Endpoint("GET", "/api/events", SIGNED_IN, _nothing),
    Endpoint("POST", "/api/events", SIGNED_IN, _new_event, ok=201, otherwise=_NO_LEVEL),
    Endpoint("GET", E + "/players", EVENT_ROLES, _search),
    Endpoint("GET", E + "/players/{number}", EVENT_ROLES, _one_player),
    Endpoint("POST", E + "/players", frozenset({HJ, SK}), _import_players),  # the roster
    Endpoint("POST", E + "/rulings/preview", frozenset({HJ, FJ}), _record),
    Endpoint("POST", E + "/rulings", frozenset({HJ, FJ}), _record, ok=201),
    Endpoint("GET", E + "/rulings", EVENT_ROLES, _nothing),
    Endpoint("GET", E + "/rulings/{number}", EVENT_ROLES, _ruling),
    Endpoint("POST", E + "/rulings/{number}/confirm", frozenset({HJ}), _confirm),
    Endpoint("POST", E + "/rulings/{number}/deviate", frozenset({HJ}), _deviate),
    Endpoint("POST", E + "/rulings/{number}/void", frozenset({HJ}), _void),
    Endpoint("GET", E + "/deadlines", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/deadlines/{ruling}/{position}/{outcome}", frozenset({HJ, FJ}), _deadline),
    Endpoint("GET", E + "/rounds/{round_no}", EVENT_ROLES, _round),
    Endpoint("POST", E + "/rounds/{round_no}/pairings", frozenset({HJ, SK}), _pairings),
    Endpoint("POST", E + "/results", frozenset({HJ, SK}), _result),
    Endpoint("GET", E + "/winner-reports", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/winner-reports/{report}/confirm", frozenset({HJ, SK}), _winner_report),
    Endpoint("POST", E + "/rounds", frozenset({HJ, SK}), _pair, ok=201),
    Endpoint("POST", E + "/rounds/start", frozenset({HJ, SK}), _start),
    Endpoint("POST", E + "/rounds/end", frozenset({HJ, SK}), _end),
    Endpoint("GET", E + "/clock", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/extensions", frozenset({HJ, FJ}), _give_time, ok=201),
    # judge calls (T14): raised, claimed, escalated, resolved by judges; a player's own
    Endpoint("POST", E + "/calls", frozenset({HJ, FJ}), _raise_call, ok=201),
    Endpoint("GET", E + "/calls", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/calls/{call}/claim", frozenset({HJ, FJ}), _open_call),
    Endpoint("POST", E + "/calls/{call}/escalate", frozenset({HJ, FJ}), _open_call),
    Endpoint("POST", E + "/calls/{call}/resolve", frozenset({HJ, FJ}), _claimed_call),
    Endpoint("GET", E + "/calls/{call}/proposal", frozenset({HJ, FJ}), _claimed_call),
    Endpoint("POST", "/api/p/{token}/calls", EVERYONE, _player_call, ok=201),
    Endpoint("POST", "/api/p/{token}/drop", EVERYONE, _player_drop),
    Endpoint("GET", "/api/p/{token}/players/{number}", EVERYONE, _player_state),
    Endpoint("POST", E + "/pairings", frozenset({HJ}), _edit_pairings),
    Endpoint("POST", E + "/players/{number}/drop", frozenset({HJ, SK}), _drop),
    Endpoint("GET", E + "/standings", EVENT_ROLES, _standings),
    Endpoint("GET", E + "/format", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/format", frozenset({HJ}), _set_format),
    Endpoint("POST", E + "/playoff", frozenset({HJ, SK}), _start_playoff, ok=201),
    Endpoint("POST", E + "/playoff/rounds", frozenset({HJ, SK}), _pair_playoff, ok=201),
    Endpoint("GET", E + "/playoff", EVENT_ROLES, _nothing),
    Endpoint("GET", E + "/placings", EVENT_ROLES, _nothing),
    Endpoint("GET", E + "/publish", frozenset({HJ}), _nothing),
    Endpoint("POST", E + "/publish", frozenset({HJ}), _publish),
    Endpoint("POST", E + "/appeals", frozenset({HJ, FJ}), _appeal, ok=201),
    Endpoint("POST", E + "/appeals/{appeal}/decision", frozenset({HJ}), _decision),
    Endpoint("POST", E + "/statements", frozenset({HJ, FJ}), _statement, ok=201),
    Endpoint("POST", E + "/invitations", frozenset({HJ}), _invitation, ok=201),
    Endpoint("GET", E + "/seal", EVENT_ROLES, _nothing),
    Endpoint("POST", E + "/seal", frozenset({HJ}), _seal),
    Endpoint("POST", E + "/reopen", frozenset({HJ}), _reopen),
    Endpoint("GET", E + "/export", frozenset({HJ, SK}), _nothing),
    Endpoint("GET", E + "/stream", EVENT_ROLES, _nothing),
    # reports: export (head judge, scorekeeper), report (head judge), read
    Endpoint("GET", E + "/reports/penalties", frozenset({HJ, SK}), _as_json),
    Endpoint("GET", E + "/reports/penalty-slips", EVENT_ROLES, _penalty_slips),
    Endpoint("GET", E + "/reports/result-slips", frozenset({HJ, SK}), _result_slips),
    Endpoint("GET", E + "/reports/stats", frozenset({HJ, SK}), _as_json),
    Endpoint("GET", E + "/reports/dq", frozenset({HJ}), _as_json),
    Endpoint("GET", E + "/reports/pairings", EVENT_ROLES, _wall_pairings),  # the venue wall
    Endpoint("GET", E + "/reports/standings", EVENT_ROLES, _wall_standings),
    Endpoint("GET", E + "/reports/bracket", EVENT_ROLES, _as_json),
    Endpoint("GET", E + "/rulings/{number}/slip", EVENT_ROLES, _slip),
    Endpoint("GET", "/api/reports/stats", frozenset({HJ, SK}), _as_json),  # where they may export
    Endpoint("GET", "/api/players/history", frozenset({HJ}), _history),  # a head judge somewhere
    # sessions: one's own (everyone signed in), the event's judges' (head judge)
    Endpoint("GET", "/api/sessions", SIGNED_IN, _nothing),
    Endpoint("POST", "/api/sessions/{key}/end", SIGNED_IN, _own_session),
    Endpoint("GET", E + "/sessions", frozenset({HJ}), _nothing),
    Endpoint("POST", E + "/sessions/{key}/end", frozenset({HJ}), _judges_session),
    # decklists and deck checks (T13): lists the judges read, the desk registers, checks on the floor
    Endpoint("POST", E + "/decklists/rules", frozenset({HJ}), _deck_rules),
    Endpoint("POST", E + "/decklists", frozenset({HJ, SK}), _deck_submit, ok=201),
    Endpoint("POST", E + "/decklists/import", frozenset({HJ, SK}), _deck_import, ok=201),
    Endpoint("GET", E + "/decklists", EVENT_ROLES, _deck_list),
    Endpoint("GET", E + "/decklists/{player}", EVENT_ROLES, _deck_list),
    Endpoint("POST", E + "/decklists/lock", frozenset({HJ}), _deck_lock),
    Endpoint("POST", E + "/decklists/correct", frozenset({HJ}), _deck_correct),
    Endpoint("GET", E + "/deckchecks/pick", frozenset({HJ, FJ}), _deck_pick),
    Endpoint("POST", E + "/deckchecks", frozenset({HJ, FJ}), _deck_start, ok=201),
    Endpoint("POST", E + "/deckchecks/count", frozenset({HJ, FJ}), _deck_count),
    Endpoint("POST", E + "/deckchecks/end", frozenset({HJ, FJ}), _deck_end),
    Endpoint("POST", E + "/deckchecks/corrected", frozenset({HJ, FJ}), _deck_corrected),
    Endpoint("GET", E + "/deckchecks", EVENT_ROLES, _deck_checks),
    Endpoint("GET", E + "/deckchecks/{round}/{table}", frozenset({HJ, FJ}), _deck_view),
)
UNSAFE = tuple(e for e in ENDPOINTS if e.method == "POST")
# What a player does without an account (a call, a drop: the event's published token and, for
# a drop, their registration code) carries no CSRF token: no cookie gives it any authority.
WITH_AN_ACCOUNT = tuple(e for e in UNSAFE if ANON not in e.allowed)


def api_routes(app: FastAPI) -> set[tuple[str, str]]:
    """(method, path) of every route the app serves under /api, however routers nest."""
    found: set[tuple[str, str]] = set()

    def walk(routes: Any) -> None:
        for route in routes:
            contexts = getattr(route, "effective_route_contexts", None)
            if contexts is not None:  # FastAPI's included router
                walk(contexts())
            elif hasattr(route, "methods") and hasattr(route, "path"):
                found.update((m, route.path) for m in route.methods or () if m != "HEAD")
            elif hasattr(route, "routes"):  # a mount
                walk(route.routes)

    walk(app.routes)
    return {(m, p) for m, p in found if p.startswith("/api/") or p == "/api"}


def test_the_table_covers_every_api_route(world: World) -> None:
    table = [(e.method, e.path) for e in ENDPOINTS]
    assert len(table) == len(set(table)), "an endpoint is listed twice"
    served = api_routes(world.app)
    assert served, "no route under /api found: has the router changed shape?"
    missing, stale = served - set(table), set(table) - served
    assert not missing, f"routes under /api without a row in ENDPOINTS: {sorted(missing)}"
    assert not stale, f"rows in ENDPOINTS for routes that do not exist: {sorted(stale)}"


# -- who may call what -----------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_every_role_against_every_endpoint(world: World, endpoint: Endpoint, role: str) -> None:
    call = endpoint.prepare(world, role)
    before = ledger_size(world)
    r = send(world, endpoint, world.clients[role], call)
    want = endpoint.expected(role)
    assert r.status_code == want, f"{role}: {endpoint} gave {r.status_code}, not {want}: {r.text[:300]}"
    if r.status_code >= 400:
        assert r.json().get("detail"), r.text
        assert ledger_size(world) == before, "a refused call changed the ledger"
    if r.status_code in (401, 403) and endpoint.method == "POST":
        assert "CSRF" not in r.json()["detail"], "refused for its CSRF token, not its role"


def test_refusals_say_why(world: World) -> None:
    e = world.event
    anon = world.clients[ANON].get(f"/api/events/{e}/rulings")
    assert anon.status_code == 401 and anon.json()["detail"] == "先にサインインしてください"
    with in_english(world.clients[OUT]) as outsider_client:
        outsider = outsider_client.get(f"/api/events/{e}/rulings")
    assert outsider.json() == {"detail": "you are not a judge of this event"}
    call = _confirm(world, FJ)
    with in_english(world.clients[FJ]) as floor_judge:
        floor = floor_judge.post(f"/api/events/{e}/rulings/{call.params['number']}/confirm", json=call.json)
    assert floor.status_code == 403
    assert floor.json() == {"detail": "a floor_judge may not confirm"}


def test_pages_send_the_signed_out_to_sign_in(world: World) -> None:
    r = world.clients[ANON].get(f"/events/{world.event}/desk", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == f"/login?next=/events/{world.event}/desk"


# -- CSRF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["missing", "wrong", "another session's"])
@pytest.mark.parametrize("endpoint", WITH_AN_ACCOUNT, ids=str)
def test_unsafe_calls_need_the_csrf_token(world: World, endpoint: Endpoint, token: str) -> None:
    hj = world.clients[HJ]
    call = endpoint.prepare(world, HJ)
    before = ledger_size(world)
    headers = {
        "missing": {},
        "wrong": {"X-CSRF-Token": "not-the-token"},
        "another session's": {"X-CSRF-Token": world.clients[FJ].csrf},
    }[token]
    url = endpoint.url(world, call)
    r = hj.http.post(url, json=call.json, data=call.data, files=call.files, headers=headers)
    assert r.status_code == 403, r.text
    assert "CSRF" in r.json()["detail"]
    assert ledger_size(world) == before


def test_a_form_may_carry_the_csrf_token_instead_of_the_header(world: World) -> None:
    hj = world.clients[HJ]
    call = _import_players(world, HJ)
    url = f"/api/events/{world.event}/players"
    r = hj.post(url, csrf=False, data={**(call.data or {}), "csrf_token": hj.csrf}, files=call.files)
    assert r.status_code == 200, r.text
    assert r.json() == {"imported": 1}


def test_a_page_form_without_the_csrf_token_is_refused(world: World) -> None:
    hj = world.clients[HJ]
    number = _confirm(world, HJ).params["number"]
    url = f"/events/{world.event}/desk/confirm/{number}"
    r = hj.http.post(url, data={"command_id": world.cid()})
    assert r.status_code == 403
    assert "CSRF" in r.text
    assert world.clients[HJ].get(f"/api/events/{world.event}/rulings/{number}").json()["state"] == "pending"


def test_the_csrf_cookie_alone_is_not_enough(world: World) -> None:
    """The signed cookie itself, or an empty token, never passes as the token."""
    hj = world.clients[HJ]
    for given in ("", " ", hj.http.cookies.get("shinpan_csrf") or "x"):
        r = hj.http.post(
            f"/api/events/{world.event}/rulings", json=_record_body(world), headers={"X-CSRF-Token": given}
        )
        assert r.status_code == 403, given


# -- bad bodies ------------------------------------------------------------------------------


def _fields(r: httpx.Response) -> set[str]:
    return {e["field"] for e in r.json()["errors"]}


def test_missing_fields_are_named(world: World) -> None:
    r = world.clients[HJ].post(f"/api/events/{world.event}/rulings", json={})
    assert r.status_code == 422
    assert {"command_id", "player", "infraction"} <= _fields(r)
    assert r.json()["detail"] == "入力に誤りがあります"


def test_wrong_types_are_named(world: World) -> None:
    body = {
        "command_id": 12345678, "player": 1001, "infraction": ["ingame.slow-play"], "facts": "intentional",
        "round": "first", "table": 0, "note": {"text": "x"},
    }  # fmt: skip
    r = world.clients[HJ].post(f"/api/events/{world.event}/rulings", json=body)
    assert r.status_code == 422
    assert {"command_id", "player", "infraction", "facts", "round", "table", "note"} <= _fields(r)
    for error in r.json()["errors"]:
        assert error["message"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command_id": "bad id!"}, "command_id"),
        ({"command_id": "short"}, "command_id"),
        ({"round": -1}, "round"),
        ({"facts": {"intentional": [1]}}, "facts.intentional"),
        ({"deviation": {"penalties": "warning1"}}, "deviation.penalties"),
    ],
)
def test_invalid_values_are_named(world: World, body: dict[str, Any], field: str) -> None:
    r = world.clients[HJ].post(f"/api/events/{world.event}/rulings", json={**_record_body(world), **body})
    assert r.status_code == 422, r.text
    assert any(f == field or f.startswith(field + ".") for f in _fields(r)), r.text


def test_an_unknown_player_is_not_found(world: World) -> None:
    before = ledger_size(world)
    body = {**_record_body(world), "player": "Z999"}
    with in_english(world.clients[HJ]) as hj:
        r = hj.post(f"/api/events/{world.event}/rulings", json=body)
    assert r.status_code == 404
    assert r.json() == {"detail": f"no player Z999 in event {world.event}", "field": "player"}
    assert ledger_size(world) == before


def test_an_unknown_infraction_is_refused_with_its_name(world: World) -> None:
    before = ledger_size(world)
    body = {**_record_body(world), "infraction": "ingame.no-such-thing"}
    r = world.clients[HJ].post(f"/api/events/{world.event}/rulings", json=body)
    assert r.status_code == 422
    assert r.json()["field"] == "infraction"
    assert "ingame.no-such-thing" in r.json()["detail"]
    assert ledger_size(world) == before


def test_a_fact_the_infraction_does_not_ask_is_refused(world: World) -> None:
    body = {**_record_body(world, "ingame.slow-play"), "facts": {"kind": "noise"}}
    r = world.clients[HJ].post(f"/api/events/{world.event}/rulings", json=body)
    assert r.status_code == 422
    assert r.json()["field"] == "facts.kind"


def test_a_bad_players_csv_imports_nothing(world: World) -> None:
    before = ledger_size(world)
    csv = "番号,名前,フリガナ\nN9001,新人,しんじん\nN9001,二重,にじゅう\n".encode()
    r = world.clients[HJ].post(
        f"/api/events/{world.event}/players",
        files={"file": ("p.csv", csv, "text/csv")},
        data={"command_id": world.cid()},
    )
    assert r.status_code == 422
    assert r.json()["field"] == "file" and "N9001" in r.json()["detail"]
    assert ledger_size(world) == before


def test_a_result_is_a_duel_or_a_match(world: World) -> None:
    call = _result(world, HJ)
    for extra in ({"result": "a"}, {"score": "2-0"}, {"match": "b"}):
        r = world.clients[HJ].post(f"/api/events/{world.event}/results", json={**call.json, **extra})
        assert r.status_code == 422, r.text
        assert r.json()["field"] == "result"


# -- never a 500 -----------------------------------------------------------------------------

SURROGATE = object()  # a lone UTF-16 surrogate, which only raw JSON can carry
ODD_VALUES: tuple[Any, ...] = (
    None, True, -1, 0, 2**63, -(10**30), 1.5, "", "x" * 100_000, "nul\u0000nul", "𠮷野家🀄️ｶﾅ",
    "<script>alert(1)</script>", SURROGATE, [], ["x"], {}, {"a": {"b": [1]}},
)  # fmt: skip
ODD_BODIES: tuple[bytes, ...] = (
    b"", b"{", b"null", b"[]", b"42", b'"text"', b"{}", b'{"command_id": }', b"\xff\xfe\x00", b"[" * 5000,
)  # fmt: skip
ODD_PATH_VALUES = ("-1", "0", "2147483648", "99999999999999999999999999", "abc", "%00", "１", "1.5")


def _raw_json(value: dict[str, Any]) -> bytes:
    text = json.dumps(value, ensure_ascii=True, default=lambda _: "\udcff")
    return text.replace('"\\udcff"', '"\\ud800"').encode()


def _odd_requests(w: World, endpoint: Endpoint) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(label, url, request keywords) for malformed variants of a valid request."""
    call = endpoint.prepare(w, HJ)
    url = endpoint.url(w, call)
    for name in call.params:
        for odd in ODD_PATH_VALUES:
            bad = endpoint.path.format(**{"event_id": w.event, **call.params, name: odd})
            yield f"path {name}={odd}", bad, _valid(w, call)
    for odd in ODD_PATH_VALUES:
        bad = endpoint.path.format(**{**call.params, "event_id": odd})
        yield f"path event_id={odd}", bad, _valid(w, call)
    if call.files is not None:  # a CSV upload
        file = call.files["file"]
        for label, kw in (
            ("no file", {"data": {"command_id": w.cid()}}),
            ("no command id", {"files": call.files}),
            ("empty file", {"files": {"file": (file[0], b"", "text/csv")}, "data": {"command_id": w.cid()}}),
            (
                "binary",
                {
                    "files": {"file": ("x.xlsx", b"PK\x03\x04" + bytes(range(256)) * 50)},
                    "data": {"command_id": w.cid()},
                },
            ),
            ("nul", {"files": {"file": ("x.csv", b"a,b\x00\n")}, "data": {"command_id": w.cid()}}),
            ("long lines", {"files": {"file": ("x.csv", b"a" * 2_000_000)}, "data": {"command_id": w.cid()}}),
            ("file as text", {"data": {"file": "番号,名前\n1,a\n", "command_id": w.cid()}}),
            ("long id", {"files": call.files, "data": {"command_id": "c" * 1000}}),
            ("odd id", {"files": call.files, "data": {"command_id": "\u0000" * 10}}),
            ("json", {"json": {"command_id": w.cid()}}),
        ):
            yield label, url, kw
        return
    for raw in ODD_BODIES:
        yield f"body {raw[:12]!r}", url, {"content": raw, "headers": {"Content-Type": "application/json"}}
    body: dict[str, Any] = call.json or {}
    for name in [*body, "unknown_field"]:
        for odd in ODD_VALUES:
            changed = {**body, name: odd}
            if name != "command_id" and "command_id" in changed:
                changed["command_id"] = w.cid()
            yield (
                f"{name}={str(odd)[:20]!r}",
                url,
                {
                    "content": _raw_json(changed),
                    "headers": {"Content-Type": "application/json"},
                },
            )


def _valid(w: World, call: Call) -> dict[str, Any]:
    if call.json is not None:
        return {"json": {**call.json, **({"command_id": w.cid()} if "command_id" in call.json else {})}}
    return {"data": call.data, "files": call.files}


@pytest.mark.parametrize("endpoint", UNSAFE, ids=str)
def test_malformed_requests_never_make_a_server_error(world: World, endpoint: Endpoint) -> None:
    hj = world.clients[HJ]
    failures = []
    for label, url, kw in _odd_requests(world, endpoint):
        r = hj.post(url, **kw)
        if r.status_code >= 500:
            failures.append(f"{label}: {r.status_code} {r.text[:120]}")
        elif r.status_code >= 400:
            assert r.headers["content-type"].startswith("application/json"), label
            assert r.json()["detail"], label
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", ["/rulings/{n}", "/rounds/{n}", "/players/{n}", "/rulings?before={n}"])
def test_odd_numbers_in_reads_never_make_a_server_error(world: World, path: str) -> None:
    for odd in ODD_PATH_VALUES:
        r = world.clients[HJ].get(f"/api/events/{world.event}" + path.format(n=odd))
        assert r.status_code < 500, f"{odd}: {r.text[:200]}"


# -- retries ---------------------------------------------------------------------------------


def test_a_retried_record_returns_the_first_ruling(world: World) -> None:
    hj = world.clients[HJ]
    url = f"/api/events/{world.event}/rulings"
    body = _record_body(world, "ingame.slow-play")
    first = hj.post(url, json=body)
    assert first.status_code == 201 and first.json()["replayed"] is False
    count, size = len(world.rulings_of(body["player"])), ledger_size(world)
    for _ in range(2):
        again = hj.post(url, json=body)
        assert again.status_code == 201
        assert again.json()["replayed"] is True
        assert again.json()["rulings"] == first.json()["rulings"]
        assert again.json()["entry"] == first.json()["entry"]
    assert len(world.rulings_of(body["player"])) == count
    assert ledger_size(world) == size


def test_a_retry_from_another_judge_is_still_one_ruling(world: World) -> None:
    url = f"/api/events/{world.event}/rulings"
    body = _record_body(world)
    first = world.clients[FJ].post(url, json=body)
    assert first.status_code == 201
    count = len(world.rulings_of(body["player"]))
    again = world.clients[HJ].post(url, json=body)
    assert again.status_code in (201, 409), again.text
    assert len(world.rulings_of(body["player"])) == count


def test_a_command_id_used_for_something_else_is_refused(world: World) -> None:
    hj = world.clients[HJ]
    url = f"/api/events/{world.event}/rulings"
    body = _record_body(world)
    assert hj.post(url, json=body).status_code == 201
    size = ledger_size(world)
    for change in ({"infraction": "ingame.slow-play"}, {"player": world.players[39]}, {"note": "後から"}):
        with in_english(hj):
            r = hj.post(url, json={**body, **change})
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == f"command {body['command_id']} was already used for something else"
    assert ledger_size(world) == size


@pytest.mark.parametrize("prepare", [_confirm, _result, _void, _statement], ids=lambda p: p.__name__[1:])
def test_other_commands_are_safe_to_retry(world: World, prepare: Prepare) -> None:
    endpoint = next(e for e in UNSAFE if e.prepare is prepare)
    call = prepare(world, HJ)
    first = send(world, endpoint, world.clients[HJ], call)
    assert first.status_code == endpoint.ok, first.text
    size = ledger_size(world)
    again = send(world, endpoint, world.clients[HJ], call)
    assert again.status_code == endpoint.ok, again.text
    assert again.json() == first.json()
    assert ledger_size(world) == size


# -- signing in ------------------------------------------------------------------------------


def test_the_sixth_failed_sign_in_is_refused(world: World) -> None:
    from shinpan.services import accounts

    name = f"limit-{world.cid()}"
    accounts.add_user(world.db, name, "right-password")
    http = TestClient(world.app, raise_server_exceptions=False)
    token = csrf_in(http.get("/login").text)

    def attempt(password: str, who: str = name) -> int:
        form = {"name": who, "password": password, "csrf_token": token}
        return http.post("/login", data=form, follow_redirects=False).status_code

    assert [attempt(f"wrong-{i}") for i in range(5)] == [401] * 5
    assert attempt("wrong-6") == 429
    assert attempt("right-password") == 429, "the limit holds even for the right password"
    assert attempt("wrong", who=HEAD_JUDGE[0]) == 401, "another name is not limited"


def test_the_session_cookie_is_http_only_and_same_site(world: World) -> None:
    http = TestClient(world.app)
    first = http.get("/login")
    csrf_cookie = next(c for c in first.headers.get_list("set-cookie") if c.startswith("shinpan_csrf="))
    assert "httponly" in csrf_cookie.lower() and "samesite=strict" in csrf_cookie.lower()
    form = {"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": csrf_in(first.text)}
    done = http.post("/login", data=form, follow_redirects=False)
    session = next(c for c in done.headers.get_list("set-cookie") if c.startswith("shinpan_session="))
    flags = [f.strip().lower() for f in session.split(";")]
    assert "httponly" in flags
    assert "samesite=lax" in flags
    assert "path=/" in flags
    assert "secure" not in flags  # plain HTTP on the venue's LAN


def test_cookies_are_secure_when_asked(world: World) -> None:
    app = create_app(world.db, secure_cookies=True)
    http = TestClient(app, base_url="https://testserver")
    first = http.get("/login")
    form = {"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": csrf_in(first.text)}
    done = http.post("/login", data=form, follow_redirects=False)
    for cookie in [*first.headers.get_list("set-cookie"), *done.headers.get_list("set-cookie")]:
        assert "secure" in [f.strip().lower() for f in cookie.split(";")], cookie


def test_a_forged_session_is_signed_out(world: World) -> None:
    http = TestClient(world.app)
    real = sign_in(TestClient(world.app), HEAD_JUDGE[0], HEAD_JUDGE[1]).http.cookies["shinpan_session"]
    payload, _, signature = real.partition(".")
    forged = "eyJ1aWQiOjJ9" + real[len(payload) :]  # {"uid":2} with the head judge's signature
    for cookie in (forged, real[:-2] + "xx", "garbage", signature):
        http.cookies.set("shinpan_session", cookie)
        assert http.get("/api/events").status_code == 401, cookie


def test_signing_out_ends_the_session(world: World) -> None:
    client = sign_in(TestClient(world.app), HEAD_JUDGE[0], HEAD_JUDGE[1])
    assert client.get("/api/events").status_code == 200
    out = client.http.post("/logout", data={"csrf_token": client.csrf}, follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/api/events").status_code == 401
