"""Paper proves the ledger: every printout carries its event's chain head, ``shinpan verify
--head`` with the head read off the printout catches a ledger rewritten later, however
consistently; and the head judge's seal, broken by any change, names what broke it.

The forger here has the database: the ledger's guard taken off (tests/test_tamper.py's
``by_hand``), an entry changed, every later hash made again through the store's own hashing,
the projections rebuilt from the forged entries. Plain ``verify`` then finds nothing.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from conftest import Backend, EventSetup, make_event, new_backend, run_cli
from shinpan import reports
from shinpan.ledger_head import LedgerHead, parse_head
from shinpan.services import events, integrity, queries, seal
from shinpan.services.heads import read_head
from shinpan.store.chain import canonical, entry_hash
from shinpan.store.db import Database
from test_tamper import by_hand
from web_support import build_world, database_url, ledger_size

SHORT = re.compile(r"(\d+-\d+-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})")
Edit = Callable[[int, str, str, str], str]  # (seq, kind, body, new prev hash) -> body


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """shinpan's data folder for this test: where a PostgreSQL installation keeps its key."""
    folder = tmp_path / "home"
    monkeypatch.setenv("SHINPAN_HOME", str(folder))
    monkeypatch.setenv("COLUMNS", "400")  # a message on one line, as a wide terminal shows it
    return folder


@pytest.fixture
def ev(db: Database) -> EventSetup:
    """Rulings #1 and #2 of P001's extra cards (the second with a duel loss), #3 of P003."""
    setup = make_event(db, players=4)
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P001", "ingame.extra-cards-drawn")
    setup.record("P003", "pregame.tardiness")
    return setup


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF")
    done = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, timeout=60, check=True)
    return done.stdout.decode("utf-8")


def printed_head(ev: EventSetup) -> str:
    """The head as the penalty report's PDF prints it (its text, as pdftotext reads it)."""
    text = pdf_text(reports.render(reports.penalty_report(ev.db, ev.id), "pdf").content)
    found = set(SHORT.findall(text))
    assert len(found) == 1, found  # one head, at the top and at the foot of every page
    return found.pop()


def ruling_entry(ev: EventSetup, number: int) -> int:
    return int(queries.get_ruling(ev.db, ev.id, number)["entry"])


def rewrite(ev: EventSetup, backend: Backend, start: int, edit: Edit) -> None:
    """From entry ``start`` on, each body through ``edit`` and every hash made again, each
    linking the one before: the chain holds. The projections are then rebuilt from it."""
    with by_hand(backend) as sql:
        ((prev,),) = sql("SELECT hash FROM entries WHERE event_id = ? AND seq = ?", ev.id, start - 1)
        rows = sql(
            "SELECT seq, kind, command_id, command_hash, actor, recorded_at, refs, body FROM entries "
            "WHERE event_id = ? AND seq >= ? ORDER BY seq",
            ev.id,
            start,
        )
        for seq, kind, cid, chash, actor, at, refs, body in rows:
            body = edit(seq, kind, body, prev)
            digest = entry_hash(
                seq=seq,
                kind=kind,
                command_id=cid,
                command_hash=chash,
                actor=actor,
                recorded_at=at,
                refs=refs,
                body=body,
                prev_hash=prev,
            )
            sql(
                "UPDATE entries SET body = ?, prev_hash = ?, hash = ? WHERE event_id = ? AND seq = ?",
                body,
                prev,
                digest,
                ev.id,
                seq,
            )
            prev = digest
    integrity.rebuild(ev.db, ev.id)


def no_duel_loss(target: int) -> Edit:
    """Ruling #2's duel loss made to vanish from its entry (entry ``target``)."""

    def edit(seq: int, kind: str, body: str, prev: str) -> str:
        return body.replace('"duel_loss"', '"caution"') if seq == target else body

    return edit


# -- heads on paper -------------------------------------------------------------------------------


