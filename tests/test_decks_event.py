"""A whole event with decklists required, through the command line, on SQLite and PostgreSQL
(T13, D8): sixteen players register their lists (plain text, an MTGO ``.dek``, an Arena
export, a CSV batch from the registration form); two lists are illegal, each problem named by
line, and fixed before the lock; the lock comes with round 1. In round 2 two tables are
checked: one clean, its table given the check's minutes; at the other a deck differs from its
list and holds the opponent's card: デッキとデッキリストが異なる (警告1 + デュエル敗北), its remedy
closed when the judge marks the deck corrected, and 紛失・混入 for both players. In round 3
the same player's deck differs again and the penalty goes up. The head judge corrects a list
with a reason. The deck checks report shows every check; a list's PDF is Japanese only.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EventSetup, run_cli

KANA = "アイウエオカキクケコサシスセソタ"  # one per player: their cards are theirs alone


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def as_json(result: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(ok(result))


def cards(n: int) -> list[tuple[int, str]]:
    """Player n's main deck: four 稲妻 and 56 cards of their own, named in Japanese."""
    return [(4, "稲妻"), *[(1, f"{KANA[n - 1]}の札{i}") for i in range(56)]]


def text_list(n: int) -> str:
    main = "\n".join(f"{c} {name}" for c, name in cards(n))
    return f"メイン\n{main}\n\nサイド\n3 強迫\n"


def dek_list(n: int) -> str:
    rows = "".join(
        f'  <Cards CatID="{i}" Quantity="{c}" Sideboard="false" Name="{name}" />\n'
        for i, (c, name) in enumerate(cards(n))
    )
    side = '  <Cards CatID="999" Quantity="3" Sideboard="true" Name="強迫" />\n'
    return f'<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n{rows}{side}</Deck>\n'


def arena_list(n: int) -> str:
    main = "\n".join(f"{c} {name} (M10) {i + 1}" for i, (c, name) in enumerate(cards(n)))
    return f"Deck\n{main}\n\nSideboard\n3 強迫 (M10) 96\n"


def write(path: Path, text: str, encoding: str = "utf-8") -> str:
    path.write_bytes(text.encode(encoding))
    return str(path)


