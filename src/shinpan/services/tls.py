"""HTTPS on a venue network without internet: shinpan's own certificate authority.

``shinpan serve --https`` makes, once, a certificate authority (``ca.crt``, ``ca.key``) and
keeps it in a folder beside the database (:func:`tls_folder`); phones install ``ca.crt``
once and then trust the server. The server's certificate (``server.crt``, ``server.key``),
signed by it, names the machine's LAN addresses, its host name, ``localhost`` and 127.0.0.1;
it is made again when one of those is missing from it (the laptop joined another network),
when it is about to expire, or when it was not signed by the authority kept beside it.

The authority is constrained (X.509 name constraints, critical) to the names it serves:
the machine's host name, ``localhost``, 127.0.0.1 and the LAN addresses it was made for.
Whoever takes its key can issue a certificate that phones trust for those names only, never
for another site. It lives a year at most (CA_DAYS); a server certificate a month
(SERVER_DAYS), made again a week before its end (RENEW_DAYS) or when the addresses change,
at start and, while ``shinpan serve`` runs, every hour (:func:`keep_fresh`). A new address
outside the authority's names, or an authority near its end, makes a new authority: every
phone installs it again (``shinpan serve`` says so).

Made with ``cryptography`` (ECDSA P-256, SHA-256). Private keys are written readable by
their owner only.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging
import os
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from shinpan.store.db import data_dir, resolve_url
from shinpan.store.urls import database_url

__all__ = ["CA_MIME", "Made", "TlsFiles", "ensure", "fingerprint", "keep_fresh", "server_names", "tls_folder"]

CA_MIME = "application/x-x509-ca-cert"  # what phones open as a certificate to install
CA_DAYS = 365
SERVER_DAYS = 30
RENEW_DAYS = 7  # a certificate this close to its end is made again


@dataclass(frozen=True)
class TlsFiles:
    folder: Path

    @property
    def ca_cert(self) -> Path:
        return self.folder / "ca.crt"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca.key"

    @property
    def cert(self) -> Path:
        return self.folder / "server.crt"

    @property
    def key(self) -> Path:
        return self.folder / "server.key"


def tls_folder(db: str | None) -> Path:
    """Beside the database: ``NAME.tls/`` next to a SQLite file ``NAME.sqlite3``; for
    PostgreSQL (or a database in memory), ``tls/`` in the data directory."""
    parsed = database_url(resolve_url(db))
    if parsed.dialect == "sqlite" and parsed.path:
        real = Path(parsed.path).expanduser().resolve()
        return real.with_name(real.stem + ".tls")
    return data_dir().expanduser().resolve() / "tls"


def server_names(addresses: Sequence[str]) -> tuple[list[str], list[str]]:
    """The names and addresses the server certificate covers: the host name and
    ``localhost``; 127.0.0.1 and the LAN addresses."""
    names = list(dict.fromkeys(n for n in (socket.gethostname().lower(), "localhost") if n))
    return names, list(dict.fromkeys(["127.0.0.1", *addresses]))


def _write(path: Path, data: bytes, private: bool) -> None:
    """Written whole (a temporary file renamed), a private key readable by its owner only."""
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


def _usage(*, signs_certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs_certificates,
        crl_sign=signs_certificates,
        encipher_only=False,
        decipher_only=False,
    )


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _constraints(names: list[str], addresses: list[str]) -> x509.NameConstraints:
    """The names an authority may certify: these host names (and names under them) and
    these addresses alone."""
    permitted: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    permitted += [x509.IPAddress(ipaddress.ip_network(a)) for a in addresses]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None)


def _make_authority(
    files: TlsFiles, now: dt.datetime, names: list[str], addresses: list[str]
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "shinpan"),
            x509.NameAttribute(
                NameOID.COMMON_NAME, f"shinpan venue CA ({socket.gethostname()}, {now:%Y-%m-%d})"
            ),
        ]
    )
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(signs_certificates=True), critical=True)
        .add_extension(_constraints(names, addresses), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write(files.ca_key, _pem_key(key), private=True)
    _write(files.ca_cert, cert.public_bytes(serialization.Encoding.PEM), private=False)
    return cert, key


def _permits(ca: x509.Certificate, names: list[str], addresses: list[str]) -> bool:
    """Whether the authority's name constraints cover every name and address (an authority
    without constraints, as shinpan made them before, covers nothing)."""
    try:
        found = ca.extensions.get_extension_for_class(x509.NameConstraints)
    except x509.ExtensionNotFound:
        return False
    permitted = found.value.permitted_subtrees or []
    dns = [p.value.lower() for p in permitted if isinstance(p, x509.DNSName)]
    networks = [p.value for p in permitted if isinstance(p, x509.IPAddress)]

    def named(host: str) -> bool:
        return any(host == d or host.endswith("." + d) for d in dns)

    def addressed(address: str) -> bool:
        ip = ipaddress.ip_address(address)
        return any(isinstance(n, ipaddress.IPv4Network | ipaddress.IPv6Network) and ip in n for n in networks)

    return found.critical and all(named(n) for n in names) and all(addressed(a) for a in addresses)


def _authority(
    files: TlsFiles, now: dt.datetime, names: list[str], addresses: list[str]
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey, bool]:
    """The authority kept beside the database while it covers these names and is not near
    its end; else a new one."""
    kept = _kept_authority(files)
    if kept is not None:
        cert, key = kept
        fresh = cert.not_valid_after_utc - now > dt.timedelta(days=RENEW_DAYS)
        if fresh and _permits(cert, names, addresses):
            return cert, key, False
    return (*_make_authority(files, now, names, addresses), True)


def _kept_authority(files: TlsFiles) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    if not (files.ca_cert.exists() and files.ca_key.exists()):
        return None
    try:
        cert = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
        key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    except (ValueError, TypeError):  # unreadable: made again
        return None
    return (cert, key) if isinstance(key, ec.EllipticCurvePrivateKey) else None


def _covers(cert: x509.Certificate, names: list[str], addresses: list[str]) -> bool:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    has_names = set(san.get_values_for_type(x509.DNSName))
    has_addresses = {str(a) for a in san.get_values_for_type(x509.IPAddress)}
    return set(names) <= has_names and set(addresses) <= has_addresses


def _server_is_good(
    files: TlsFiles, ca: x509.Certificate, names: list[str], addresses: list[str], now: dt.datetime
) -> bool:
    if not (files.cert.exists() and files.key.exists()):
        return False
    try:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        cert.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):  # unreadable, or another authority's
        return False
    return cert.not_valid_after_utc - now > dt.timedelta(days=RENEW_DAYS) and _covers(cert, names, addresses)


def _make_server(
    files: TlsFiles,
    ca: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    names: list[str],
    addresses: list[str],
    now: dt.datetime,
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    alternatives: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alternatives += [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    issuer_key = ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca.subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(min(now + dt.timedelta(days=SERVER_DAYS), ca.not_valid_after_utc))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_usage(signs_certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(issuer_key), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write(files.key, _pem_key(key), private=True)
    # The chain: the server's certificate, then the authority's.
    chain = cert.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM)
    _write(files.cert, chain, private=False)


@dataclass(frozen=True)
class Made:
    files: TlsFiles
    made_authority: bool  # a new authority: every phone must install it (again)
    made_server: bool


def ensure(folder: Path, addresses: Sequence[str], now: dt.datetime | None = None) -> Made:
    """The authority and a server certificate for ``addresses`` (and the host name,
    ``localhost``, 127.0.0.1) in ``folder``: kept if good, made if not."""
    moment = now or dt.datetime.now(dt.UTC)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    files = TlsFiles(folder)
    names, ips = server_names(addresses)
    ca, ca_key, new_authority = _authority(files, moment, names, ips)
    fresh = new_authority or not _server_is_good(files, ca, names, ips, moment)
    if fresh:
        _make_server(files, ca, ca_key, names, ips, moment)
    return Made(files, new_authority, fresh)


def fingerprint(pem: bytes) -> str:
    """The authority's SHA-256 fingerprint as an iPhone shows it (``AB CD …``), to compare."""
    cert = x509.load_pem_x509_certificate(pem)
    return cert.fingerprint(hashes.SHA256()).hex(" ").upper()


def keep_fresh(
    folder: Path,
    addresses: Callable[[], Sequence[str]],
    reload: Callable[[Made], None],
    every: float = 3600.0,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """While the server runs (until ``stop`` is set): every ``every`` seconds, the
    certificates for the addresses the machine has then (:func:`ensure`); ``reload`` is told
    of new ones (the server loads them for its next connections). A thread of its own; a
    failure is logged and tried again at the next check."""
    ended = stop or threading.Event()

    def run() -> None:
        while not ended.wait(every):
            try:
                made = ensure(folder, addresses())
                if made.made_server:
                    reload(made)
            except Exception:  # the server goes on with the certificate it has
                logging.getLogger("shinpan.tls").exception("renewing the server certificate failed")

    thread = threading.Thread(target=run, name="tls-renewal", daemon=True)
    thread.start()
    return thread
