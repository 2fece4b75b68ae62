"""What the head judge reads at the server's terminal is told as the desk tells it: every
line a command prints is Japanese first, then the English after " / ", on one line, with
the ids and numbers in the same order (shinpan.cli.output.both and tell). Each family of
commands shows one of its lines whole here; the English after " / " is what it printed
before, so scripts that look for it still find it. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from conftest import EventSetup, run_cli
from test_japanese_screens import problems


def judged(lines: list[str]) -> list[str]:
    """``lines``, once the Japanese of each line told in both languages (before " / ") is
    held to the screens' check: no D-numbers, codes or ids, no half-width commas, as a judge
    would say it. (A ruling's explanation, printed in the language --lang names and wrapped
    to the terminal, is the guideline's own text.)"""
    for line in lines:
        if " / " in line:
            assert problems(line.split(" / ", 1)[0]) == [], line
    return lines


def said(result: subprocess.CompletedProcess[str], code: int = 0) -> list[str]:
    """The lines a command printed on standard output, after it exited with ``code``."""
    assert result.returncode == code, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr
    return judged(result.stdout.splitlines())


def error(result: subprocess.CompletedProcess[str], code: int) -> str:
    """The one line of a refusal, after ``error: ``."""
    assert result.returncode == code, result.stdout + result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: "), line
    return judged([line.removeprefix("error: ")])[0]


def test_setting_up_an_event_is_told_in_japanese_first(db_url: str, tmp_path: Path) -> None:
    created = said(
        run_cli(
            "event",
            "create",
            "--name",
            "春の大会",
            "--head-judge",
            "山田",
            "--head-judge-level",
            "2",
            db=db_url,
        )
    )
    event, claim, how = created
    assert event == "1"  # the id alone, for scripts
    code = claim.rsplit(" ", 1)[-1]
    assert claim == (
        f"山田の席の受け取りコード(表示はこの一度だけ、7日間有効): {code}"
        f" / claim code for 山田's seat (shown once; valid 7 days): {code}"
    )
    assert how.startswith(f"  ジャッジはサーバーの /join/{code} を開いてPINを決めるか、")
    assert how.endswith(
        f" / the judge opens /join/{code} on the server and sets a PIN, or signs in first to use their account"
    )

    assert said(run_cli("event", "settings", "--event", "1", db=db_url)) == [
        "試合形式 マッチ戦(2本先取)、時間切れのマッチ: 取ったデュエル数で決める、"
        "マッチポイントの次のタイブレーク: OMW・GW・OGW"
        " / format bo3, a match at time: duels, tiebreakers after points: omw, gw, ogw"
    ]
    added = said(
        run_cli("judge", "add", "--event", "1", "--name", "佐藤", "--role", "scorekeeper", db=db_url)
    )
    assert added[0] == "佐藤をスコアキーパーとして加えました / added 佐藤 (scorekeeper)"

    players = tmp_path / "players.csv"
    players.write_text("id,name,reading\n" + "".join(f"P{n},選手{n},せんしゅ\n" for n in range(1, 5)))
    assert said(run_cli("players", "import", str(players), "--event", "1", db=db_url)) == [
        "4人の選手を取り込みました / imported 4 players"
    ]
    pairings = tmp_path / "pairings.csv"
    pairings.write_text("table,a,b\n1,P1,P2\n2,P3,P4\n")
    assert said(run_cli("pairings", "import", str(pairings), "--event", "1", "--round", "1", db=db_url)) == [
        "第1回戦: 2マッチ / round 1: 2 matches"
    ]
    assert said(run_cli("event", "publish", "--event", "1", "--off", db=db_url)) == [
        "公開していません: プレイヤー向けページには何も表示されません / not published: the players' pages answer nothing"
    ]
    sealed = said(run_cli("event", "seal", "--event", "1", "--yes", db=db_url))
    assert re.fullmatch(r"封印しました: 大会 1、第(\d+)項 / sealed: event 1, entry \1", sealed[0]), sealed


def test_a_round_on_its_clock_is_told_in_japanese_first(
    new_event: Callable[..., EventSetup], db_url: str
) -> None:
    e = str(new_event(players=4, pair=False).id)
    paired = said(run_cli("round", "pair", "--event", e, "--seed", "7", db=db_url))
    assert re.fullmatch(
        r"第1回戦の組み合わせを作りました\(開始前。シード 7、推奨ラウンド数 (\d+)\)"
        r" / round 1 paired, not started \(seed 7; \1 rounds recommended\)",
        paired[0],
    ), paired[0]
    assert "不戦勝 / bye" not in "".join(paired)  # four players: no bye
    assert said(run_cli("round", "clock", "--event", e, db=db_url))[0] == (
        "第1回戦: 組み合わせ済み(開始前) / round 1: paired, not started"
    )
    assert error(run_cli("round", "edit", "--event", e, "1", "--reason", "入れ替え", db=db_url), 2) == (
        "'1': 卓は 卓番号=A,B と書いてください(不戦勝は 卓番号=A) / '1': write a table as TABLE=A,B (or TABLE=A for a bye)"
    )
    (started,) = said(run_cli("round", "start", "--event", e, db=db_url))
    assert re.fullmatch(
        r"第1回戦を開始しました: 50分、終了 (\d\d:\d\d) / round 1 started: 50 min, time ends \1", started
    ), started
    assert said(
        run_cli(
            "round",
            "time",
            "--event",
            e,
            "--table",
            "1",
            "--minutes",
            "3",
            "--reason",
            "ジャッジコール",
            db=db_url,
        )
    ) == ["1番卓: 3分延長しました / table 1: +3 min"]
    assert said(
        run_cli("result", "--event", e, "--round", "1", "--table", "1", "--match", "a", db=db_url)
    ) == ["記録しました: 第1回戦、1番卓: A席の勝ち / recorded: round 1, table 1: a"]
    # A round ends with every table resolved: table 2, still playing, is reported or given its outcome.
    assert error(run_cli("round", "end", "--event", e, db=db_url), 1).startswith(
        "第1回戦には結果のない対戦があります(テーブル2)"
    )
    ended, resolved = said(run_cli("round", "end", "--event", e, "--open-table", "2=引き分け", db=db_url))
    assert ended == "第1回戦を終了しました / round 1 ended"
    assert (
        resolved == "  2番卓: 引き分け(ラウンド終了時に決定) / table 2: a draw (decided as the round ended)"
    )
    assert said(run_cli("standings", "--event", e, db=db_url))[0].strip() == "現在の順位 / the standings now"
    assert (
        said(run_cli("standings", "--event", e, "--round", "1", db=db_url))[0].strip()
        == "第1回戦終了時点 / after round 1"
    )


def test_a_result_and_its_correction_are_told_in_japanese_first(ev: EventSetup, db_url: str) -> None:
    e = str(ev.id)
    ok = run_cli("round", "start", "--event", e, db=db_url)
    assert ok.returncode == 0, ok.stderr
    assert error(
        run_cli("result", "--event", e, "--round", "1", "--table", "1", "--match", "c", db=db_url), 2
    ) == ("--match は a、b、draw のどれかです / --match is a, b or draw")
    said(run_cli("result", "--event", e, "--round", "1", "--table", "1", "--score", "2-1", db=db_url))
    (corrected,) = said(
        run_cli(
            "result", "--event", e, "--round", "1", "--table", "1", "--match", "b",
            "--replaces", "2-1", "--reason", "記入ミス", db=db_url,
        )
    )  # fmt: skip
    assert re.fullmatch(
        r"訂正しました\(第(\d+)項の記録を置き換え\): 第1回戦、1番卓: B席の勝ち"
        r" / corrected \(replaces entry \1\): round 1, table 1: b",
        corrected,
    ), corrected


def test_the_judges_rulings_are_told_in_japanese_first(ev: EventSetup, db_url: str) -> None:
    e = str(ev.id)
    saved = said(
        run_cli("record", "ingame.extra-cards-drawn", "--event", e, "--player", "P003", "--yes", db=db_url)
    )
    assert saved[0] == "記録しました: 裁定 #1 / saved: ruling #1"
    said(run_cli("record", "ingame.slow-play", "--event", e, "--player", "P001", "--yes", db=db_url))
    assert said(run_cli("confirm", "2", "--event", e, db=db_url)) == ["裁定 2 を承認しました / confirmed 2"]
    (deviated,) = said(run_cli("deviate", "2", "--event", e, "--reason", "初めての大会", db=db_url))
    assert deviated.startswith("裁定 2: ") and deviated.endswith(" / ruling 2: no penalty"), deviated
    assert said(run_cli("void", "1", "--event", e, "--reason", "別の卓", db=db_url)) == [
        "裁定 1 を取り消しました / voided 1"
    ]
    said(run_cli("record", "pregame.tardiness", "--event", e, "--player", "P005", "--yes", db=db_url))
    assert said(run_cli("deadlines", "--event", e, "done", "3", db=db_url)) == [
        "裁定 3 の追加措置を済みにしました / done: ruling 3"
    ]
    assert error(run_cli("deadlines", "--event", e, "later", "3", db=db_url), 1) == (
        "使い方: shinpan deadlines --event ID"
        " [done RULING [POSITION] | arrived RULING [POSITION] | missed RULING [POSITION]]"
        " / usage: shinpan deadlines --event ID"
        " [done RULING [POSITION] | arrived RULING [POSITION] | missed RULING [POSITION]]"
    )
    assert error(run_cli("rules", "show", "ingame.nothing"), 1) == (
        "'ingame.nothing' という違反はありません。`shinpan rules nothing` で探してください"
        " / unknown infraction 'ingame.nothing'; try `shinpan rules nothing`"
    )


def test_the_ledger_and_its_copies_are_told_in_japanese_first(
    ev: EventSetup, db_url: str, tmp_path: Path
) -> None:
    e = str(ev.id)
    verified = said(run_cli("verify", db=db_url))
    assert re.fullmatch(
        r"正常: 大会 1件、記録 (\d+)項、すべての台帳の連鎖が保たれています / ok: 1 event\(s\), \1 entries, every chain holds",
        verified[0],
    ), verified[0]
    assert verified[1].startswith(f"  大会 {e} の台帳ヘッド / event {e} head ")
    file = tmp_path / "event.json"
    (wrote,) = said(run_cli("export", "--event", e, "-o", str(file), db=db_url))
    entries = len(json.loads(file.read_text("utf-8"))["entries"])
    assert wrote == f"{file} に書き出しました(記録 {entries}項) / wrote {file} ({entries} entries)"
    elsewhere = str(tmp_path / "elsewhere.sqlite3")
    imported = said(run_cli("import", str(file), "--map-account", "HJ=nobody", db=elsewhere), 1)
    assert imported == []  # no account named nobody there: refused, nothing printed
    imported = said(run_cli("import", str(file), db=elsewhere))
    assert imported[0] == "大会 1 として取り込みました / imported as event 1"
    assert imported[1].startswith("HJの席の受け取りコード(表示はこの一度だけ、7日間有効): ")
    assert said(run_cli("backup", str(tmp_path / "copy.sqlite3"), db=elsewhere)) == [
        f"{tmp_path / 'copy.sqlite3'} にバックアップしました / backed up to {tmp_path / 'copy.sqlite3'}"
    ]
    assert error(run_cli("import", str(file), "--map-account", "HJ", db=elsewhere), 2) == (
        "--map-account は 席=アカウント(ファイルの席の名前=ここのアカウント)と書きます。'HJ' は使えません"
        " / --map-account takes SEAT=ACCOUNT (the seat's name in the file = an account here), not 'HJ'"
    )


def test_reports_accounts_and_guidelines_are_told_in_japanese_first(
    ev: EventSetup, db_url: str, tmp_path: Path
) -> None:
    file = tmp_path / "penalties.csv"
    written = run_cli("report", "penalties", "--event", str(ev.id), "-o", str(file), db=db_url)
    assert written.returncode == 0, written.stderr
    size = f"{file.stat().st_size:,}"
    assert written.stderr == f"{file} に書き出しました({size} バイト) / wrote {file} ({size} bytes)\n"
    assert error(run_cli("report", "player", db=db_url), 1) == (
        "誰の履歴か指定してください: --event ID --player N、または --name 名前 [--reading かな]"
        " / say who: --event ID --player N, or --name NAME [--reading KANA]"
    )
    assert said(run_cli("user", "add", "--name", "高橋", "--password", "secret-words", db=db_url)) == [
        "アカウント 高橋 を作りました / user 高橋 created"
    ]
    shipped = (
        Path(__file__).resolve().parents[1] / "src" / "shinpan" / "guideline" / "data" / "rel3-ja-1998.yaml"
    )
    (checked,) = said(run_cli("guideline", "check", str(shipped)))
    assert re.fullmatch(
        r"問題ありません: (\S+) (\S+)、違反 (\d+)件、一般規定 (\d+)件"
        r" / ok: \1 \2, \3 infractions, \4 general rules",
        checked,
    ), checked


def test_serve_tells_where_it_listens_in_japanese_first(tmp_path: Path) -> None:
    """What ``shinpan serve`` says before it listens; a wrong --public-url stops it there."""
    stopped = run_cli("serve", "--public-url", "ftp://somewhere", db=str(tmp_path / "venue.sqlite3"))
    first = said(stopped, 2)[0]
    assert first == (
        "shinpan を起動します: http://127.0.0.1:8000/"
        f" / shinpan on http://127.0.0.1:8000/  (database: {first.split('(database: ')[1]}"
    )
    assert error(stopped, 2) == (
        "--public-url は http://192.168.1.10:8000/ のように書いてください('ftp://somewhere' は使えません)"
        " / --public-url must be like http://192.168.1.10:8000/ (got 'ftp://somewhere')"
    )


GROUPS = ("event", "judge", "players", "pairings", "round", "playoff", "report", "call", "decklist",
          "deckcheck", "guideline", "db", "user")  # fmt: skip
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_help_says_the_app_and_each_group_japanese_first() -> None:
    """--help where Typer lets it be: the app's and each group's text is 「日本語 / English」."""
    whole = run_cli("--help")
    assert whole.returncode == 0, whole.stderr
    for group in GROUPS:
        line = next(ln for ln in whole.stdout.splitlines() if ln.strip().startswith(f"{group} "))
        said = line.strip()[len(group) :].strip()
        assert JAPANESE.match(said) and " / " in said, line
    own = run_cli("round", "--help")
    text = " ".join(own.stdout.split())
    assert "ラウンド: 組み合わせ" in text and text.index("ラウンド") < text.index("Rounds:")
