"""Accounts: users who sign in, one-time join codes, and the app's own settings.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

from shinpan.store.schema import metadata

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLES = ("users", "invitations", "app_settings")


def upgrade() -> None:
    metadata.create_all(op.get_bind(), tables=[metadata.tables[name] for name in TABLES])
