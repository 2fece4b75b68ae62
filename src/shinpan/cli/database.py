"""``shinpan db grant``: the PostgreSQL role the app runs as (not the tables' owner)."""

from __future__ import annotations

from typing import Annotated

import typer

from shinpan.cli.common import handled, open_db
from shinpan.cli.options import DbOption
from shinpan.cli.output import tell


def grant(
    role: Annotated[str, typer.Option("--role", help="The login role to make or update.")] = "shinpan_app",
    password: Annotated[
        str | None, typer.Option("--password", help="Its password (leave out for trust or peer auth).")
    ] = None,
    db: DbOption = None,
) -> None:
    """PostgreSQL: make the role `shinpan serve` should connect as. It appends to the
    ledger and keeps the tables, but owns none, so it cannot switch the ledger's triggers
    off. Run as the owner (the account that migrated the database)."""
    from shinpan.store.roles import grant_role  # start-up

    database = open_db(db)
    with handled():
        grant_role(database, role, password)
    tell(
        f"ロール {role} は台帳に追記し、読み取れます。serve には --db postgresql://{role}@HOST/DB を使ってください",
        f"role {role} may append and read; serve with --db postgresql://{role}@HOST/DB",
    )


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(help="データベースそのもの / The database itself.", no_args_is_help=True)
    app.add_typer(db_app, name="db")
    db_app.command("grant")(grant)
