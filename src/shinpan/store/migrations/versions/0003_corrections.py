"""D16, D18, D21: what caused an additional ruling, participant ids of up to 64
characters, when a ruling was given at the table; the ledger's guard against INSERT OR
REPLACE on SQLite; judges' seats held by accounts (by uid), sessions that end at sign-out,
and failed sign-ins shared by every process.

Revision ID: 0003
Revises: 0002
"""

import uuid

import sqlalchemy as sa
from alembic import op

from shinpan.store.schema import metadata

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

APPEND_ONLY = "the ledger is append-only: entries cannot be changed or deleted"
WIDER = (  # D18: a participant id has up to 64 characters
    ("players", "number"),
    ("matches", "player_a"),
    ("matches", "player_b"),
    ("duels", "winner"),
    ("carried_losses", "player"),
)
COLUMNS = (
    ("rulings", sa.Column("cause", sa.Integer)),
    ("rulings", sa.Column("given_at", sa.String(32))),
    ("judges", sa.Column("account", sa.String(36))),  # accounts are people, not names
    ("users", sa.Column("uid", sa.String(36))),
    ("invitations", sa.Column("seat", sa.String(200))),
)
NEW_TABLES = ("sessions", "login_failures")


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    for table, column in COLUMNS:  # 0001 creates today's tables; older databases lack these
        if column.name not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, column)
    for (user_id,) in bind.execute(sa.text("SELECT id FROM users WHERE uid IS NULL")).all():
        bind.execute(
            sa.text("UPDATE users SET uid = :u WHERE id = :i"), {"u": str(uuid.uuid4()), "i": user_id}
        )
    if "ux_users_uid" not in {i["name"] for i in inspector.get_indexes("users")}:
        op.create_index("ux_users_uid", "users", ["uid"], unique=True)
    metadata.create_all(bind, tables=[metadata.tables[name] for name in NEW_TABLES])
    if bind.dialect.name == "postgresql":
        for table, name in WIDER:
            op.alter_column(table, name, type_=sa.String(64))
    if bind.dialect.name == "sqlite":
        # REPLACE deletes the row it replaces without firing the DELETE trigger: refuse
        # any insert that would collide with an entry that is already there.
        op.execute(
            "CREATE TRIGGER IF NOT EXISTS entries_no_replace BEFORE INSERT ON entries "
            "WHEN EXISTS (SELECT 1 FROM entries WHERE id = NEW.id "
            "OR (event_id = NEW.event_id AND seq = NEW.seq) "
            "OR (event_id = NEW.event_id AND command_id = NEW.command_id)) "
            f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
        )
