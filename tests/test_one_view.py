"""A page sees one moment of the event: inside ``Database.one_view`` every read of the
thread joins one read transaction, so what another judge records meanwhile shows on the
next refresh, never on half of this page. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading

from conftest import EventSetup
from shinpan.services import queries


def _recorded_elsewhere(ev: EventSetup) -> None:
    """Another judge records (another thread: another connection), and it commits."""
    done = threading.Thread(target=lambda: ev.record(ev.players[1], "ingame.slow-play"))
    done.start()
    done.join(30)


def test_reads_inside_one_view_see_one_moment(ev: EventSetup) -> None:
    ev.record(ev.players[0], "ingame.slow-play")
    with ev.db.one_view():
        head = queries.ledger_head(ev.db, ev.id)
        feed = queries.rulings_feed(ev.db, ev.id)
        _recorded_elsewhere(ev)
        assert queries.ledger_head(ev.db, ev.id) == head  # the same moment
        assert queries.rulings_feed(ev.db, ev.id) == feed
    assert queries.ledger_head(ev.db, ev.id) > head  # the next view sees it
    assert len(queries.rulings_feed(ev.db, ev.id)) == len(feed) + 1


def test_reads_outside_a_view_each_see_the_newest(ev: EventSetup) -> None:
    head = queries.ledger_head(ev.db, ev.id)
    _recorded_elsewhere(ev)
    assert queries.ledger_head(ev.db, ev.id) > head
