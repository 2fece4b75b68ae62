"""What ``shinpan serve`` does for the venue's network: names the machine's LAN addresses,
makes (once) and uses the local certificate authority for ``--https``, and runs the plain
HTTP listener that sends browsers to HTTPS."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

from shinpan.cli.output import both, fail, tell
from shinpan.web.venue import Venue


def checked_public_url(value: str | None) -> str | None:
    if not value:
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        fail(
            both(
                f"--public-url は http://192.168.1.10:8000/ のように書いてください({value!r} は使えません)",
                f"--public-url must be like http://192.168.1.10:8000/ (got {value!r})",
            ),
            2,
        )
    return value.strip().rstrip("/") + "/"


def prepare(
    host: str, port: int, https: bool, https_port: int, public_url: str | None, db: str | None
) -> Venue:
    """Find the LAN addresses, make the TLS files if asked, and say where phones go."""
    from shinpan.services.network import is_loopback, lan_addresses  # start-up

    addresses = lan_addresses()
    local_only = is_loopback(host)
    venue = Venue(addresses, checked_public_url(public_url), local_only=local_only)
    scheme, shown_port = ("https", https_port) if https else ("http", port)
    if https:
        from shinpan.services import tls  # start-up

        made = tls.ensure(tls.tls_folder(db), addresses)
        venue.tls_dir = str(made.files.folder)
        first = addresses[0] if addresses else "127.0.0.1"
        venue.ca_page = f"http://{first}:{port}/ca"
        made_now = made.made_authority
        tell(
            f"HTTPS: 認証局 {made.files.ca_cert}"
            f"({'いま作りました。各スマートフォンに一度だけ入れてください' if made_now else '前のものを使います'})",
            f"HTTPS: certificate authority {made.files.ca_cert}"
            f" ({'made now: every phone installs it once' if made_now else 'kept'}; "
            f"SHA-256 {tls.fingerprint(made.files.ca_cert.read_bytes())})",
        )
        tell(
            f"スマートフォンは {venue.ca_page} から入れます(ポート {port} の HTTP はほかをポート {https_port} の"
            " HTTPS に送ります)",
            f"phones install it from {venue.ca_page} (plain HTTP on port {port} sends the rest to "
            f"HTTPS on port {https_port})",
        )
    for address in addresses:
        tell("会場のネットワークから", f"on the venue network: {scheme}://{address}:{shown_port}/")
    if not addresses:
        tell(
            "LANのアドレスが見つかりません: このコンピューターを会場のネットワークにつないでください",
            "no LAN address found: connect this computer to the venue's network",
        )
    elif local_only:
        tell(
            f"{host} だけで待ち受けています。スマートフォンからはつながりません。--host 0.0.0.0 で起動してください",
            f"listening on {host} only: phones cannot reach it; start with --host 0.0.0.0",
        )
    if venue.public_url:
        tell("招待はスマートフォンを次のアドレスに送ります", f"invitations send phones to {venue.public_url}")
    return venue


def start_redirect(app: Any, host: str, port: int, https_port: int, venue: Venue) -> threading.Thread:
    """The plain-HTTP listener, in a thread of its own: ``/ca`` and ``/ca.crt`` from ``app``,
    everything else redirected to the HTTPS address the server names itself (its public URL,
    else its first LAN address, else the address it listens on), never to a request's ``Host``."""
    import uvicorn  # start-up

    from shinpan.web.venue import RedirectToHttps  # start-up

    own = host if venue.local_only or not venue.addresses else venue.addresses[0]
    config = uvicorn.Config(
        RedirectToHttps(app, https_port, own, venue.public_url),
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="http-redirect", daemon=True)
    thread.start()
    return thread
