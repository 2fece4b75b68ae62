"""``shinpan decklist …`` and ``shinpan deckcheck …`` (T13) with ``--db URL`` on SQLite and
PostgreSQL: the JSON shapes the issue gives, bad input refused with a clear message and
nothing changed, and ``shinpan record … --deck-check N``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import FLOOR_JUDGE, EventSetup, run_cli

MAIN = "\n".join(["4 稲妻", *[f"1 Card {i}" for i in range(56)]])
SIDE = "\n".join(["3 Duress", *[f"1 Side {i}" for i in range(12)]])


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(ok(result))


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0, result.stdout + result.stderr
    message = result.stderr.strip()
    assert message.startswith("error: "), message
    for word in words:
        assert word in message, message


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def text_list(prefix: str = "") -> str:
    main = MAIN.replace("Card", f"{prefix}Card")
    return f"メイン\n{main}\n\nサイド\n{SIDE}\n"


def dek_list() -> str:
    cards = "".join(
        f'  <Cards CatID="{i}" Quantity="1" Sideboard="false" Name="Dek {i}" />\n' for i in range(56)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n'
        '  <Cards CatID="100" Quantity="4" Sideboard="false" Name="Lightning Bolt" />\n'
        f"{cards}"
        '  <Cards CatID="101" Quantity="3" Sideboard="true" Name="Duress" />\n</Deck>\n'
    )


def arena_list() -> str:
    main = "\n".join(f"1 Arena {i} (M10) {i + 1}" for i in range(56))
    return f"Deck\n4 Lightning Bolt (M10) 146\n{main}\n\nSideboard\n3 Duress (M10) 96\n"


def test_decklists_on_the_command_line(
    new_event: Callable[..., EventSetup], db_url: str, tmp_path: Path
) -> None:
    ev = new_event(players=4)
    e = str(ev.id)
    bad_banned = write(tmp_path / "bad.txt", "0 Black Lotus\n2 Foo\n")
    refused(
        run_cli("decklist", "rules", "--event", e, "--banned", str(bad_banned), db=db_url),
        "2行目",
        "0 カード名",
    )
    banned = write(tmp_path / "banned.txt", "0 Black Lotus\n1 Time Walk\n")
    rules = as_json(
        run_cli(
            "decklist", "rules", "--event", e, "--banned", str(banned), "--copies", "4", "--json", db=db_url
        )
    )
    assert rules["banned"] == ["Black Lotus"] and rules["restricted"] == ["Time Walk"]
    assert rules["sections"] == "main:60-,side:0-15" and rules["lock"] == "round1"

    # P001: plain text; P002: an MTGO .dek; P003: an Arena export with a banned card (illegal)
    one = as_json(
        run_cli(
            "decklist",
            "submit",
            "--event",
            e,
            "--player",
            "P001",
            str(write(tmp_path / "a.txt", text_list())),
            "--json",
            db=db_url,
        )
    )
    assert list(one) == ["player", "entry", "sections", "problems", "locked"]
    assert one["player"] == "P001" and one["sections"] == {"main": 60, "side": 15} and one["problems"] == []
    assert one["locked"] is False
    ok(
        run_cli(
            "decklist",
            "submit",
            "--event",
            e,
            "--player",
            "P002",
            str(write(tmp_path / "b.dek", dek_list())),
            db=db_url,
        )
    )
    illegal = arena_list().replace("1 Arena 0 (M10) 1", "1 Black Lotus (LEA) 232")
    three = as_json(
        run_cli(
            "decklist",
            "submit",
            "--event",
            e,
            "--player",
            "P003",
            str(write(tmp_path / "c.txt", illegal)),
            "--json",
            db=db_url,
        )
    )
    assert [(p["line"], p["message"]) for p in three["problems"]] == [
        (3, "「Black Lotus」は禁止カードです。")
    ]

    status = as_json(run_cli("decklist", "status", "--event", e, "--json", db=db_url))
    assert [(p["player"], p["state"]) for p in status["players"]] == [
        ("P001", "registered"),
        ("P002", "registered"),
        ("P003", "illegal"),
        ("P004", "missing"),
    ]
    # a CSV batch (Shift_JIS) fixes P003 and registers P004
    rows = ["選手番号,区分,枚数,カード名"]
    for p in ("P003", "P004"):
        rows += [
            f"{p},メイン,4,稲妻",
            *[f"{p},メイン,1,{p} Card {i}" for i in range(56)],
            f"{p},サイド,3,Duress",
        ]
    batch = as_json(
        run_cli(
            "decklist",
            "import",
            "--event",
            e,
            str(write(tmp_path / "lists.csv", "\n".join(rows), "cp932")),
            "--json",
            db=db_url,
        )
    )
    assert batch["count"] == 2 and all(not p["problems"] for p in batch["players"])
    shown = as_json(run_cli("decklist", "show", "--event", e, "--player", "P003", "--json", db=db_url))
    assert shown["versions"] == 2 and shown["sections"]["main"][0] == {"count": 4, "name": "稲妻"}
    assert list(shown)[:4] == ["player", "sections", "problems", "versions"]

    # bad input: an unknown player, no known format, counts of 0 and 10,000
    refused(
        run_cli("decklist", "submit", "--event", e, "--player", "P999", str(tmp_path / "a.txt"), db=db_url),
        "P999",
    )
    refused(
        run_cli(
            "decklist",
            "submit",
            "--event",
            e,
            "--player",
            "P001",
            str(write(tmp_path / "x.bin", "hello\nworld\n")),
            db=db_url,
        ),
        "形式",
    )
    refused(
        run_cli(
            "decklist",
            "submit",
            "--event",
            e,
            "--player",
            "P001",
            str(write(tmp_path / "z.txt", "0 稲妻\n10000 山\n")),
            db=db_url,
        ),
        "1行目",
        "2行目",
        "10000",
    )
    assert (
        as_json(run_cli("decklist", "show", "--event", e, "--player", "P001", "--json", db=db_url))[
            "versions"
        ]
        == 1
    )

    # the lock at round 1: a submission after it is refused, the head judge corrects with a reason
    ok(run_cli("round", "start", "--event", e, db=db_url))
    refused(
        run_cli("decklist", "submit", "--event", e, "--player", "P001", str(tmp_path / "a.txt"), db=db_url),
        "確定",
    )
    refused(run_cli("decklist", "lock", "--event", e, db=db_url))
    fixed = write(tmp_path / "fixed.txt", text_list("Fixed "))
    refused(
        run_cli(
            "decklist",
            "correct",
            "--event",
            e,
            "--player",
            "P001",
            str(fixed),
            "--reason",
            "記入ミス",
            "--judge",
            FLOOR_JUDGE,
            db=db_url,
        )
    )
    ok(
        run_cli(
            "decklist",
            "correct",
            "--event",
            e,
            "--player",
            "P001",
            str(fixed),
            "--reason",
            "記入ミス",
            db=db_url,
        )
    )
    assert (
        as_json(run_cli("decklist", "show", "--event", e, "--player", "P001", "--json", db=db_url))[
            "versions"
        ]
        == 2
    )
    locked = as_json(run_cli("decklist", "status", "--event", e, "--json", db=db_url))
    assert {p["state"] for p in locked["players"]} == {"locked"}


def test_a_deck_check_on_the_command_line(
    new_event: Callable[..., EventSetup], db_url: str, tmp_path: Path
) -> None:
    ev = new_event(players=4)
    e = str(ev.id)
    for p in ev.players:
        ok(
            run_cli(
                "decklist",
                "submit",
                "--event",
                e,
                "--player",
                p,
                str(write(tmp_path / f"{p}.txt", text_list(p))),
                db=db_url,
            )
        )
    ok(run_cli("round", "start", "--event", e, db=db_url))
    picked = as_json(
        run_cli(
            "deckcheck",
            "pick",
            "--event",
            e,
            "--round",
            "1",
            "--tables",
            "2",
            "--seed",
            "5",
            "--json",
            db=db_url,
        )
    )
    assert sorted(picked["tables"]) == [1, 2]

    refused(run_cli("deckcheck", "start", "--event", e, "--round", "1", "--table", "9", db=db_url), "9")
    started = as_json(
        run_cli(
            "deckcheck",
            "start",
            "--event",
            e,
            "--round",
            "1",
            "--table",
            "1",
            "--json",
            "--judge",
            FLOOR_JUDGE,
            db=db_url,
        )
    )
    assert started["players"] == ["P001", "P002"]
    refused(run_cli("deckcheck", "start", "--event", e, "--round", "1", "--table", "1", db=db_url), "1")

    # P001's deck: one 稲妻 short, and a card of P002's in it
    found = text_list("P001").replace("4 稲妻", "3 稲妻\n1 P002Card 7")
    counted = as_json(
        run_cli(
            "deckcheck",
            "count",
            "--event",
            e,
            "--round",
            "1",
            "--table",
            "1",
            "--player",
            "P001",
            str(write(tmp_path / "found.txt", found)),
            "--json",
            db=db_url,
        )
    )
    assert counted["missing"] == [{"section": "main", "name": "稲妻", "count": 1}]
    ended = as_json(
        run_cli(
            "deckcheck", "end", "--event", e, "--round", "1", "--table", "1", "--extend", "--json", db=db_url
        )
    )
    assert set(ended) >= {"players", "minutes"}
    p1, p2 = ended["players"]
    assert p1["player"] == "P001" and p1["proposed"] == "deck.deck-decklist-mismatch"
    assert p1["missing"] == [{"section": "main", "name": "稲妻", "count": 1}]
    assert p1["foreign"] == [{"section": "main", "name": "P002Card 7", "count": 1, "from": "P002"}]
    assert p1["deck_legal"] and p1["list_legal"] and not p1["matches"]
    assert p2["proposed"] is None and p2["matches"]
    check = str(ended["check"])

    saved = as_json(
        run_cli(
            "record",
            "deck.deck-decklist-mismatch",
            "--event",
            e,
            "--player",
            "P001",
            "--deck-check",
            check,
            "--round",
            "1",
            "--table",
            "1",
            "--yes",
            "--json",
            db=db_url,
        )
    )
    assert saved["rulings"][0]["penalties"] == ["warning1", "duel_loss"]
    mixed = as_json(
        run_cli(
            "record",
            "deck.lost-or-mixed-cards",
            "--event",
            e,
            "--player",
            "P002",
            "--fact",
            "mixed_into=P001",
            "--deck-check",
            check,
            "--yes",
            "--json",
            db=db_url,
        )
    )
    assert {r["player"] for r in mixed["rulings"]} == {"P001", "P002"}
    refused(
        run_cli(
            "record",
            "deck.deck-decklist-mismatch",
            "--event",
            e,
            "--player",
            "P001",
            "--deck-check",
            "9999",
            "--yes",
            db=db_url,
        )
    )
    ok(
        run_cli(
            "deckcheck",
            "corrected",
            "--event",
            e,
            "--round",
            "1",
            "--table",
            "1",
            "--player",
            "P001",
            db=db_url,
        )
    )

    # a check where someone else wrote P003's list: decklist recording, the recorder too
    ok(run_cli("deckcheck", "start", "--event", e, "--round", "1", "--table", "2", db=db_url))
    wrong = as_json(
        run_cli(
            "deckcheck",
            "end",
            "--event",
            e,
            "--round",
            "1",
            "--table",
            "2",
            "--recorded-by",
            "P003=P004",
            "--json",
            db=db_url,
        )
    )
    assert wrong["players"][0]["proposals"] == [
        {"infraction": "deck.decklist-recording", "player": "P003", "facts": {"recorded_by": "P004"}}
    ]
