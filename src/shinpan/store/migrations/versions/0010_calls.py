"""Judge calls (T14): the calls table, projected from the ``call.*`` entries (no event
held before this revision has any, so there is nothing to fill in).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

from shinpan.store.schema import metadata

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if "calls" not in sa.inspect(bind).get_table_names():
        metadata.create_all(bind, tables=[metadata.tables["calls"]])