def test_a_printed_head_catches_the_ledger_rewritten_whole(ev: EventSetup, backend: Backend) -> None:
    head = printed_head(ev)
    assert head == read_head_of(ev).short
    holds = run_cli("verify", "--head", head, db=backend.url)
    assert holds.returncode == 0, holds.stdout + holds.stderr
    assert f"一致: 大会 {ev.id} の台帳はいまも第{parse_head(head).position}項" in holds.stdout

    target = ruling_entry(ev, 2)
    rewrite(ev, backend, target, no_duel_loss(target))
    assert queries.get_ruling(ev.db, ev.id, 2)["penalties"] == ["warning1", "caution"]
    fooled = run_cli("verify", db=backend.url)
    assert fooled.returncode == 0 and fooled.stdout.startswith("正常:") and " / ok:" in fooled.stdout, (
        fooled.stdout
    )  # the chain holds

    caught = run_cli("verify", "--head", head, db=backend.url)
    assert caught.returncode == 1, caught.stdout
    n = parse_head(head).position
    assert f"不一致: 大会 {ev.id} の第{n}項が印刷物のものと違います" in caught.stdout
    assert "ハッシュがすべて計算し直されています" in caught.stdout
    english = run_cli("verify", "--head", head, "--lang", "en", "--json", db=backend.url)
    said = json.loads(english.stdout)
    assert english.returncode == 1 and said["state"] == "not_held" and said["position"] == n
    assert f"does not hold: event {ev.id}'s entry {n} is not the one printed" in said["message"]
    assert "rewritten whole" in said["message"]


def read_head_of(ev: EventSetup) -> LedgerHead:
    with ev.db.read() as conn:
        return read_head(conn, ev.id)


def test_a_ledger_cut_short_is_caught_by_the_printed_head(ev: EventSetup, backend: Backend) -> None:
    """The last ruling's entries removed: what is left is a whole chain, but shorter."""
    head = printed_head(ev)
    last = ruling_entry(ev, 3)
    with by_hand(backend) as sql:
        sql("DELETE FROM entries WHERE event_id = ? AND seq >= ?", ev.id, last)
    integrity.rebuild(ev.db, ev.id)
    assert integrity.verify(ev.db).ok
    caught = run_cli("verify", "--head", head, "--lang", "en", db=backend.url)
    assert caught.returncode == 1
    assert f"event {ev.id}'s ledger has {last - 1} entries, the printout stood at entry" in caught.stdout


def test_every_document_carries_the_head_of_the_moment_it_was_made(ev: EventSetup) -> None:
    events.end_round(ev.db, ev.id, 1)  # T6: the standings print once a round has ended
    expected = read_head_of(ev)
    person = reports.penalty_report(ev.db, ev.id).rulings[0].player_name
    made = [
        reports.penalty_report(ev.db, ev.id),
        reports.dq_report(ev.db, ev.id),
        reports.penalty_slip(ev.db, ev.id, 1),
        reports.statistics(ev.db, ev.id),
        reports.venue_pairings(ev.db, ev.id),
        reports.venue_standings(ev.db, ev.id),
        reports.player_history(ev.db, person),
    ]
    for report in made:
        assert report.heads == (expected,), report.kind
        html = reports.render(report, "html").content.decode("utf-8")
        assert expected.short in html and f"第{expected.position}項の時点" in html, report.kind
        assert '<div class="lh-qr"><svg' in html, report.kind  # the QR of the full form
        data = json.loads(reports.render(report, "json").content)
        assert data["ledger_heads"] == [expected.as_json()], report.kind
    ev.record("P004", "ingame.slow-play")  # a document made later carries the later head
    later = reports.penalty_report(ev.db, ev.id).heads[0]
    assert later.position > expected.position and later.short != expected.short


def test_a_slip_with_its_head_and_seal_is_still_one_a6_page(ev: EventSetup, backend: Backend) -> None:
    seal_it(ev, backend)
    pdf = reports.render(reports.penalty_slip(ev.db, ev.id, 2), "pdf").content
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, timeout=60, check=True).stdout
    assert re.search(rb"Pages:\s+1\n", info), info
    assert read_head_of(ev).short in pdf_text(pdf)


