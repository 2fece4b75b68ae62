"""A small event, wholly in Japanese, with everything the venue's paper shows.

20 players with readings, round 1 played and ended, round 2 paired; in round 1 a caution,
warnings (one deviated from, one voided), a missed deadline, and a cheating
disqualification with statements and a decided appeal. Every name and reason is Japanese,
so any English word on a Japanese page comes from shinpan, not from the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from shinpan.engine.event_rules import Role
from shinpan.files.csvio import PlayerRow
from shinpan.services import appeals, corrections, deadlines, events, recording, rounds, swiss
from shinpan.services.queries import rulings_feed
from shinpan.store.db import Database

T0 = datetime(2026, 2, 1, 1, 0, tzinfo=UTC)
HEAD_JUDGE = "山田 一郎"
FLOOR_JUDGE = "佐藤 花子"
PLAYERS = 20
FAMILY = [
    ("佐藤", "さとう"),
    ("鈴木", "すずき"),
    ("高橋", "たかはし"),
    ("田中", "たなか"),
    ("伊藤", "いとう"),
]
GIVEN = [("翔太", "しょうた"), ("美咲", "みさき"), ("大輔", "だいすけ"), ("陽菜", "ひな")]
DEVIATION = "状況を考慮して通告に軽減"
VOID = "別の選手と取り違えた"
APPEAL = "故意ではない"


@dataclass(frozen=True)
class PaperEvent:
    db: Database
    event: int
    players: list[str]
    dq: int
    dq_player: str
    rulings: list[int]  # every ruling of round 1, in order


def player_rows() -> list[PlayerRow]:
    rows = []
    for n in range(PLAYERS):
        (family, family_kana), (given, given_kana) = FAMILY[n % 5], GIVEN[n // 5]
        rows.append(PlayerRow(f"{101 + n}", f"{family} {given}", f"{family_kana} {given_kana}", None))
    return rows


def build(db: Database) -> PaperEvent:
    at = T0
    event = events.create_event(
        db,
        name="冬季選手権 2026",
        head_judge=HEAD_JUDGE,
        head_judge_level=3,
        starts_on="2026-02-01",
        venue="東京会場",
        now=at,
    )
    events.add_judge(db, event, name=FLOOR_JUDGE, level=1, role=Role.floor_judge, now=at)
    rows = player_rows()
    events.import_players(db, event, rows, now=at)
    swiss.pair_next_round(db, event, seed=7, now=at)
    numbers = [r.number for r in rows]

    def record(player: str, infraction: str, **kw: object) -> int:
        nonlocal at
        at += timedelta(minutes=1)
        inp = recording.RecordInput(player=player, infraction=infraction, **kw)  # type: ignore[arg-type]
        return int(recording.record(db, event, inp, judge=FLOOR_JUDGE, now=at).rulings[0]["number"])

    made = [
        record(numbers[0], "players.no-life-record"),
        record(numbers[1], "ingame.extra-cards-drawn"),
        record(numbers[2], "ingame.extra-cards-drawn"),
        record(numbers[3], "ingame.extra-cards-drawn"),
        record(numbers[4], "pregame.tardiness"),
    ]
    waiting = [r["number"] for r in rulings_feed(db, event, state="pending") if r["number"] in made]
    if waiting:
        corrections.confirm(db, event, waiting, now=at)
    corrections.deviate(db, event, made[2], ["notice"], DEVIATION, now=at)
    corrections.void(db, event, made[3], VOID, now=at)
    at += timedelta(minutes=10)  # the two minutes to find a way to record life totals are over
    made += [m["number"] for m in deadlines.mark_missed(db, event, made[0], judge=FLOOR_JUDGE, now=at)]
    suspect = numbers[5]
    dq = record(suspect, "severe.cheating", note="デッキの下から引いた")
    for author, role, text in (
        ("本人", "player", "わざとではありません。"),
        ("対戦相手", "opponent", "デッキの下から引くのを二度見ました。"),
    ):
        appeals.add_statement(db, event, author, role, text, ruling=dq, judge=FLOOR_JUDGE, now=at)
    corrections.confirm(db, event, [dq], now=at)
    appeal = appeals.file_appeal(db, event, dq, suspect, APPEAL, judge=FLOOR_JUDGE, now=at)
    appeals.decide_appeal(db, event, appeal, "upheld", "目撃者の陳述が一致する", now=at)
    made.append(dq)
    return PaperEvent(db, event, numbers, dq, suspect, made)


def play_round(paper: PaperEvent, round_no: int, now: datetime) -> None:
    """Every table of the round won by seat a; the round ended; the next one paired."""
    from shinpan.services.queries import round_matches

    if round_of_state(paper, round_no) == "paired":
        rounds.start_round(paper.db, paper.event, now=now)  # T5: results once the round runs
    for m in round_matches(paper.db, paper.event, round_no)["matches"]:
        if m["player_b"] is not None and m["result"] is None:
            events.report_result(paper.db, paper.event, round_no, m["table"], result="a", now=now)
    events.end_round(paper.db, paper.event, round_no, now=now)
    swiss.pair_next_round(paper.db, paper.event, seed=11, now=now)


def round_of_state(paper: PaperEvent, round_no: int) -> str | None:
    from shinpan.store.rounds import round_of

    with paper.db.read() as conn:
        row = round_of(conn, paper.event, round_no)
    return row.state if row else None
