"""The installation's organisers (the first account, and whom an organiser names), and what
a session's list shows: when it started, when it was last seen, its browser and address.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

SESSION_COLUMNS = (("started_at", 32), ("last_seen", 32), ("device", 200), ("address", 64))


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if "organiser" not in {c["name"] for c in inspector.get_columns("users")}:
        op.add_column("users", sa.Column("organiser", sa.Boolean, nullable=False, server_default=sa.false()))
        # An installation that had accounts already: its first account organises it.
        bind.execute(
            sa.text("UPDATE users SET organiser = :yes WHERE id = (SELECT MIN(id) FROM users)"), {"yes": True}
        )
    have = {c["name"] for c in inspector.get_columns("sessions")}
    for name, length in SESSION_COLUMNS:
        if name not in have:
            op.add_column("sessions", sa.Column(name, sa.String(length)))
    if "ix_sessions_user" not in {i["name"] for i in inspector.get_indexes("sessions")}:
        op.create_index("ix_sessions_user", "sessions", ["user_id"])
