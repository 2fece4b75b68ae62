"""Invitations that reach phones: the server names its own LAN addresses,
sends phones to one of them when the head judge's browser is on loopback (and says so), or
to ``--public-url``; invite and join pages name the event and the role; a code can be typed
on the sign-in page; an A4 sheet of codes. Only 127.0.0.1 is ever sent a byte.
"""

from __future__ import annotations

import fcntl
import re
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shinpan.engine.event_rules import Role
from shinpan.files.csvio import PlayerRow
from shinpan.services import accounts, events, swiss
from shinpan.services import publish as publishing
from shinpan.services.network import invitation_base, is_loopback, lan_addresses
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import HEAD_JUDGE, ROOT, Client, csrf_in, database_url, sign_in

SIOCGIFADDR = 0x8915


def interface_addresses() -> set[str]:
    """Every interface's IPv4 address, asked of each interface by name (SIOCGIFADDR): another
    way than the server's own, to check it against."""
    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on it
                continue
            found.add(socket.inet_ntoa(answer[20:24]))
    return found


def test_the_server_names_the_machine_s_own_non_loopback_addresses() -> None:
    mine = {a for a in interface_addresses() if not a.startswith("127.")}
    named = lan_addresses()
    assert set(named) <= mine  # nothing invented
    assert mine - {a for a in mine if a.startswith("169.254.")} <= set(named)  # every usable one named
    assert not any(a.startswith("127.") for a in named)


FIB_TRIE = """Local:
  +-- 0.0.0.0/0 3 0 5
     +-- 127.0.0.0/8 2 0 2
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 169.254.0.0/16 2 0 2
           |-- 169.254.7.9
              /32 host LOCAL
     +-- 192.168.1.0/24 2 0 2
           |-- 192.168.1.0
              /24 link UNICAST
           |-- 192.168.1.20
              /32 host LOCAL
        |-- 192.168.1.255
           /32 link BROADCAST
"""


def test_the_kernel_s_own_addresses_are_read_and_a_link_local_one_comes_last() -> None:
    from shinpan.services.network import _from_fib_trie, _ordered

    own = _from_fib_trie(FIB_TRIE)
    assert own == {"127.0.0.1", "169.254.7.9", "192.168.1.20"}
    assert _ordered([], own) == ["192.168.1.20", "169.254.7.9"]  # loopback left out
    assert _ordered(["10.0.0.2"], own) == ["10.0.0.2", "192.168.1.20", "169.254.7.9"]  # the route's first


def test_a_browser_on_loopback_sends_phones_to_a_lan_address_with_its_scheme_and_port() -> None:
    assert invitation_base("http://127.0.0.1:8000/", None, ["192.168.1.20"]) == (
        "http://192.168.1.20:8000/",
        "lan",
    )
    assert invitation_base("https://localhost:8443/", None, ["10.0.0.5", "192.168.1.20"]) == (
        "https://10.0.0.5:8443/",
        "lan",
    )
    assert invitation_base("http://192.168.1.20:8000/", None, ["10.0.0.5"]) == (
        "http://192.168.1.20:8000/",
        "browser",
    )
    assert invitation_base("http://127.0.0.1:8000/", "https://judge.local:8443", ["10.0.0.5"]) == (
        "https://judge.local:8443/",
        "public",
    )
    assert invitation_base("http://127.0.0.1:8000/", None, []) == ("http://127.0.0.1:8000/", "loopback")
    assert is_loopback("localhost") and is_loopback("127.5.0.1") and is_loopback("[::1]")
    assert not is_loopback("192.168.1.20")