def test_the_full_head_of_the_qr_and_a_mistyped_or_unknown_head(ev: EventSetup, backend: Backend) -> None:
    head = read_head_of(ev)
    assert run_cli("verify", "--head", head.full, db=backend.url).returncode == 0
    lower = head.short.lower().replace("-", " ", 3)  # as typed by hand: case and spaces forgiven
    assert run_cli("verify", "--head", lower, db=backend.url).returncode == 0
    typo = head.short[:-1] + ("A" if head.short[-1] != "A" else "B")
    mistyped = run_cli("verify", "--head", typo, db=backend.url)
    assert (
        mistyped.returncode == 2 and "ヘッドの形ではありません: 最後の確認文字が合いません" in mistyped.stderr
    )
    in_english = run_cli("verify", "--head", typo, "--lang", "en", db=backend.url)
    assert in_english.returncode == 2 and "a character was mistyped" in in_english.stderr
    other = run_cli("verify", "--head", head.full.replace(f"{head.event_id}-", "999-", 1), db=backend.url)
    assert other.returncode == 0 and f"このデータベースの大会 {ev.id}" in other.stdout  # imported elsewhere
    gone = run_cli("verify", "--head", f"999-{head.position}-{'0' * 64}", db=backend.url)
    assert gone.returncode == 1 and "不明なヘッド" in gone.stdout


# -- the seal -------------------------------------------------------------------------------------


def seal_it(ev: EventSetup, backend: Backend) -> tuple[int, str]:
    """Seal the event from the command line; the seal's entry and the key's fingerprint."""
    done = run_cli("event", "seal", "--event", str(ev.id), "--yes", "--json", db=backend.url)
    assert done.returncode == 0, done.stdout + done.stderr
    said = json.loads(done.stdout)
    return int(said["seq"]), str(said["fingerprint"])


def test_a_seal_is_made_with_the_installations_private_key_and_shown_on_the_final_report(
    ev: EventSetup, backend: Backend, home: Path
) -> None:
    seq, fingerprint = seal_it(ev, backend)
    folder = home if backend.is_postgres else Path(str(backend.path)).parent
    private = folder / seal.KEY_FILE
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert (folder / seal.PUBLIC_FILE).read_text().startswith("-----BEGIN PUBLIC KEY-----")
    assert seal.fingerprint(seal.public_hex(seal.installation_key(ev.db))) == fingerprint
    checked = run_cli("verify", db=backend.url)
    assert checked.returncode == 0 and f"大会 {ev.id} は第{seq - 1}項で封印済み" in checked.stdout
    text = "".join(pdf_text(reports.render(reports.penalty_report(ev.db, ev.id), "pdf").content).split())
    assert "封印済み" in text and fingerprint in text


def test_a_floor_judge_cannot_seal(ev: EventSetup, backend: Backend) -> None:
    refused = run_cli(
        "event", "seal", "--event", str(ev.id), "--yes", "--judge", ev.floor_judge, db=backend.url
    )
    assert refused.returncode == 1 and "error:" in refused.stderr
    assert integrity.verify(ev.db).sealed == {}


def test_a_seal_broken_by_a_changed_entry_is_named(ev: EventSetup, backend: Backend) -> None:
    seq, _ = seal_it(ev, backend)
    target = ruling_entry(ev, 2)
    rewrite(ev, backend, target, no_duel_loss(target))  # the seal's own entry hashed again too
    result = integrity.verify(ev.db)
    assert not result.breaks and not result.differences  # the chain holds; only the seal tells
    assert [(p.seq, p.problem) for p in result.seals] == [(seq, "changed")]
    out = run_cli("verify", db=backend.url)
    assert out.returncode == 1
    assert f"SEAL 大会 {ev.id} の封印(第{seq}項)が破れています" in out.stdout
    en = run_cli("verify", "--lang", "en", db=backend.url).stdout
    assert f"an entry it covers (1–{seq - 1}) was changed after sealing" in en


