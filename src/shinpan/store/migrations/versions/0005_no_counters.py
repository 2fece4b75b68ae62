"""The ``counters`` projection goes: nothing read it (the engine counts offences from the
player's rulings), and writing it cost every ruling a statement.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("counters"):
        op.drop_table("counters")
