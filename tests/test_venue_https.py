"""HTTPS on a venue network without internet: ``shinpan serve --https``
makes once, and keeps beside the database, a certificate authority and a server certificate
for the machine's LAN addresses, host name, ``localhost`` and 127.0.0.1; serves TLS itself;
sends plain HTTP to HTTPS, except the page and the file a phone installs the authority from;
and its cookies are Secure. Only 127.0.0.1 is ever sent a byte.
"""

from __future__ import annotations

import os
import socket
import ssl
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

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
    assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 398  # what iOS accepts
    for key in (files.ca_key, files.key):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    ca_bytes, server_bytes = files.ca_cert.read_bytes(), files.cert.read_bytes()
    again = tls.ensure(folder, ["192.168.10.5"])
    assert not again.made_authority and not again.made_server
    assert files.ca_cert.read_bytes() == ca_bytes and files.cert.read_bytes() == server_bytes
    moved = tls.ensure(folder, ["10.1.2.3"])  # the laptop joined another network
    assert moved.made_server and not moved.made_authority
    assert files.ca_cert.read_bytes() == ca_bytes  # phones keep trusting it
    assert _covered(_certificate(files.cert))[1] == {"127.0.0.1", "10.1.2.3"}


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
    _, secure, folder = served
    trusting = ssl.create_default_context(cafile=str(folder / "ca.crt"))
    with httpx.Client(verify=trusting, timeout=10) as client:
        for host in ("127.0.0.1", "localhost"):
            page = client.get(f"https://{host}:{secure}/login")
            assert page.status_code == 200
            assert "; Secure" in page.headers["set-cookie"]
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
