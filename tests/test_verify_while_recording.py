"""`shinpan verify` never stops the judges: it reads one consistent view and derives the
projections aside, so it runs while another connection holds the event's write lock."""

from __future__ import annotations

import threading

from conftest import Backend, make_event
from shinpan.services import integrity
from shinpan.store.db import Database


def test_verify_runs_while_a_recording_holds_the_write_lock(backend: Backend) -> None:
    db = Database(backend.url)
    try:
        event = make_event(db, players=4)
        event.record(event.players[0], "ingame.slow-play")
        holding, release = threading.Event(), threading.Event()

        def writer() -> None:
            with db.write(event.id):  # what a recording in progress holds
                holding.set()
                release.wait(30)

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            assert holding.wait(10)
            result: list[integrity.Verification] = []
            checker = threading.Thread(target=lambda: result.append(integrity.verify(db, event.id)))
            checker.start()
            checker.join(10)
            assert result, "verify finished while the write lock was held"
            assert result[0].ok
        finally:
            release.set()
            thread.join(30)
    finally:
        db.close()
