"""Running the Alembic migrations in ``migrations/`` on an open connection."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection


def _config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("shinpan.store") / "migrations"))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def upgrade(conn: Connection) -> None:
    """Bring the database on ``conn`` to the newest revision, inside its transaction."""
    command.upgrade(_config(conn), "head")


def known_revisions() -> list[str]:
    """Every revision in ``migrations/``, oldest first."""
    script = ScriptDirectory.from_config(_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]
