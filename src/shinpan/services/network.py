"""The server's own addresses on the venue's network, for the links and QR codes phones open.

Asked of the machine itself, with the standard library; nothing leaves it:

* ``/proc/net/fib_trie`` (Linux): every address the kernel holds as the machine's own (each
  ``host LOCAL`` entry), whatever the interface;
* the address the machine would send from towards the LAN: a UDP socket ``connect``ed to a
  private address (UDP's connect only chooses a route and a source; it sends nothing);
* where there is no ``/proc`` (not Linux), the addresses the host name resolves to
  (``getaddrinfo``; on Linux it is left alone: without internet, a host name missing from
  ``/etc/hosts`` would keep the server waiting on a DNS server that never answers).

Loopback, unspecified and multicast addresses are left out; link-local ones (169.254…, a
laptop on a network without DHCP) come last. The address the machine would send from comes
first: on a laptop with Wi-Fi and a virtual bridge, it is the one the phones can reach.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_NAMES", "invitation_base", "is_loopback", "lan_addresses"]

FIB_TRIE = Path("/proc/net/fib_trie")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
# Where a UDP socket is pointed to learn the route's source address (never sent to).
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _from_fib_trie(text: str) -> set[str]:
    """The ``host LOCAL`` addresses of the kernel's routing tables."""
    found: set[str] = set()
    last: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|--"):
            last = stripped[3:].strip()
        elif last is not None and stripped.startswith("/32 host LOCAL"):
            found.add(last)
    return found


def _from_route() -> list[str]:
    found = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # chooses a route and a source; sends nothing
                found.append(str(s.getsockname()[0]))
        except OSError:
            continue
    return found


def _from_host_name() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def _usable(address: str) -> ipaddress.IPv4Address | None:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if not isinstance(ip, ipaddress.IPv4Address) or ip.is_loopback or ip.is_unspecified or ip.is_multicast:
        return None
    return ip


def _ordered(preferred: Iterable[str], others: Iterable[str]) -> list[str]:
    seen: dict[str, ipaddress.IPv4Address] = {}
    for address in [*preferred, *sorted(others, key=lambda a: ipaddress.ip_address(a).packed)]:
        ip = _usable(address)
        if ip is not None and str(ip) not in seen:
            seen[str(ip)] = ip
    return sorted(seen, key=lambda a: seen[a].is_link_local)  # stable: link-local ones last


def lan_addresses() -> list[str]:
    """The machine's non-loopback IPv4 addresses, the one it would send from first."""
    try:
        known = _from_fib_trie(FIB_TRIE.read_text(encoding="ascii", errors="replace"))
    except OSError:  # not Linux: the host name's addresses (resolving it may ask a DNS server)
        known = set(_from_host_name())
    return _ordered(_from_route(), known)


def is_loopback(host: str) -> bool:
    """Whether a request's host (name or address, without the port) is this machine's loopback."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def invitation_base(request_base: str, public_url: str | None, addresses: list[str]) -> tuple[str, str]:
    """The address a phone is sent to, and why: ``public_url`` when the server was given one
    (``"public"``); else the address the browser used, unless it is loopback (``"browser"``);
    else the first LAN address with the browser's scheme and port (``"lan"``); else the
    browser's loopback address all the same (``"loopback"``: no LAN found)."""
    if public_url:
        return public_url.rstrip("/") + "/", "public"
    parts = urlsplit(request_base)
    here = request_base.rstrip("/") + "/"
    if not is_loopback(parts.hostname or ""):
        return here, "browser"
    if not addresses:
        return here, "loopback"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{addresses[0]}{port}/", "lan"
