"""Judge calls in the statistics (T14): calls per round, waiting and handling times (median
and 90th percentile), per judge, the calls that led to rulings and appeals; a chart of the
calls per round on the statistics page. SQLite and PostgreSQL."""

from __future__ import annotations

from conftest import FLOOR_JUDGE, HEAD_JUDGE, EventSetup
from shinpan.reports.charts import calls_chart
from shinpan.reports.stats import statistics
from shinpan.services import rounds
from shinpan.services.calls import Resolution, claim_call, escalate_call, raise_call, resolve_call


def test_the_statistics_count_and_time_the_calls(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id, now=ev.clock.now)
    at = {"now": ev.clock.now}
    timings = [(1, 2, 4), (2, 4, 2), (3, 6, 8)]  # table, minutes waited, minutes at the table
    numbers = []
    for table, waited, took in timings:
        n = raise_call(ev.db, ev.id, table, judge=FLOOR_JUDGE, **at)["call"]
        ev.clock.advance(minutes=waited)
        claim_call(ev.db, ev.id, n, judge=FLOOR_JUDGE if table != 3 else HEAD_JUDGE, now=ev.clock.now)
        ev.clock.advance(minutes=took)
        numbers.append(n)
        at = {"now": ev.clock.now}
    ruling = ev.record("P001", "ingame.slow-play", call=numbers[0]).rulings[0]["number"]
    resolve_call(
        ev.db, ev.id, numbers[0], Resolution("ruling", [ruling]), judge=FLOOR_JUDGE, now=ev.clock.now
    )
    resolve_call(ev.db, ev.id, numbers[1], Resolution("appeal"), judge=FLOOR_JUDGE, now=ev.clock.now)
    escalate_call(ev.db, ev.id, numbers[2], judge=HEAD_JUDGE, now=ev.clock.now)
    raise_call(ev.db, ev.id, 4, judge=FLOOR_JUDGE, now=ev.clock.now)  # still open
    c = statistics(ev.db, ev.id).calls
    assert c is not None
    assert (c.total, c.open, c.led_to_rulings, c.led_to_appeals, c.escalated) == (4, 2, 1, 1, 1)
    assert [(r.round, r.calls) for r in c.by_round] == [(1, 4)]
    assert (c.waiting.timed, c.waiting.median_minutes, c.waiting.p90_minutes) == (3, 4.0, 6.0)
    # table 1 held from its claim (minute 2) to the end (minute 26): 24; table 2 from minute 10: 16
    assert (c.handling.timed, c.handling.median_minutes, c.handling.p90_minutes) == (2, 16.0, 24.0)
    assert [(j.judge, j.claimed, j.handling.timed) for j in c.judges] == [
        (FLOOR_JUDGE, 2, 2),
        (HEAD_JUDGE, 1, 0),
    ]
    svg = calls_chart(statistics(ev.db, ev.id))
    assert 'id="chart-calls"' in svg and 'id="bar-calls-1-4"' in svg
