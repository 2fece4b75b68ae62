"""What ``shinpan serve`` does for the venue's network: names the machine's LAN addresses,
makes (once) and uses the local certificate authority for ``--https``, and runs the plain
HTTP listener that sends browsers to HTTPS."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlsplit

from shinpan.cli.output import fail, say
from shinpan.web.venue import Venue


def checked_public_url(value: str | None) -> str | None:
    if not value:
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        fail(f"--public-url must be like http://192.168.1.10:8000/ (got {value!r})", 2)
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
        say(
            f"HTTPS: certificate authority {made.files.ca_cert}"
            f" ({'made now: every phone installs it once' if made.made_authority else 'kept'}; "
            f"SHA-256 {tls.fingerprint(made.files.ca_cert.read_bytes())})",
            markup=False,
        )
        say(
            f"phones install it from {venue.ca_page} (plain HTTP on port {port} sends the rest to "
            f"HTTPS on port {https_port})",
            markup=False,
        )
    for address in addresses:
        say(f"on the venue network: {scheme}://{address}:{shown_port}/", markup=False)
    if not addresses:
        say("no LAN address found: connect this computer to the venue's network", markup=False)
    elif local_only:
        say(f"listening on {host} only: phones cannot reach it; start with --host 0.0.0.0", markup=False)
    if venue.public_url:
        say(f"invitations send phones to {venue.public_url}", markup=False)
    return venue


def start_redirect(app: Any, host: str, port: int, https_port: int, fallback_host: str) -> threading.Thread:
    """The plain-HTTP listener, in a thread of its own: ``/ca`` and ``/ca.crt`` from ``app``,
    everything else redirected to HTTPS."""
    import uvicorn  # start-up

    from shinpan.web.venue import RedirectToHttps  # start-up

    config = uvicorn.Config(
        RedirectToHttps(app, https_port, fallback_host),
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
