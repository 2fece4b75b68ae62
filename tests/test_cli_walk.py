"""The CLI's human output is Japanese first (issue 31): a player's history and the deadlines
say their headings, states and moments in Japanese (English under each heading), never a bare
``confirmed``, ``OVERDUE`` or ``end_of_match``; ``--json`` keeps the values as they were."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import EventSetup, run_cli
from shinpan.services import rounds


def test_history_and_deadlines_are_told_in_japanese_first(ev: EventSetup, db_url: str) -> None:
    e = str(ev.id)
    rounds.start_round(ev.db, ev.id)
    ev.record("P001", "pregame.tardiness")  # deadlines: minutes, and the end of the match
    ev.record("P001", "ingame.slow-play")
    shown = run_cli("history", "--event", e, "--player", "P001", db=db_url)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    for japanese in ("裁定", "回戦", "違反", "罰則", "状態", "ジャッジ", "参加中"):
        assert japanese in out, japanese
    for english in ("confirmed", "recorded", "pending", "active"):
        assert english not in out, english
    due = run_cli("deadlines", "--event", e, db=db_url)
    assert due.returncode == 0, due.stderr
    for japanese in ("裁定", "プレイヤー", "期限", "追加措置", "状態", "未了"):
        assert japanese in due.stdout, japanese
    for english in ("OVERDUE", "end_of_match", " left", "pending"):
        assert english not in due.stdout, english
    raw = json.loads(run_cli("deadlines", "--event", e, "--json", db=db_url).stdout)
    assert {d["due_kind"] for d in raw} >= {"end_of_match"} and {d["state"] for d in raw} == {"pending"}


def test_a_deadline_is_named_in_words_beside_its_glyph(ev: EventSetup, db_url: str) -> None:
    out = run_cli("record", "pregame.tardiness", "--event", str(ev.id), "--player", "P005", db=db_url)
    assert out.returncode == 1 and "--yes" in out.stderr  # the preview, not saved without --yes
    lines = [line for line in out.stdout.splitlines() if "⏱" in line]
    assert lines and all("⏱ 期限 " in line for line in lines), lines


def test_serve_on_a_busy_port_says_so_before_any_banner(db_url: str) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_cli("serve", "--host", "127.0.0.1", "--port", str(port), db=db_url)
    assert out.returncode == 1
    assert f"ポート {port} はほかのプログラムが使っています" in out.stderr
    assert "起動します" not in out.stdout and "shinpan on" not in out.stdout and "Errno" not in out.stderr


def test_rules_piped_at_80_columns_cut_no_id_and_no_name() -> None:
    import os
    import subprocess

    from conftest import SHINPAN
    from shinpan.files.guidelines import rulebook_for, shipped_guideline

    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    out = subprocess.run(
        [str(SHINPAN), "rules"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, env=env
    )
    assert out.returncode == 0, out.stderr
    assert "…" not in out.stdout
    held = shipped_guideline()
    ids = {inf.id for inf in rulebook_for(held.id, held.version).guideline.infractions}
    assert all(i in out.stdout for i in ids), sorted(i for i in ids if i not in out.stdout)


def test_the_playoffs_start_says_the_swiss_rounds_played_against_the_recommendation(
    db_url: str, tmp_path: Path
) -> None:
    from test_playoff_cli import Event

    ev = Event(db_url, tmp_path, 8)
    ev.swiss(2)  # 8 players: 3 rounds recommended
    out = ev.cli("playoff", "start", "--event", ev.id, "--size", "4")
    assert out.returncode == 0, out.stderr
    assert (
        "スイスラウンドは2回戦まで行いました(推奨は3回戦) / Swiss rounds played: 2 of 3 recommended"
        in out.stdout
    )
