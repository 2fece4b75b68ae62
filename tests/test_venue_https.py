"""HTTPS on a venue network without internet: ``shinpan serve --https``
makes once, and keeps beside the database, a certificate authority and a server certificate
for the machine's LAN addresses, host name, ``localhost`` and 127.0.0.1; serves TLS itself;
sends plain HTTP to HTTPS, except the page and the file a phone installs the authority from;
and its cookies are Secure. Only 127.0.0.1 is ever sent a byte.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import ssl
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import DNSName, IPAddress, PolicyBuilder, Store, VerificationError

from shinpan.services import tls
from shinpan.services.network import lan_addresses


def _certificate(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificates(path.read_bytes())[0]


def _covered(cert: x509.Certificate) -> tuple[set[str], set[str]]:
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {
        str(a) for a in san.get_values_for_type(x509.IPAddress)
    }


def test_the_authority_is_made_once_and_the_server_certificate_names_the_machine(tmp_path: Path) -> None:
    folder = tmp_path / "shinpan.tls"
    made = tls.ensure(folder, ["192.168.10.5"])
    assert made.made_authority and made.made_server
    files = made.files
    ca, server = _certificate(files.ca_cert), _certificate(files.cert)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    server.verify_directly_issued_by(ca)
    names, addresses = _covered(server)
    assert names == {socket.gethostname().lower(), "localhost"}
    assert addresses == {"127.0.0.1", "192.168.10.5"}
    usage = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert ExtendedKeyUsageOID.SERVER_AUTH in usage
    assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 31  # a few weeks
    for key in (files.ca_key, files.key):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    ca_bytes, server_bytes = files.ca_cert.read_bytes(), files.cert.read_bytes()
    again = tls.ensure(folder, ["192.168.10.5"])
    assert not again.made_authority and not again.made_server
    assert files.ca_cert.read_bytes() == ca_bytes and files.cert.read_bytes() == server_bytes
    moved = tls.ensure(
        folder, ["10.1.2.3"]
    )  # the laptop joined another network: outside the authority's names
    assert moved.made_server and moved.made_authority  # phones install the new one
    assert _covered(_certificate(files.cert))[1] == {"127.0.0.1", "10.1.2.3"}
    assert _permitted(_certificate(files.ca_cert))[1] == {"127.0.0.1/32", "10.1.2.3/32"}


def _permitted(ca: x509.Certificate) -> tuple[set[str], set[str]]:
    found = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert found.critical and found.value.excluded_subtrees is None
    subtrees = found.value.permitted_subtrees or []
    return {str(p.value) for p in subtrees if isinstance(p, x509.DNSName)}, {
        str(p.value) for p in subtrees if isinstance(p, x509.IPAddress)
    }


def test_the_authority_may_certify_the_venues_names_alone_and_lives_a_year(tmp_path: Path) -> None:
    """Whoever takes the authority's key can make a certificate phones trust for the venue's
    own names only: a certificate it signs for another site does not verify."""
    now = datetime.now(UTC)
    made = tls.ensure(tmp_path / "v.tls", ["192.168.10.5"], now=now)
    ca = _certificate(made.files.ca_cert)
    assert _permitted(ca) == (
        {socket.gethostname().lower(), "localhost"},
        {"127.0.0.1/32", "192.168.10.5/32"},
    )
    assert ca.not_valid_after_utc - now <= timedelta(days=365)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.path_length == 0
    key = serialization.load_pem_private_key(made.files.ca_key.read_bytes(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    store = Store([ca])
    verifier = PolicyBuilder().store(store).time(now).build_server_verifier
    server = _certificate(made.files.cert)
    verifier(IPAddress(ipaddress.ip_address("192.168.10.5"))).verify(server, [])  # its own: trusted
    for name in ("bank.example", "localhost.example"):
        forged = _signed_by(ca, key, x509.DNSName(name), now)
        with pytest.raises(VerificationError):
            verifier(DNSName(name)).verify(forged, [])
    forged = _signed_by(ca, key, x509.IPAddress(ipaddress.ip_address("203.0.113.7")), now)
    with pytest.raises(VerificationError):
        verifier(IPAddress(ipaddress.ip_address("203.0.113.7"))).verify(forged, [])


def _signed_by(
    ca: x509.Certificate, ca_key: ec.EllipticCurvePrivateKey, name: x509.GeneralName, now: datetime
) -> x509.Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "forged")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=10))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([name]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )


def test_the_server_certificate_is_renewed_near_its_end_and_the_authority_near_its_own(
    tmp_path: Path,
) -> None:
    folder, now = tmp_path / "v.tls", datetime.now(UTC)
    first = tls.ensure(folder, ["192.168.10.5"], now=now)
    ca_bytes, server_bytes = first.files.ca_cert.read_bytes(), first.files.cert.read_bytes()
    soon = tls.ensure(folder, ["192.168.10.5"], now=now + timedelta(days=20))
    assert not soon.made_server and first.files.cert.read_bytes() == server_bytes
    renewed = tls.ensure(folder, ["192.168.10.5"], now=now + timedelta(days=25))  # 5 days left
    assert renewed.made_server and not renewed.made_authority
    assert first.files.ca_cert.read_bytes() == ca_bytes
    assert _certificate(first.files.cert).not_valid_after_utc > now + timedelta(days=50)
    late = tls.ensure(folder, ["192.168.10.5"], now=now + timedelta(days=360))  # the authority's last days
    assert late.made_authority and late.made_server
    renewed_ca = _certificate(first.files.ca_cert)
    _certificate(first.files.cert).verify_directly_issued_by(renewed_ca)


def test_an_authority_without_name_constraints_is_made_again(tmp_path: Path) -> None:
    """One made by an older shinpan (ten years, no constraints) is replaced."""
    folder = tmp_path / "v.tls"
    made = tls.ensure(folder, ["192.168.10.5"])
    old_key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "old shinpan venue CA")])
    now = datetime.now(UTC)
    old = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(old_key.public_key())
        .serial_number(1).not_valid_before(now).not_valid_after(now + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(old_key.public_key()), critical=False)
        .sign(old_key, hashes.SHA256())
    )  # fmt: skip
    made.files.ca_cert.write_bytes(old.public_bytes(serialization.Encoding.PEM))
    made.files.ca_key.write_bytes(
        old_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    again = tls.ensure(folder, ["192.168.10.5"])
    assert again.made_authority
    _permitted(_certificate(again.files.ca_cert))


def test_the_files_are_kept_beside_the_database(tmp_path: Path) -> None:
    assert tls.tls_folder(str(tmp_path / "venue.sqlite3")) == tmp_path / "venue.tls"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(port: int, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"shinpan serve ended: {process.stdout.read() if process.stdout else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, int, Path]]:
    """``shinpan serve --https`` on two free ports of 127.0.0.1: (http, https, the TLS folder)."""
    plain, secure = _free_port(), _free_port()
    shinpan = Path(sys.executable).with_name("shinpan")
    process = subprocess.Popen(
        [
            str(shinpan),
            "serve",
            "--https",
            "--port",
            str(plain),
            "--https-port",
            str(secure),
            "--db",
            str(tmp_path / "venue.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "COLUMNS": "200"},
    )
    try:
        _wait_for(secure, process)
        _wait_for(plain, process)
        yield plain, secure, tmp_path / "venue.tls"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def test_serve_https_serves_tls_with_its_authority_and_secure_cookies(served: tuple[int, int, Path]) -> None:
    plain, secure, folder = served
    trusting = ssl.create_default_context(cafile=str(folder / "ca.crt"))
    with httpx.Client(verify=trusting, timeout=10) as client:
        for host in ("127.0.0.1", "localhost"):
            page = client.get(f"https://{host}:{secure}/login")
            assert page.status_code == 200
            assert "; Secure" in page.headers["set-cookie"]
            assert page.headers["strict-transport-security"] == "max-age=31536000"
    with httpx.Client(timeout=10) as plain_client:
        assert "strict-transport-security" not in plain_client.get(f"http://127.0.0.1:{plain}/ca").headers
    with (
        pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"),
        httpx.Client(timeout=10) as stranger,
    ):
        stranger.get(f"https://127.0.0.1:{secure}/login")  # without the authority: not trusted


def test_plain_http_sends_to_https_but_hands_out_the_authority(served: tuple[int, int, Path]) -> None:
    plain, secure, folder = served
    with httpx.Client(timeout=10) as client:
        moved = client.get(f"http://127.0.0.1:{plain}/events/1/record?x=1")
        assert moved.status_code == 301
        assert moved.headers["location"] == f"https://127.0.0.1:{secure}/events/1/record?x=1"
        posted = client.post(f"http://127.0.0.1:{plain}/login", data={"name": "x"})
        assert posted.status_code == 308
        for hostile in ("evil.example", "evil.example:443", "127.0.0.1@evil.example", "[::1]"):
            sent = client.get(f"http://127.0.0.1:{plain}/login?next=/", headers={"Host": hostile})
            assert sent.status_code == 301  # to the address the server names itself, never the Host
            assert sent.headers["location"] == f"https://127.0.0.1:{secure}/login?next=/", hostile
        cert = client.get(f"http://127.0.0.1:{plain}/ca.crt")
        assert cert.status_code == 200 and cert.headers["content-type"] == "application/x-x509-ca-cert"
        assert cert.content == (folder / "ca.crt").read_bytes()
        page = client.get(f"http://127.0.0.1:{plain}/ca")
        assert page.status_code == 200
        assert "設定 → 一般 → 情報 → 証明書信頼設定" in page.text and "暗号化と認証情報" in page.text
        first = (lan_addresses() or ["127.0.0.1"])[0]
        assert f'data-url="http://{first}:{plain}/ca"' in page.text  # a phone's first visit: plain HTTP
        assert tls.fingerprint(cert.content) in page.text


def test_the_fingerprint_is_said_as_a_phone_shows_it(tmp_path: Path) -> None:
    files = tls.ensure(tmp_path / "v.tls", []).files
    said = tls.fingerprint(files.ca_cert.read_bytes())
    from cryptography.hazmat.primitives import hashes

    assert said == " ".join(f"{b:02X}" for b in _certificate(files.ca_cert).fingerprint(hashes.SHA256()))


def test_while_serving_the_certificate_is_made_again_when_the_addresses_change(tmp_path: Path) -> None:
    """The hourly check (here every 50 ms): a new address gives a new server certificate,
    and the server is told to load it."""
    folder = tmp_path / "v.tls"
    tls.ensure(folder, ["192.168.10.5"])
    told: list[tls.Made] = []
    addresses = ["192.168.10.5"]
    stop = threading.Event()
    thread = tls.keep_fresh(folder, lambda: list(addresses), told.append, every=0.05, stop=stop)
    time.sleep(0.3)
    assert told == []  # nothing changed: nothing made, nothing loaded
    addresses[0] = "192.168.20.7"
    deadline = time.monotonic() + 10
    while not told and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(5)
    assert told and told[0].made_server and not thread.is_alive()
    assert "192.168.20.7" in _covered(_certificate(folder / "server.crt"))[1]
