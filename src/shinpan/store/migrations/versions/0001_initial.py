"""The initial schema: the ledger, its append-only guard, and the projections.

Revision ID: 0001
Revises:
"""

from alembic import op

from shinpan.store.schema import metadata

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TABLES = (
    "entries", "events", "judges", "players", "drafts", "rounds", "matches", "duels",
    "rulings", "deadlines", "carried_losses", "statements", "appeals",
)  # fmt: skip
APPEND_ONLY = "the ledger is append-only: entries cannot be changed or deleted"


def upgrade() -> None:
    # 0001 is schema.py as of shinpan 0.1.0; later revisions alter it step by step
    # (tests/test_store.py checks that a migrated database matches schema.py).
    bind = op.get_bind()
    metadata.create_all(bind, tables=[metadata.tables[name] for name in TABLES])
    if bind.dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER entries_no_{action.lower()} BEFORE {action} ON entries "
                f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
            )
    else:
        op.execute(
            "CREATE FUNCTION shinpan_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$"
        )
        op.execute(
            "CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries "
            "FOR EACH ROW EXECUTE FUNCTION shinpan_append_only()"
        )
        op.execute(
            "CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries "
            "FOR EACH STATEMENT EXECUTE FUNCTION shinpan_append_only()"
        )
