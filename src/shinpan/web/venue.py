"""What the web app knows of the venue's network (:class:`Venue`, told by ``shinpan serve``),
and the plain-HTTP listener of ``shinpan serve --https`` (:class:`RedirectToHttps`).

The listener:

Everything is redirected to the same host on the HTTPS port, except what a phone needs
before it trusts the server: the page that explains how to install the venue's certificate
authority (``/ca``), the certificate itself (``/ca.crt``), that page's styles and its
language switch. Those are answered by the app itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

# How a worker process (PostgreSQL, --workers) learns what the main process found.
ENV_PUBLIC_URL = "SHINPAN_PUBLIC_URL"
ENV_TLS_DIR = "SHINPAN_TLS_DIR"
ENV_CA_PAGE = "SHINPAN_CA_PAGE"
ENV_ADDRESSES = "SHINPAN_LAN_ADDRESSES"
ENV_LOCAL_ONLY = "SHINPAN_LOCAL_ONLY"


@dataclass
class Venue:
    """What the web app is told about the network it serves."""

    addresses: list[str]
    public_url: str | None = None
    tls_dir: str | None = None  # the authority and the server certificate (None: plain HTTP)
    ca_page: str | None = None  # the authority's page over plain HTTP, for a phone's first visit
    local_only: bool = False  # listening on loopback only: phones cannot reach it

    def apply(self, app: Any) -> None:
        from shinpan.services.tls import TlsFiles  # start-up: cryptography loads only when asked

        app.state.addresses = self.addresses
        app.state.public_url = self.public_url
        app.state.tls = TlsFiles(Path(self.tls_dir)) if self.tls_dir else None
        app.state.ca_page_url = self.ca_page
        app.state.local_only = self.local_only

    def to_env(self) -> None:
        os.environ[ENV_PUBLIC_URL] = self.public_url or ""
        os.environ[ENV_TLS_DIR] = self.tls_dir or ""
        os.environ[ENV_CA_PAGE] = self.ca_page or ""
        os.environ[ENV_ADDRESSES] = " ".join(self.addresses)
        os.environ[ENV_LOCAL_ONLY] = "1" if self.local_only else ""

    @classmethod
    def from_env(cls) -> Venue | None:
        if ENV_ADDRESSES not in os.environ:
            return None
        return cls(
            os.environ[ENV_ADDRESSES].split(),
            os.environ.get(ENV_PUBLIC_URL) or None,
            os.environ.get(ENV_TLS_DIR) or None,
            os.environ.get(ENV_CA_PAGE) or None,
            os.environ.get(ENV_LOCAL_ONLY) == "1",
        )


def _https_base(https_port: int, own_host: str, public_url: str | None) -> str:
    """``https://HOST[:PORT]`` the server names itself (no path)."""
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme == "https" and parts.netloc:
            return f"https://{parts.netloc}"
        if parts.hostname:
            own_host = parts.hostname
    host = own_host if own_host not in ("", "0.0.0.0", "::") else "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    port = "" if https_port == 443 else f":{https_port}"
    return f"https://{host}{port}"


PLAIN = ("/ca", "/ca.crt")  # served over plain HTTP as they are
PLAIN_UNDER = ("/static/", "/lang/")


class RedirectToHttps:
    """ASGI: the authority's page over HTTP; every other request to the HTTPS address the
    server names itself: its public URL (``--public-url``) when it has one, else
    ``https://HOST:PORT`` of its own address (``own_host``). A request's ``Host`` header
    is never used: whoever sends the request chooses it."""

    def __init__(self, app: ASGIApp, https_port: int, own_host: str, public_url: str | None = None) -> None:
        self.app = app
        self.base = _https_base(https_port, own_host, public_url)

    def location(self, scope: Scope) -> str:
        query = scope.get("query_string", b"").decode("latin-1")
        return f"{self.base}{scope.get('path', '/')}" + (f"?{query}" if query else "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("path", "/")
        if path in PLAIN or path.startswith(PLAIN_UNDER):
            await self.app(scope, receive, send)
            return
        status = 301 if scope.get("method") in ("GET", "HEAD") else 308
        location = self.location(scope).encode("latin-1", "replace")
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"location", location), (b"content-length", b"0")],
            }
        )
        await send({"type": "http.response.body", "body": b""})