def test_a_seal_made_to_sign_the_forged_head_has_a_wrong_signature(ev: EventSetup, backend: Backend) -> None:
    seq, _ = seal_it(ev, backend)
    target = ruling_entry(ev, 2)

    def also_the_seal(n: int, kind: str, body: str, prev: str) -> str:
        if n == seq:  # the forger moves the seal onto the forged head
            return canonical({**json.loads(body), "head": prev})
        return no_duel_loss(target)(n, kind, body, prev)

    rewrite(ev, backend, target, also_the_seal)
    assert [(p.seq, p.problem) for p in integrity.verify(ev.db).seals] == [(seq, "signature")]
    assert "の署名が鍵" in run_cli("verify", db=backend.url).stdout


def test_a_seal_signed_again_with_another_key_is_of_an_unknown_key(ev: EventSetup, backend: Backend) -> None:
    seq, _ = seal_it(ev, backend)
    target = ruling_entry(ev, 2)
    forger = Ed25519PrivateKey.generate()
    key = seal.public_hex(forger)

    def signed_again(n: int, kind: str, body: str, prev: str) -> str:
        if n == seq:
            signature = forger.sign(seal.sealed_message(n - 1, prev)).hex()
            return canonical({"position": n - 1, "head": prev, "key": key, "signature": signature})
        return no_duel_loss(target)(n, kind, body, prev)

    rewrite(ev, backend, target, signed_again)
    assert [(p.seq, p.problem) for p in integrity.verify(ev.db).seals] == [(seq, "unknown_key")]
    out = run_cli("verify", "--lang", "en", db=backend.url).stdout
    assert f"signed with key {seal.fingerprint(key)}, which this installation does not know" in out


def test_an_entry_edited_under_the_seal_without_new_hashes_breaks_chain_and_seal(
    ev: EventSetup, backend: Backend
) -> None:
    seq, _ = seal_it(ev, backend)
    target = ruling_entry(ev, 2)
    with by_hand(backend) as sql:  # the body alone: every stored hash as it was
        ((body,),) = sql("SELECT body FROM entries WHERE event_id = ? AND seq = ?", ev.id, target)
        sql(
            "UPDATE entries SET body = ? WHERE event_id = ? AND seq = ?",
            no_duel_loss(target)(target, "", body, ""),
            ev.id,
            target,
        )
    result = integrity.verify(ev.db)
    assert [b.seq for b in result.breaks] == [target]
    assert [(p.seq, p.problem) for p in result.seals] == [(seq, "changed")]


def test_entries_after_the_seal_keep_it_whole_and_the_report_says_they_are_not_sealed(
    ev: EventSetup, backend: Backend
) -> None:
    seq, fingerprint = seal_it(ev, backend)
    reopened = run_cli(
        "event", "reopen", "--event", str(ev.id), "--reason", "遅れて届いた裁定", db=backend.url
    )
    assert reopened.returncode == 0, reopened.stderr
    ev.record("P004", "ingame.slow-play")  # an entry after the seal (a late ruling)
    assert integrity.verify(ev.db).ok
    head = reports.penalty_report(ev.db, ev.id).heads[0]
    assert head.seal is not None and (head.seal.position, head.seal.fingerprint) == (seq - 1, fingerprint)
    html = reports.render(reports.penalty_report(ev.db, ev.id), "html").content.decode("utf-8")
    later = head.position - seq
    assert f"その後の{later}項は封印の外" in html and f"{later} later entries not sealed" in html
    assert "封印の解除" in html and "遅れて届いた裁定" in html


def test_a_seal_key_others_may_read_is_refused(ev: EventSetup, backend: Backend, home: Path) -> None:
    seal_it(ev, backend)
    folder = home if backend.is_postgres else Path(str(backend.path)).parent
    (folder / seal.KEY_FILE).chmod(0o644)
    refused = run_cli("event", "seal", "--event", str(ev.id), "--yes", db=backend.url)
    assert refused.returncode == 1 and f"chmod 600 {folder / seal.KEY_FILE}" in refused.stderr


