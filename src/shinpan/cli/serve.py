"""``shinpan serve`` and ``shinpan user add``: the web app and its accounts."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from shinpan.cli.common import DbOption, add_commands, command_group, handled, open_db
from shinpan.cli.output import both, fail, tell

# uvicorn's HTTP/1.1 with a request's head bounded in size and in time (shinpan.web.protocol),
# named for uvicorn to import in each worker.
HTTP = "shinpan.web.protocol:VenueHttp"


def _seal_key(database: Any) -> None:
    """At first start the installation makes its seal key (:mod:`shinpan.services.seal`)."""
    from shinpan.services.seal import KEY_FILE, fingerprint, installation_key, key_dir, public_hex  # start-up

    with handled():
        key = installation_key(database)
    tell("封印の鍵", f"seal key: {key_dir(database) / KEY_FILE} ({fingerprint(public_hex(key))})")


def _busy_ports(host: str, ports: list[int]) -> list[int]:
    """The ports a server could not listen on at ``host`` now (in use by another program)."""
    import errno  # start-up
    import socket  # start-up

    busy = []
    for port in ports:
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except OSError:
            continue  # an address that does not resolve: the server says so itself
        family, kind, proto, _, address = found[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            try:
                probe.bind(address)
            except OSError as e:
                if e.errno == errno.EADDRINUSE:
                    busy.append(port)
    return busy


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
    https: Annotated[
        bool,
        typer.Option(
            "--https",
            help="Serve HTTPS with this venue's own certificate authority (made once, "
            "kept beside the database); plain HTTP on --port sends browsers to it.",
        ),
    ] = False,
    https_port: Annotated[int, typer.Option("--https-port", help="The HTTPS port (with --https).")] = 8443,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address invitations send phones to (default: this computer's LAN address).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Start the web app for judges' phones and the head judge's desk."""
    _refuse_start(demo, workers, host, [https_port, port] if https else [port])  # before any banner
    database, hint = _demo_database(db) if demo else (open_db(db), None)
    if workers > 1 and not database.is_postgres:
        fail(
            both(
                "複数のワーカーには PostgreSQL が必要です。SQLite は一つのプロセスで動きます",
                "several workers need PostgreSQL; SQLite serves from one process",
            ),
            1,
        )
    from shinpan.cli.venue import prepare  # start-up

    scheme, listen_port = ("https", https_port) if https else ("http", port)
    tell(
        f"shinpan を起動します: {scheme}://{host}:{listen_port}/",
        f"shinpan on {scheme}://{host}:{listen_port}/  (database: {database.describe()})",
    )
    _seal_key(database)
    venue = prepare(host, port, https, https_port, public_url, database.url)
    secure_cookies = secure_cookies or https
    certfile = keyfile = None
    if venue.tls_dir:
        from shinpan.services.tls import TlsFiles  # start-up

        files = TlsFiles(Path(venue.tls_dir))
        certfile, keyfile = str(files.cert), str(files.key)
    import uvicorn  # noqa: F401  # start-up: the web stack loads once the judge has been told where it will be

    from shinpan.web.resources import say_open_files  # start-up

    tell(*say_open_files())  # every connection holds a file: as many as allowed
    listening = _Listening(host, port, https, https_port, listen_port, certfile, keyfile)
    if workers > 1:  # each worker process opens the same PostgreSQL; live views cross via NOTIFY
        _serve_workers(database, venue, listening, workers, hint, secure_cookies)
        return
    _serve_one(database, venue, listening, hint, secure_cookies)


def _refuse_start(demo: bool, workers: int, host: str, ports: list[int]) -> None:
    """What stops ``serve`` before it opens anything: a demo with workers, a port in use."""
    if demo and workers > 1:
        fail(
            both(
                "--demo は専用の SQLite ファイルを一つのプロセスで使います。--workers を外してください",
                "--demo serves its own SQLite file from one process: leave out --workers",
            ),
            1,
        )
    for busy in _busy_ports(host, ports):
        fail(
            both(
                f"ポート {busy} はほかのプログラムが使っています。そのプログラムを止めるか、--port で別のポートを指定してください",
                f"port {busy} is in use by another program: stop it, or choose another with --port",
            ),
            1,
        )


def _demo_database(db: str | None) -> tuple[Any, str]:
    """The demo's own database, its event loaded, and every demo account for the sign-in
    page (role, name, password): known passwords, never in the database served for real."""
    from shinpan.services.demo import FLOOR_JUDGE, SCOREKEEPER, demo_path, load_demo  # start-up

    with handled():
        path = demo_path(db)
    tell(
        f"デモのデータベース: {path}(専用のファイルです。消すとデモを最初からやり直せます)",
        f"demo database: {path} (a file of its own; remove it to start the demo anew)",
    )
    database = open_db(str(path))
    with handled():
        made = load_demo(database)
    hint = "\n".join(  # every demo account, for the sign-in page: role, name, password
        f"{role}\t{name}\t{secret}"
        for role, name, secret in (
            ("head_judge", made.head_judge, made.password),
            ("floor_judge", *FLOOR_JUDGE),
            ("scorekeeper", *SCOREKEEPER),
        )
    )
    tell(
        f"デモ大会 {made.event_id}: ヘッドジャッジ {made.head_judge}(パスワード {made.password})、"
        f"フロアジャッジ {FLOOR_JUDGE[0]}(PIN {FLOOR_JUDGE[1]})、"
        f"スコアキーパー {SCOREKEEPER[0]}(PIN {SCOREKEEPER[1]})",
        f"demo event {made.event_id}: head judge {made.head_judge} (password {made.password}), "
        f"floor judge {FLOOR_JUDGE[0]} (PIN {FLOOR_JUDGE[1]}), "
        f"scorekeeper {SCOREKEEPER[0]} (PIN {SCOREKEEPER[1]})",
    )
    return database, hint


