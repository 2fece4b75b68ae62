"""The event's format (T7–T9) and the first round of its playoff (T10) kept on the event's
row, so that a result, a ruling and the standings read them at once instead of searching
the ledger; filled in for the events already held from their ``event.format`` and
``playoff.started`` entries.

Revision ID: 0008
Revises: 0007
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

COLUMNS = (
    ("match_format", sa.String(3)),
    ("time_out", sa.String(10)),
    ("tiebreakers", sa.String(60)),
    ("format_seed", sa.Integer),
    ("playoff_round", sa.Integer),
)


def upgrade() -> None:
    bind = op.get_bind()
    have = {c["name"] for c in sa.inspect(bind).get_columns("events")}
    for name, kind in COLUMNS:
        if name not in have:
            op.add_column("events", sa.Column(name, kind))
    chosen = bind.execute(
        sa.text("SELECT event_id, body FROM entries WHERE kind = 'event.format' ORDER BY event_id, seq")
    ).all()
    for event_id, body in chosen:  # the last one an event wrote stands
        b = json.loads(body)
        bind.execute(
            sa.text(
                "UPDATE events SET match_format = :f, time_out = :t, tiebreakers = :c, format_seed = :s "
                "WHERE event_id = :e"
            ),
            {"f": b["format"], "t": b["time_out"], "c": b["tiebreakers"], "s": int(b["seed"]), "e": event_id},
        )
    started = bind.execute(
        sa.text(
            "SELECT event_id, body FROM entries WHERE kind = 'playoff.started' ORDER BY event_id, seq DESC"
        )
    ).all()
    for event_id, body in started:  # the first one an event wrote stands (written last here)
        bind.execute(
            sa.text("UPDATE events SET playoff_round = :r WHERE event_id = :e"),
            {"r": int(json.loads(body)["round"]), "e": event_id},
        )
