"""A demo event, so a newcomer sees shinpan working at once.

64 players, three rounds played (the third still running), a realistic mix of rulings, a
deadline running and a warning waiting for the head judge. Everything goes through the
same services as a real event, so the demo's ledger verifies like any other.

The demo lives in a SQLite file of its own (:func:`demo_path`), never in the database shinpan
serves otherwise: its accounts have known passwords. Their names end with "(デモ)" so that
they show as demo accounts wherever a name is shown.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shinpan.engine.event_rules import Role, RulingState
from shinpan.errors import Conflict
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.services import accounts, corrections, deadlines, events, recording, rounds
from shinpan.services.queries import round_matches, rulings_feed
from shinpan.services.shapes import RulingInFeed
from shinpan.store.db import Database, data_dir, resolve_url
from shinpan.store.urls import database_url
from shinpan.views.events import list_events

DEMO_NAME = "デモ大会 2026 冬 (shinpan demo)"
DEMO_MARK = "(デモ)"  # ends every demo account's name (ASCII parentheses: names are NFKC)
HEAD_JUDGE = (f"山田 一郎 {DEMO_MARK}", "shinpan-demo", 3)
FLOOR_JUDGE = (f"佐藤 花子 {DEMO_MARK}", "123456")
SCOREKEEPER = (f"鈴木 次郎 {DEMO_MARK}", "123456")
DEMO_FILE = "demo.sqlite3"
_DEMO_SUFFIX = ".demo.sqlite3"

_SURNAMES = [
    ("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"), ("田中", "たなか"), ("伊藤", "いとう"),
    ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら"), ("小林", "こばやし"), ("加藤", "かとう"),
    ("吉田", "よしだ"), ("山田", "やまだ"), ("佐々木", "ささき"), ("山口", "やまぐち"), ("松本", "まつもと"),
    ("井上", "いのうえ"),
]  # fmt: skip
_GIVEN = [("翔太", "しょうた"), ("美咲", "みさき"), ("大輔", "だいすけ"), ("陽菜", "ひな")]

# What the floor judge records in rounds 1 and 2: minutes into the round, the table (by its
# place in the round's pairings), its player (a or b), the infraction, and the minutes at which
# the ruling's remedy is carried out in time (None: no deadline closed).
_FLOOR_RULINGS: dict[int, tuple[tuple[float, int, str, str, float | None], ...]] = {
    1: (
        (3, 4, "a", "pregame.tardiness", 8),
        (12, 7, "b", "ingame.looking-at-extra-cards", None),
        (20, 9, "a", "ingame.extra-cards-drawn", None),
        (31, 12, "b", "deck.deck-decklist-mismatch", None),
    ),
    2: (
        (5, 2, "a", "players.no-life-record", 6),
        (15, 5, "a", "ingame.slow-play", None),
        (22, 6, "b", "pregame.shuffle-cut", None),
        (40, 11, "a", "ingame.misapplied-card-text", None),
    ),
}


@dataclass(frozen=True)
class Demo:
    event_id: int
    head_judge: str
    password: str


def _players() -> list[PlayerRow]:
    rows = []
    for n, ((family, family_kana), (given, given_kana)) in enumerate(
        ((s, g) for g in _GIVEN for s in _SURNAMES), start=1
    ):
        rows.append(PlayerRow(f"{1000 + n}", f"{family} {given}", f"{family_kana} {given_kana}", None))
    return rows


def _pairings(numbers: list[str], rng: random.Random) -> list[PairingRow]:
    order = numbers[:]
    rng.shuffle(order)
    return [PairingRow(t + 1, order[2 * t], order[2 * t + 1]) for t in range(len(order) // 2)]


def demo_path(db: str | None = None) -> Path:
    """The SQLite file ``shinpan serve --demo`` uses instead of the database ``db`` names.

    ``demo.sqlite3`` in the data directory for the default database, a PostgreSQL server or an
    in-memory one; ``NAME.demo.sqlite3`` beside a SQLite file ``NAME.sqlite3`` given with
    ``--db`` (or ``SHINPAN_DATABASE_URL``); a file already named as a demo is used as it is.
    Never the file ``db`` names otherwise.
    """
    parsed = database_url(resolve_url(db))  # StorageError: not a database URL
    default = data_dir().expanduser().resolve() / DEMO_FILE
    if parsed.dialect != "sqlite" or parsed.path is None:
        return default
    real = Path(parsed.path).expanduser().resolve()
    if real.name == DEMO_FILE or real.name.endswith(_DEMO_SUFFIX):
        return real
    if real == default.with_name("shinpan.sqlite3"):
        return default
    return real.with_name(real.stem + _DEMO_SUFFIX)


def find_demo(db: Database) -> int | None:
    return next((e.id for e in list_events(db) if e.name == DEMO_NAME), None)


def load_demo(db: Database, now: datetime | None = None) -> Demo:
    """Create the demo event (once) and its judges' accounts."""
    existing = find_demo(db)
    if existing is not None:
        return Demo(existing, HEAD_JUDGE[0], HEAD_JUDGE[1])
    rng = random.Random(2026)
    clock = now or datetime.now(UTC)
    start = clock - timedelta(hours=3)

    def at(minutes: float) -> datetime:
        return start + timedelta(minutes=minutes)

    uid = {}  # each judge's seat belongs to their demo account (seats point at accounts by uid)
    for name, secret, *level in (HEAD_JUDGE, FLOOR_JUDGE, SCOREKEEPER):
        with contextlib.suppress(Conflict):  # the account exists from an earlier demo: keep it
            accounts.add_user(db, name, secret, level[0] if level else None)
        account = accounts.account_named(db, name)
        assert account is not None
        uid[name] = account.uid
    e = events.create_event(
        db,
        name=DEMO_NAME,
        head_judge=HEAD_JUDGE[0],
        head_judge_level=HEAD_JUDGE[2],
        head_judge_account=uid[HEAD_JUDGE[0]],
        starts_on=clock.date().isoformat(),
        venue="東京ビッグサイト (demo)",
        now=at(0),
    )
    events.add_judge(
        db, e, name=FLOOR_JUDGE[0], level=1, role=Role.floor_judge, account=uid[FLOOR_JUDGE[0]], now=at(1)
    )
    events.add_judge(
        db, e, name=SCOREKEEPER[0], level=None, role=Role.scorekeeper, account=uid[SCOREKEEPER[0]], now=at(1)
    )
    players = _players()
    events.import_players(db, e, players, now=at(2))
    numbers = [p.number for p in players]
    floor = FLOOR_JUDGE[0]

    def rec(minutes: float, player: str | None, infraction: str) -> list[int]:
        assert player is not None
        saved = recording.record(
            db,
            e,
            recording.RecordInput(player=player, infraction=infraction),
            judge=floor,
            now=at(minutes),
        )
        return [r["number"] for r in saved.rulings]

    for round_no in (1, 2, 3):
        base = 10 + (round_no - 1) * 55
        pairs = _pairings(numbers, rng)
        events.import_pairings(db, e, round_no, pairs, actor=SCOREKEEPER[0], now=at(base))
        rounds.start_round(db, e, actor=SCOREKEEPER[0], now=at(base + 1))  # results come once it runs (T5)
        for minutes, place, seat, infraction, done in _FLOOR_RULINGS.get(round_no, ()):
            pairing = pairs[place]
            made = rec(base + minutes, pairing.player_a if seat == "a" else pairing.player_b, infraction)
            if done is not None:  # the remedy is carried out in time: its deadline closes
                deadlines.mark_done(db, e, made[0], 0, judge=floor, now=at(base + done))
        finished = pairs if round_no < 3 else pairs[: len(pairs) - 6]
        for n, p in enumerate(finished):
            _play_out(db, e, round_no, p, rng, at(base + 45 + n * 0.1))
        if round_no < 3:
            events.end_round(db, e, round_no, actor=SCOREKEEPER[0], now=at(base + 54))
    # Round 3, still running: a warning waits for the head judge, a deadline runs.
    late = pairs[-1].player_a
    rec(170, pairs[-2].player_b, "ingame.slow-play")
    rec(172, pairs[-3].player_a, "cards.marked-no-pattern")
    numbers_to_confirm = [int(r["number"]) for r in _all_pending(db, e)]
    corrections.confirm(db, e, numbers_to_confirm, now=at(174))
    rec(176, pairs[-4].player_b, "ingame.cards-off-table")
    rec(clock_minutes(start, clock) - 2, late, "pregame.tardiness")
    return Demo(e, HEAD_JUDGE[0], HEAD_JUDGE[1])


def clock_minutes(start: datetime, clock: datetime) -> float:
    return (clock - start).total_seconds() / 60


def _all_pending(db: Database, event_id: int) -> list[RulingInFeed]:
    return rulings_feed(db, event_id, state=RulingState.pending, limit=1000)


def _play_out(
    db: Database, event_id: int, round_no: int, pairing: PairingRow, rng: random.Random, when: datetime
) -> None:
    """Report duels until someone has won two (penalty duel losses already count)."""
    match = next(m for m in round_matches(db, event_id, round_no)["matches"] if m["table"] == pairing.table)
    if match["result"]:
        return
    wins: dict[str | None, int] = {pairing.player_a: 0, pairing.player_b or "": 0}
    for d in match["duels"]:
        wins[d["winner"]] = wins.get(d["winner"], 0) + 1
    while max(wins.values()) < 2:  # each the match's next duel, as the scorekeeper reports it
        winner = pairing.player_a if rng.random() < 0.5 else str(pairing.player_b)
        events.report_result(
            db, event_id, round_no, pairing.table, winner=winner, actor=SCOREKEEPER[0], now=when
        )
        wins[winner] += 1  # the second duel won decides the match (D10)
