"""``shinpan serve`` and ``shinpan user add``: the web app and its accounts."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from shinpan.cli.common import DbOption, handled, open_db
from shinpan.cli.output import fail, say

# uvicorn's HTTP/1.1 with a request's head bounded in size and in time (shinpan.web.protocol),
# named for uvicorn to import in each worker.
HTTP = "shinpan.web.protocol:VenueHttp"


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[
            str, typer.Option("--host", help="Address to listen on (0.0.0.0 for the venue LAN).")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port")] = 8000,
        demo: Annotated[
            bool,
            typer.Option(
                "--demo",
                help="Serve a demo event to look around, from a SQLite file of its own "
                "(demo.sqlite3 in the data directory, or NAME.demo.sqlite3 beside a --db file); "
                "the database --db names is never opened.",
            ),
        ] = False,
        workers: Annotated[int, typer.Option("--workers", help="Processes (PostgreSQL only).")] = 1,
        secure_cookies: Annotated[
            bool,
            typer.Option("--secure-cookies", help="Behind TLS: cookies are sent over HTTPS only."),
        ] = False,
        db: DbOption = None,
    ) -> None:
        """Start the web app for judges' phones and the head judge's desk."""
        if demo and workers > 1:
            fail("--demo serves its own SQLite file from one process: leave out --workers", 1)
        hint = None
        if demo:  # known passwords: never in the database that is served for real
            from shinpan.services.demo import FLOOR_JUDGE, SCOREKEEPER, demo_path, load_demo

            with handled():
                path = demo_path(db)
            say(f"demo database: {path} (a file of its own; remove it to start the demo anew)",
                          markup=False)  # fmt: skip
            database = open_db(str(path))
            with handled():
                made = load_demo(database)
            hint = "\n".join(  # every demo account, for the sign-in page: role, name, password
                f"{role}\t{name}\t{secret}"
                for role, name, secret in (("head_judge", made.head_judge, made.password),
                                           ("floor_judge", *FLOOR_JUDGE), ("scorekeeper", *SCOREKEEPER))
            )  # fmt: skip
            say(f"demo event {made.event_id}: head judge {made.head_judge} (password {made.password}), "
                          f"floor judge {FLOOR_JUDGE[0]} (PIN {FLOOR_JUDGE[1]}), "
                          f"scorekeeper {SCOREKEEPER[0]} (PIN {SCOREKEEPER[1]})", markup=False)  # fmt: skip
        else:
            database = open_db(db)
        if workers > 1 and not database.is_postgres:
            fail("several workers need PostgreSQL; SQLite serves from one process", 1)
        say(f"shinpan on http://{host}:{port}/  (database: {database.describe()})", markup=False)
        import uvicorn  # the web stack loads once the judge has been told where it will be

        from shinpan.web.resources import say_open_files

        say(say_open_files(), markup=False)  # every connection holds a file: as many as allowed

        if workers > 1:  # each worker process opens the same PostgreSQL; live views cross via NOTIFY
            os.environ["SHINPAN_DATABASE_URL"] = database.url
            os.environ["SHINPAN_DEMO_HINT"] = hint or ""
            os.environ["SHINPAN_SECURE_COOKIES"] = "1" if secure_cookies else ""
            uvicorn.run("shinpan.web.app:app_from_env", factory=True, workers=workers, host=host, port=port,
                        log_level="warning", proxy_headers=False, http=HTTP)  # fmt: skip
            return
        from shinpan.web.app import create_app

        web = create_app(database, secure_cookies=secure_cookies, serving=True)
        web.state.demo_hint = hint
        uvicorn.run(web, host=host, port=port, log_level="warning", proxy_headers=False, http=HTTP)

    user_app = typer.Typer(help="Accounts that sign in to the web app.", no_args_is_help=True)
    app.add_typer(user_app, name="user")

    @user_app.command("add")
    def user_add(
        name: Annotated[str, typer.Option("--name", help="The name shown on rulings.")],
        level: Annotated[int | None, typer.Option("--level", help="Judge certification level.")] = None,
        password: Annotated[
            str | None, typer.Option("--password", help="Asked for when not given (it is never echoed).")
        ] = None,
        db: DbOption = None,
    ) -> None:
        """Create an account, e.g. the first head judge (then create an event on the web)."""
        from shinpan.services import accounts

        secret = password or typer.prompt("Password", hide_input=True, confirmation_prompt=True)
        database = open_db(db)
        with handled():
            user = accounts.add_user(database, name, secret, level)
        say(f"user {user.name} created", markup=False)
