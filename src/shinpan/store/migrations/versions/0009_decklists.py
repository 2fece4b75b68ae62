"""Decklists and deck checks (T13): the event's deck rules and the lock, every version of every
list, the deck checks. New tables only; no event held before has such entries.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

from shinpan.store.schema import metadata

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

NEW_TABLES = ("deck_rules", "decklists", "deck_checks")


def upgrade() -> None:
    bind = op.get_bind()
    have = set(sa.inspect(bind).get_table_names())
    metadata.create_all(bind, tables=[metadata.tables[name] for name in NEW_TABLES if name not in have])