@dataclass(frozen=True)
class _Listening:
    """Where the server listens: the plain port, and the HTTPS one with its certificate."""

    host: str
    port: int
    https: bool
    https_port: int
    listen_port: int  # the HTTPS port with --https, else the plain one
    certfile: str | None
    keyfile: str | None

    def uvicorn_options(self) -> dict[str, Any]:
        """How uvicorn serves, one process or several: this address, quiet, without trusting
        proxy headers, over this module's HTTP implementation, with the certificate if any."""
        return {
            "host": self.host,
            "port": self.listen_port,
            "log_level": "warning",
            "proxy_headers": False,
            "http": HTTP,
            "ssl_certfile": self.certfile,
            "ssl_keyfile": self.keyfile,
        }


def _serve_workers(
    database: Any, venue: Any, at: _Listening, workers: int, hint: str | None, secure_cookies: bool
) -> None:
    """Several worker processes, each opening the same PostgreSQL from the environment."""
    import uvicorn  # start-up

    from shinpan.cli.venue import start_redirect  # start-up

    os.environ["SHINPAN_DATABASE_URL"] = database.url
    os.environ["SHINPAN_DEMO_HINT"] = hint or ""
    os.environ["SHINPAN_SECURE_COOKIES"] = "1" if secure_cookies else ""
    venue.to_env()
    if at.https:  # the plain-HTTP listener, from this process, over an app of its own
        from shinpan.web.app import create_app  # start-up

        plain = create_app(database, secure_cookies=True)
        venue.apply(plain)
        start_redirect(plain, at.host, at.port, at.https_port, venue)
    uvicorn.run(
        "shinpan.web.app:app_from_env",
        factory=True,
        workers=workers,
        **at.uvicorn_options(),
    )


def _serve_one(database: Any, venue: Any, at: _Listening, hint: str | None, secure_cookies: bool) -> None:
    """One process serving the app (SQLite, or PostgreSQL without --workers)."""
    import uvicorn  # start-up

    from shinpan.cli.venue import start_redirect  # start-up
    from shinpan.web.app import create_app  # start-up

    web = create_app(database, secure_cookies=secure_cookies, serving=True)
    web.state.demo_hint = hint
    venue.apply(web)
    if at.https:
        start_redirect(web, at.host, at.port, at.https_port, venue)
    config = uvicorn.Config(web, **at.uvicorn_options())
    if venue.tls_dir and at.certfile and at.keyfile:
        _renew_while_serving(Path(venue.tls_dir), config, at.certfile, at.keyfile)
    uvicorn.Server(config).run()


def _renew_while_serving(folder: Path, config: Any, certfile: str, keyfile: str) -> None:
    """Every hour, the server certificate made again when it nears its end or the machine's
    addresses changed; the next connections get it (the TLS context loads it in place)."""
    from shinpan.services import tls  # start-up
    from shinpan.services.network import lan_addresses  # start-up

    def reload(made: tls.Made) -> None:
        if config.ssl is not None:
            config.ssl.load_cert_chain(certfile, keyfile)
        if made.made_authority:
            tell(
                f"HTTPS: 新しい認証局を作りました。各スマートフォンに入れ直してください: {made.files.ca_cert}",
                f"HTTPS: made a new certificate authority; every phone installs it again: {made.files.ca_cert}",
            )

    tls.keep_fresh(folder, lan_addresses, reload)


def user_add(
    name: Annotated[str, typer.Option("--name", help="The name shown on rulings.")],
    level: Annotated[int | None, typer.Option("--level", help="Judge certification level.")] = None,
    password: Annotated[
        str | None, typer.Option("--password", help="Asked for when not given (it is never echoed).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Create an account, e.g. the first head judge (then create an event on the web)."""
    from shinpan.services import accounts  # start-up

    secret = password or typer.prompt(
        both("パスワード", "Password"), hide_input=True, confirmation_prompt=True
    )
    database = open_db(db)
    with handled():
        user = accounts.add_user(database, name, secret, level)
    tell(f"アカウント {user.name} を作りました", f"user {user.name} created")


def user_organiser(
    name: Annotated[str, typer.Option("--name", help="The account to name an organiser.")],
    off: Annotated[bool, typer.Option("--off", help="No longer an organiser.")] = False,
    db: DbOption = None,
) -> None:
    """Name an organiser: they read a player's history across every event (the first
    account is one already). ``--off``: no longer one (the last one stays)."""
    from shinpan.services import access  # start-up

    database = open_db(db)
    with handled():
        user = access.name_organiser(database, name, on=not off)
        names = access.organisers(database)
    tell(
        f"{user.name} を主催者{'から外しました' if off else 'に指名しました'}。主催者: {'、'.join(names)}",
        f"{user.name} is {'no longer ' if off else ''}an organiser; organisers: {', '.join(names)}",
    )


def register(app: typer.Typer) -> None:
    add_commands(app, serve)
    command_group(
        app,
        "user",
        "ウェブアプリにサインインするアカウント / Accounts that sign in to the web app.",
        user_add,
        user_organiser,
        words={"user_add": "add", "user_organiser": "organiser"},
    )