def test_a_whole_event_with_decklists_required(
    new_event: Callable[..., EventSetup], db_url: str, tmp_path: Path
) -> None:
    ev = new_event(players=16)
    e = str(ev.id)

    def cli(*args: str) -> Any:
        return as_json(run_cli(*args, "--json", db=db_url))

    def player(n: int) -> str:
        return f"P{n:03d}"

    rules = cli("decklist", "rules", "--event", e, "--required", "--copies", "4")
    assert rules["required"] is True and rules["lock"] == "round1"

    # -- registration: text, .dek, Arena, a CSV batch; two lists illegal, named by line ----------
    def submit(n: int, text: str, name: str) -> Any:
        return cli("decklist", "submit", "--event", e, "--player", player(n), write(tmp_path / name, text))

    for n in range(1, 5):
        text = text_list(n).replace("4 稲妻", "5 稲妻") if n == 3 else text_list(n)
        done = submit(n, text, f"{n}.txt")
        assert done["sections"] == {"main": (61 if n == 3 else 60), "side": 3}
    for n in range(5, 9):
        assert submit(n, dek_list(n), f"{n}.dek")["problems"] == []
    for n in range(9, 13):
        text = arena_list(n).replace("4 稲妻 (M10) 1", "6 稲妻 (M10) 1") if n == 10 else arena_list(n)
        assert submit(n, text, f"{n}.arena.txt")["sections"]["main"] == (62 if n == 10 else 60)
    rows = ["選手番号,区分,枚数,カード名"]
    for n in range(13, 17):
        rows += [f"{player(n)},メイン,{c},{name}" for c, name in cards(n)] + [f"{player(n)},サイド,3,強迫"]
    batch = cli("decklist", "import", "--event", e, write(tmp_path / "form.csv", "\n".join(rows), "cp932"))
    assert batch["count"] == 4 and all(not p["problems"] for p in batch["players"])

    status = {p["player"]: p["state"] for p in cli("decklist", "status", "--event", e)["players"]}
    assert status == {player(n): ("illegal" if n in (3, 10) else "registered") for n in range(1, 17)}
    three = cli("decklist", "show", "--event", e, "--player", player(3))
    assert [p["line"] for p in three["problems"]] == [2]  # 5 稲妻, on the list's line 2
    assert "稲妻" in three["problems"][0]["message"]
    ten = cli("decklist", "show", "--event", e, "--player", player(10))
    assert [p["line"] for p in ten["problems"]] == [2] and "稲妻" in ten["problems"][0]["message"]

    assert submit(3, text_list(3), "3-fixed.txt")["problems"] == []
    assert submit(10, arena_list(10), "10-fixed.txt")["problems"] == []
    status = {p["player"]: p["state"] for p in cli("decklist", "status", "--event", e)["players"]}
    assert set(status.values()) == {"registered"}

    # -- round 1 starts: the lists are locked ----------------------------------------------------
    ok(run_cli("round", "start", "--event", e, db=db_url))
    assert {p["state"] for p in cli("decklist", "status", "--event", e)["players"]} == {"locked"}
    late = run_cli(
        "decklist",
        "submit",
        "--event",
        e,
        "--player",
        player(1),
        write(tmp_path / "late.txt", text_list(1)),
        db=db_url,
    )
    assert late.returncode != 0 and "確定" in late.stderr

    def next_round(number: int) -> list[dict[str, Any]]:
        for t in range(1, 9):
            done = run_cli(
                "result",
                "--event",
                e,
                "--round",
                str(number - 1),
                "--table",
                str(t),
                "--match",
                "a",
                db=db_url,
            )
            assert done.returncode == 0 or "すでに結果" in done.stderr, done.stderr  # a duel loss
        ok(run_cli("round", "end", "--event", e, db=db_url))
        made = cli("round", "pair", "--event", e, "--seed", "7")
        ok(run_cli("round", "start", "--event", e, db=db_url))
        return list(made["pairings"])

    # -- round 2: two tables checked -------------------------------------------------------------
    pairings = next_round(2)
    seated = {p["table"]: (p["a"], p["b"]) for p in pairings}
    clean_a, clean_b = seated[1]
    x, y = seated[2]  # x's deck differs from the list and holds a card of y's
    nx, ny = int(x[1:]), int(y[1:])

    started = cli("deckcheck", "start", "--event", e, "--round", "2", "--table", "1")
    assert sorted(started["players"]) == sorted([clean_a, clean_b])
    clean = cli("deckcheck", "end", "--event", e, "--round", "2", "--table", "1", "--extend")
    assert all(p["proposed"] is None and p["matches"] for p in clean["players"])
    clock = cli("round", "clock", "--event", e, "--round", "2")
    given = [g["minutes"] for t in clock["tables"] if t["table"] == 1 for g in t["time_given"]]
    assert given == [clean["minutes"]] and clean["minutes"] >= 1

    cli("deckcheck", "start", "--event", e, "--round", "2", "--table", "2")
    own = f"{KANA[nx - 1]}の札0"
    theirs = f"{KANA[ny - 1]}の札0"
    found = text_list(nx).replace(f"1 {own}\n", f"1 {theirs}\n")
    counted = cli(
        "deckcheck",
        "count",
        "--event",
        e,
        "--round",
        "2",
        "--table",
        "2",
        "--player",
        x,
        write(tmp_path / "found.txt", found),
    )
    assert counted["missing"] == [{"section": "main", "name": own, "count": 1}]
    ended = cli("deckcheck", "end", "--event", e, "--round", "2", "--table", "2")
    fx = next(p for p in ended["players"] if p["player"] == x)
    assert fx["proposed"] == "deck.deck-decklist-mismatch" and not fx["matches"]
    assert fx["foreign"] == [{"section": "main", "name": theirs, "count": 1, "from": y}]
    check = str(ended["check"])

    def record(infraction: str, who: str, *more: str) -> Any:
        return cli("record", infraction, "--event", e, "--player", who, "--deck-check", check, *more, "--yes")

    mismatch = record("deck.deck-decklist-mismatch", x)
    assert [r["penalties"] for r in mismatch["rulings"]] == [["warning1", "duel_loss"]]
    mixed = record("deck.lost-or-mixed-cards", y, "--fact", f"mixed_into={x}")
    assert {r["player"] for r in mixed["rulings"]} == {x, y}  # D8: the owner and the one holding it

    # the remedy (the deck corrected to match the list) is done when the judge says so
    number = mismatch["rulings"][0]["number"]
    done = cli("deckcheck", "corrected", "--event", e, "--round", "2", "--table", "2", "--player", x)
    assert done["rulings"] == [number]
    assert not [d for d in cli("deadlines", "--event", e) if d["ruling"] == number]

    # -- round 3: the same player's deck differs again: the penalty goes up -----------------------
    pairings = next_round(3)
    table = next(p["table"] for p in pairings if x in (p["a"], p["b"]))
    cli("deckcheck", "start", "--event", e, "--round", "3", "--table", str(table))
    short = text_list(nx).replace(f"1 {KANA[nx - 1]}の札1\n", f"1 {KANA[nx - 1]}の札99\n")
    cli(
        "deckcheck",
        "count",
        "--event",
        e,
        "--round",
        "3",
        "--table",
        str(table),
        "--player",
        x,
        write(tmp_path / "again.txt", short),
    )
    again = cli("deckcheck", "end", "--event", e, "--round", "3", "--table", str(table))
    assert next(p for p in again["players"] if p["player"] == x)["proposed"] == "deck.deck-decklist-mismatch"
    check = str(again["check"])
    second = record("deck.deck-decklist-mismatch", x)
    assert [r["penalties"] for r in second["rulings"]] == [["warning2", "ejection"]]

    # -- the head judge corrects a list with a reason: both versions stay -----------------------
    fixed = text_list(5).replace("4 稲妻", "3 稲妻\n1 雷")
    ok(
        run_cli(
            "decklist",
            "correct",
            "--event",
            e,
            "--player",
            player(5),
            write(tmp_path / "c.txt", fixed),
            "--reason",
            "記入ミス",
            db=db_url,
        )
    )
    five = cli("decklist", "show", "--event", e, "--player", player(5))
    assert five["versions"] == 2 and {"count": 1, "name": "雷"} in five["sections"]["main"]

    # -- the reports: every check; a list's PDF in Japanese only --------------------------------
    shown = json.loads(ok(run_cli("report", "deckchecks", "--event", e, "-f", "json", db=db_url)))
    checks = shown["checks"]
    assert [(c["round"], c["seated"]) for c in checks] == [
        (2, list(seated[1])),
        (2, [x, y]),
        (3, next([p["a"], p["b"]] for p in pairings if p["table"] == table)),
    ]
    assert checks[0]["extended"] and checks[0]["rulings"] == []
    assert [(r["player"], r["rule"]) for r in checks[1]["rulings"]] == [
        (x, "deck.deck-decklist-mismatch"),
        (y, "deck.lost-or-mixed-cards"),
        (x, "deck.lost-or-mixed-cards"),
    ]
    assert checks[1]["corrected"] == [x]
    assert [(r["player"], r["rule"]) for r in checks[2]["rulings"]] == [(x, "deck.deck-decklist-mismatch")]
    pdf = tmp_path / "list.pdf"
    ok(run_cli("report", "decklist", "--event", e, "--player", x, "-o", str(pdf), db=db_url))
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, check=True, timeout=60
    ).stdout.decode()
    assert "稲妻" in text
    words = re.findall(r"[A-Za-z]*[a-z][A-Za-z]*", text.replace("shinpan", ""))  # ids are upper case
    assert words == [], words
