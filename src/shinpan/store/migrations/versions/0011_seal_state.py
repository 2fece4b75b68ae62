"""A sealed event is closed: the entry of the seal in force (None: not sealed, or reopened
since) and of the last reopening kept on the event's row, so that every command reads them
with the event at once; filled in for the events already held from their ``event.sealed``
entries (no event was reopened before this revision).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = (("sealed_entry", sa.Integer), ("reopened_entry", sa.Integer))


def upgrade() -> None:
    bind = op.get_bind()
    have = {c["name"] for c in sa.inspect(bind).get_columns("events")}
    for name, kind in COLUMNS:
        if name not in have:
            op.add_column("events", sa.Column(name, kind))
    bind.execute(
        sa.text(
            "UPDATE events SET sealed_entry = (SELECT MAX(seq) FROM entries x "
            "WHERE x.event_id = events.event_id AND x.kind = 'event.sealed')"
        )
    )
