"""Rounds on a clock and Swiss pairings: a round's start, length and pairing seed, an
event's round length, players who dropped, and the time judges give a table.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

from shinpan.store.schema import metadata

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = (
    ("events", sa.Column("round_minutes", sa.Integer)),
    ("players", sa.Column("dropped_round", sa.Integer)),
    ("rounds", sa.Column("started_at", sa.String(32))),
    ("rounds", sa.Column("minutes", sa.Integer)),
    ("rounds", sa.Column("seed", sa.Integer)),
)
NEW_TABLES = ("time_extensions",)


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    for table, column in COLUMNS:  # 0001 creates today's tables; older databases lack these
        if column.name not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, column)
    metadata.create_all(bind, tables=[metadata.tables[name] for name in NEW_TABLES])
