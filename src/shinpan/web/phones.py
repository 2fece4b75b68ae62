"""Where phones are sent: the address a join code's link and QR name (:mod:`shinpan.web.invitations`
tells the rules; :func:`shinpan.services.network.invitation_base` decides among them). The invite page,
its A4 sheet, the players' page published, the paper handed to players (result and penalty slips,
whose QR codes phones scan) and the JSON API all ask here."""

from __future__ import annotations

from fastapi import Request

from shinpan.services import network


def addresses(request: Request) -> list[str]:
    """The machine's LAN addresses: found when the server started, else asked now (once)."""
    state = request.app.state
    found: list[str] | None = getattr(state, "addresses", None)
    if found is None:
        found = state.addresses = network.lan_addresses()
    return found


def base_url(request: Request) -> tuple[str, str]:
    """Where phones are sent, and why ("public", "browser", "lan", "loopback")."""
    public: str | None = getattr(request.app.state, "public_url", None)
    return network.invitation_base(str(request.base_url), public, addresses(request))


def join_url(base: str, code: str) -> str:
    """The address a join code opens on a phone, under ``base``, where phones are sent
    (:func:`base_url`): the invite page, its A4 sheet and the JSON API give this one."""
    return f"{base}join/{code}"


def where_phones_go(request: Request) -> dict[str, object]:
    """What a page that sends phones somewhere says of it (``_where_phones.html``): the
    address, why that one, and what keeps phones from reaching this server."""
    base, why = base_url(request)
    return {
        "base": base,
        "why": why,
        "browser_host": request.url.hostname,
        "addresses": addresses(request),
        "https": getattr(request.app.state, "tls", None) is not None,
        "ca_page": getattr(request.app.state, "ca_page_url", None),
        "local_only": getattr(request.app.state, "local_only", False),
    }
