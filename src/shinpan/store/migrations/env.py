"""Alembic environment: shinpan runs migrations on a connection it already holds."""

from alembic import context

from shinpan.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