@pytest.fixture(params=["sqlite", "postgres"])
def invited(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[Database, int, Client, TestClient]]:
    with database_url(request.param, tmp_path) as url:
        db = Database(url)
        name, password, level = HEAD_JUDGE
        head = accounts.add_user(db, name, password, level)
        event = events.create_event(
            db, name="夏の選手権", head_judge=name, head_judge_level=level, head_judge_account=head.uid
        )
        app = create_app(db)
        http = TestClient(app, base_url="http://127.0.0.1:8000", follow_redirects=True)
        try:
            yield db, event, sign_in(http, name, password), TestClient(app, base_url="http://127.0.0.1:8000")
        finally:
            http.close()
            db.close()


def _invite(client: Client, event: int, role: str) -> str:
    page = client.get(f"/events/{event}/invite")
    done = client.post(
        f"/events/{event}/invite", csrf=False, data={"csrf_token": csrf_in(page.text), "role": role}
    )
    assert done.status_code == 200, done.text
    return done.text


def test_the_invite_page_sends_phones_to_a_lan_address_names_it_and_the_event_and_role(
    invited: tuple[Database, int, Client, TestClient],
) -> None:
    _, event, head, _ = invited
    html = _invite(head, event, "floor_judge")
    url = re.search(r'id="invite-qr" data-url="([^"]+)"', html)
    assert url is not None
    host = re.fullmatch(r"http://([0-9.]+):8000/join/([A-Z0-9]{10})", url[1])
    assert host is not None and host[1] in interface_addresses() and not host[1].startswith("127.")
    assert "127.0.0.1（このパソコン自身）" in html and host[1] in html  # says which, and why
    assert "「夏の選手権」にフロアジャッジとして参加するための1回限りのコード" in html


def test_the_join_page_names_the_event_and_the_role_and_a_code_can_be_typed(
    invited: tuple[Database, int, Client, TestClient],
) -> None:
    db, event, _head, visitor = invited
    code = accounts.invite(db, event, Role.scorekeeper, HEAD_JUDGE[0])
    login = visitor.get("/login").text
    assert 'id="join-code"' in login
    typed = visitor.get("/join", params={"code": f" {code[:5].lower()}-{code[5:]} "}, follow_redirects=False)
    assert typed.status_code == 303 and typed.headers["location"] == f"/join/{code}"
    page = visitor.get(typed.headers["location"]).text
    assert "「夏の選手権」にスコアキーパーとして招待されています。" in page


def test_public_url_is_where_phones_are_sent(invited: tuple[Database, int, Client, TestClient]) -> None:
    _, event, head, _ = invited
    head.http.app.state.public_url = "https://judge-desk.local:8443/"  # type: ignore[attr-defined]
    html = _invite(head, event, "viewer")
    assert re.search(r'data-url="https://judge-desk\.local:8443/join/[A-Z0-9]{10}"', html)
    assert "--public-url" in html


def test_the_api_sends_phones_where_the_invite_page_does(
    invited: tuple[Database, int, Client, TestClient],
) -> None:
    _, event, head, _ = invited
    head.http.app.state.public_url = "https://judge-desk.local:8443/"  # type: ignore[attr-defined]
    made = head.post(f"/api/events/{event}/invitations", json={"role": "viewer"})
    assert made.status_code == 201, made.text
    assert made.json()["url"] == f"https://judge-desk.local:8443/join/{made.json()['code']}"


def test_the_players_page_and_the_slips_send_phones_where_invitations_do(
    invited: tuple[Database, int, Client, TestClient],
) -> None:
    """A head judge at the laptop (127.0.0.1) publishes the players' pages and prints the
    slips: the QR codes phones scan name this computer's address on the venue network."""
    db, event, head, _ = invited
    head.http.app.state.addresses = ["192.168.1.20"]  # type: ignore[attr-defined]
    page = head.get(f"/events/{event}/publish")
    done = head.post(
        f"/events/{event}/publish",
        csrf=False,
        data={"csrf_token": csrf_in(page.text), "command_id": "publish-1", "names": "names"},
    )
    assert done.status_code == 200, done.text
    with db.read() as conn:
        token = publishing.publication(conn, event).token
    assert token
    assert f'href="http://192.168.1.20:8000/p/{token}"' in done.text
    assert "127.0.0.1" in done.text and "192.168.1.20" in done.text  # and it says why

    rows = [
        PlayerRow("P1", "山田 太郎", "やまだたろう", None),
        PlayerRow("P2", "佐藤 花子", "さとうはなこ", None),
    ]
    events.import_players(db, event, rows)
    swiss.pair_next_round(db, event, seed=1)
    slips = head.get(f"/api/events/{event}/reports/result-slips?round=1&format=json")
    assert slips.status_code == 200, slips.text[:300]
    assert "http://192.168.1.20:8000/" in slips.text and "http://127.0.0.1:8000/" not in slips.text


