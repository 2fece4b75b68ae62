"""Many judges at once on SQLite: writes that wait for the connection together share one
transaction and one commit (group commit), each in a savepoint of its own.

A write returns only once its commit is on disk; one that fails (an unknown player) takes
back only itself, never the writes it shared the transaction with; offence numbers stay one
more than the player's earlier ones, whatever order the writes ran in.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from conftest import make_event
from shinpan.errors import NotFound
from shinpan.services import integrity, recording
from shinpan.services.recording import RecordInput
from shinpan.store.connection import Statement
from shinpan.store.db import Database

JUDGES, RECORDS = 12, 15  # each judge records RECORDS rulings as fast as they can
RULE = "ingame.cards-off-table"


def test_judges_recording_at_once_share_commits_and_a_failing_record_takes_back_only_itself(
    tmp_path: Path,
) -> None:
    db = Database(f"sqlite:///{tmp_path}/group.sqlite3")
    commits: list[str] = []
    db.connect_hooks.append(
        lambda raw: raw.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    )
    db.close()  # the connections opened to migrate go; those opened from now are traced
    try:
        ev = make_event(db, players=JUDGES)
        before = len(commits)
        start = threading.Barrier(JUDGES)

        def judge(n: int) -> list[Any]:
            start.wait()
            outcome: list[Any] = []
            for i in range(RECORDS):
                player = ev.players[n] if (n + i) % 5 else "P999"  # every fifth: nobody of the event
                try:
                    saved = recording.record(db, ev.id, RecordInput(player, RULE), command_id=f"j{n}-{i:04d}")
                    outcome.append(saved.rulings[0]["offense"])
                except NotFound:
                    outcome.append("refused")
            return outcome

        with ThreadPoolExecutor(JUDGES) as pool:
            outcomes = list(pool.map(judge, range(JUDGES)))

        for n, outcome in enumerate(outcomes):
            made = [o for o in outcome if o != "refused"]
            assert outcome.count("refused") == sum(1 for i in range(RECORDS) if (n + i) % 5 == 0)
            assert made == list(range(1, len(made) + 1)), "each one more than the player's earlier ones"
        with db.read() as conn:
            kept = Statement("SELECT player, COUNT(*) FROM rulings WHERE event_id = :e GROUP BY player").all(
                conn, {"e": ev.id}
            )
        assert dict(kept) == {
            ev.players[n]: len([o for o in outcomes[n] if o != "refused"]) for n in range(JUDGES)
        }
        writes = JUDGES * RECORDS
        assert len(commits) - before < writes, "writes waiting together shared a commit"
        assert integrity.verify(db).ok
    finally:
        db.close()
