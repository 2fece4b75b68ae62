"""What goes outward is told after commit, by the store, whichever command wrote: a
ruling recorded on the command line reaches the web app's live views too. On SQLite the
listeners of this process hear it once the transaction has committed (never for one that
rolled back). PostgreSQL's NOTIFY, from any command, is tested in test_live.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from conftest import EventSetup, make_event
from shinpan.errors import NotFound
from shinpan.services import recording
from shinpan.services.recording import RecordInput
from shinpan.store.connection import Statement
from shinpan.store.db import Database, Growth


def test_listeners_hear_each_committed_change_once_after_commit(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/notices.sqlite3")
    ev: EventSetup = make_event(db, players=4)
    heard: list[tuple[int, int]] = []

    def listener(event_id: int, head: int, growth: Growth) -> None:
        assert growth.head == head and "ruling.recorded" in growth.kinds
        with db.read() as conn:  # after commit: another connection sees the ruling and its entry
            count = Statement("SELECT COUNT(*) FROM rulings WHERE event_id = :e").scalar(
                conn, {"e": event_id}
            )
            newest = Statement("SELECT MAX(seq) FROM entries WHERE event_id = :e").scalar(
                conn, {"e": event_id}
            )
        assert head == newest
        heard.append((event_id, int(count)))

    db.listeners.append(listener)
    recording.record(db, ev.id, RecordInput("P001", "ingame.slow-play"), now=ev.clock.now)
    assert heard == [(ev.id, 1)]
    with pytest.raises(NotFound):  # rolled back: nothing is told
        recording.record(db, ev.id, RecordInput("P999", "ingame.slow-play"), now=ev.clock.now)
    assert heard == [(ev.id, 1)]


def test_changes_reach_subscribers_in_the_ledgers_order(tmp_path: Path) -> None:
    """A change heard in one thread never overtakes the one before it: a live view drops
    what is older than what it last heard, and would lose the panels only that one touched."""
    from shinpan.store.notices import Change, LedgerWatch

    db = Database(f"sqlite:///{tmp_path}/order.sqlite3")
    try:
        watch = LedgerWatch(db)
        watch.follow(1, 10)
        told: list[int] = []
        second: list[threading.Thread] = []

        def slow_subscriber(change: Change) -> None:
            if not second:  # while the first change is being told, the next one arrives
                second.append(
                    threading.Thread(target=watch.heard, args=(1, 12, Growth(12, 12, {"appeal.decided"})))
                )
                second[0].start()
                time.sleep(0.3)
            told.append(change.head)

        watch.subscribers.append(slow_subscriber)
        watch.heard(1, 11, Growth(11, 11, {"ruling.recorded"}))
        second[0].join(5)
        assert told == [11, 12]
    finally:
        db.close()