def test_an_a4_sheet_holds_as_many_one_time_codes_as_asked(
    invited: tuple[Database, int, Client, TestClient],
) -> None:
    db, event, head, _visitor = invited
    page = head.get(f"/events/{event}/invite")
    sheet = head.post(
        f"/events/{event}/invite/sheet",
        csrf=False,
        data={"csrf_token": csrf_in(page.text), "role": "floor_judge", "count": "9"},
    )
    assert sheet.status_code == 200
    codes = re.findall(r'<code class="code">([A-Z0-9]{10})</code>', sheet.text)
    assert len(set(codes)) == 9 and sheet.text.count("<svg") == 9
    assert sheet.text.count("夏の選手権") >= 9 and "@page" not in sheet.text  # the page size is in venue.css
    assert "size: A4" in (ROOT / "src/shinpan/web/static/venue.css").read_text(encoding="utf-8")
    for code in codes:
        assert accounts.invitation(db, code).role is Role.floor_judge
    too_many = head.post(
        f"/events/{event}/invite/sheet",
        csrf=False,
        data={"csrf_token": csrf_in(page.text), "role": "floor_judge", "count": "50"},
    )
    assert too_many.status_code == 422 and "コードの数は1から12までです" in too_many.text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_prints_the_lan_addresses_at_start(tmp_path: Path) -> None:
    port = _free_port()
    shinpan = Path(sys.executable).with_name("shinpan")
    process = subprocess.Popen(
        [
            str(shinpan),
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "s.sqlite3"),
            "--public-url",
            "http://judge-desk.local:8000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},  # never the user's folders
    )
    try:
        deadline, said = time.monotonic() + 30, ""
        assert process.stdout is not None
        while "invitations send phones" not in said and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            said += line
    finally:
        process.terminate()
        process.wait(10)
    for address in lan_addresses():
        assert f"on the venue network: http://{address}:{port}/" in said
    assert "listening on 127.0.0.1 only" in said
    assert "invitations send phones to http://judge-desk.local:8000/" in said


def test_a_public_url_that_is_not_one_is_refused_before_anything_starts(tmp_path: Path) -> None:
    from conftest import run_cli

    done = run_cli("serve", "--public-url", "judge-desk:8000", db=str(tmp_path / "s.sqlite3"))
    assert done.returncode == 2 and "--public-url must be like http://" in done.stderr + done.stdout


def test_over_https_each_slip_says_where_a_new_phone_installs_the_authority(
    invited: tuple[Database, int, Client, TestClient], tmp_path: Path
) -> None:
    from shinpan.services import tls

    _, event, head, _ = invited
    state = head.http.app.state  # type: ignore[attr-defined]
    state.tls, state.ca_page_url = tls.ensure(tmp_path / "v.tls", []).files, "http://192.168.1.20:8000/ca"
    page = head.get(f"/events/{event}/invite")
    assert 'href="/ca"' in page.text
    sheet = head.post(
        f"/events/{event}/invite/sheet",
        csrf=False,
        data={"csrf_token": csrf_in(page.text), "role": "viewer", "count": "2"},
    )
    assert sheet.text.count("先に http://192.168.1.20:8000/ca から認証局を入れてください") == 2
