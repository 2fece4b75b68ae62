"""The event's time zone, in which every time is shown (Asia/Tokyo unless the event says
otherwise); players' search keys with romaji in one spelling (Hepburn, Kunrei, long vowels
or not, either name first), made again for the players already imported.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.store.projector import search_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if "time_zone" not in {c["name"] for c in sa.inspect(bind).get_columns("events")}:
        op.add_column(
            "events", sa.Column("time_zone", sa.String(64), nullable=False, server_default=DEFAULT_TIME_ZONE)
        )
    found = bind.execute(sa.text("SELECT event_id, number, name, reading, club FROM players")).all()
    for p in found:
        key = search_key({"number": p.number, "name": p.name, "reading": p.reading, "club": p.club})
        bind.execute(
            sa.text("UPDATE players SET search = :k WHERE event_id = :e AND number = :n"),
            {"k": key, "e": p.event_id, "n": p.number},
        )