# -- export and import ---------------------------------------------------------------------------


def test_an_export_carries_its_seal_and_imports_only_where_the_key_is_trusted(
    ev: EventSetup, backend: Backend, tmp_path: Path
) -> None:
    seq, fingerprint = seal_it(ev, backend)
    exported = tmp_path / "sealed.json"
    assert run_cli("export", "--event", str(ev.id), "-o", str(exported), db=backend.url).returncode == 0
    data = json.loads(exported.read_text(encoding="utf-8"))
    (carried,) = data["seals"]
    assert (carried["entry"], carried["fingerprint"]) == (seq, fingerprint)
    assert carried["key"] == seal.public_hex(seal.installation_key(ev.db))

    forged = json.loads(json.dumps(data))  # ruling #2's duel loss gone, every hash made again
    prev = forged["entries"][ruling_entry(ev, 2) - 2]["hash"]
    for item in forged["entries"][ruling_entry(ev, 2) - 1 :]:
        if item["seq"] == ruling_entry(ev, 2):
            item["body"] = json.loads(json.dumps(item["body"]).replace('"duel_loss"', '"caution"'))
        item["prev_hash"] = prev
        item["hash"] = prev = entry_hash(
            seq=item["seq"],
            kind=item["kind"],
            command_id=item["command_id"],
            command_hash=item["command_hash"],
            actor=item["actor"],
            recorded_at=item["recorded_at"],
            refs=canonical(item["refs"]),
            body=canonical(item["body"]),
            prev_hash=prev,
        )
    forged["head"] = prev
    forged_file = tmp_path / "forged.json"
    forged_file.write_text(json.dumps(forged, ensure_ascii=False), encoding="utf-8")

    for other in new_backend("sqlite", tmp_path / "elsewhere"):  # another installation, its own key
        unknown = run_cli("import", str(exported), db=other.url)
        assert unknown.returncode == 1 and f"--trust-key {fingerprint}" in unknown.stderr
        assert "このシステムが知らない鍵" in unknown.stderr and "nothing was imported" in unknown.stderr
        broken = run_cli("import", str(forged_file), "--trust-key", fingerprint, db=other.url)
        assert broken.returncode == 1, broken.stdout
        assert f"the seal at entry {seq}: BROKEN, an entry it covers" in broken.stderr
        imported = run_cli("import", str(exported), "--trust-key", fingerprint, "--json", db=other.url)
        assert imported.returncode == 0, imported.stderr
        checked = run_cli("verify", db=other.url)
        assert checked.returncode == 0 and "封印済み" in checked.stdout, checked.stdout


# -- the head judge's button ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_head_judge_seals_from_the_reports_page_after_confirming(kind: str, tmp_path: Path) -> None:
    with database_url(kind, tmp_path) as url:
        w = build_world(url, players=4, spare=0)
        try:
            hj, page = w.clients["head_judge"], f"/events/{w.event}/reports"
            with w.db.read() as conn:
                head = read_head(conn, w.event)
            shown = hj.get(page)
            assert "台帳と封印" in shown.text and head.short in shown.text and "封印済み" not in shown.text
            assert "台帳と封印" not in w.clients["scorekeeper"].get(page).text
            unticked = hj.post(f"/events/{w.event}/seal", data={"command_id": w.cid("seal")})
            assert unticked.status_code == 422 and "チェックを入れて確認してください" in unticked.text
            refused = w.clients["scorekeeper"].post(
                f"/events/{w.event}/seal", data={"command_id": w.cid("seal"), "confirm": "yes"}
            )
            assert refused.status_code == 403
            assert ledger_size(w) == head.position  # nothing appended
            sealed = hj.post(
                f"/events/{w.event}/seal",
                data={"command_id": w.cid("seal"), "confirm": "yes"},
                follow_redirects=True,
            )
            assert sealed.status_code == 200
            assert "封印しました" in sealed.text and f"第{head.position}項で封印済み" in sealed.text
            assert integrity.verify(w.db, w.event).sealed == {w.event: head.position}
        finally:
            w.close()
