"""The typed ledger: every kind of entry says exactly what today's ledger holds.

The fixture (tests/fixtures/event_every_kind.json) was exported by shinpan before the ledger
was typed; its hash chain covers the bodies byte for byte. It must still verify, project the
same tables and export to the same bytes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from shinpan.entries import KINDS, TOPICS, Kind, MalformedBody, RulingsVoided, parse
from shinpan.errors import InvalidInput
from shinpan.files import reimport, transfer
from shinpan.store import projector
from shinpan.store.chain import canonical
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPORT = FIXTURES / "event_every_kind.json"
PROJECTED = FIXTURES / "event_every_kind.projections.json"


def _export() -> dict[str, Any]:
    return dict(json.loads(EXPORT.read_text(encoding="utf-8")))


# Kinds the shinpan that wrote the fixture did not have, each with a body that reads back to
# its bytes below.
LATER_KINDS = {
    "judge.seated": {"name": "佐藤 花子", "account": None},
    "player.corrected": {"player": "P001", "name": "髙橋 一", "reading": "たかはし はじめ", "club": None},
    "player.attendance": {"player": "P001", "present": False},
    "result.reported": {
        "round": 2,
        "table": 7,
        "duels": [{"duel": 1, "winner": "P001"}, {"duel": 2, "winner": None}],
        "whole": True,
        "result": "draw",
        "at_time": True,
        "shown": "1-0-1",
        "corrects": 41,
        "reason": "読み違い",
    },
    "event.sealed": {"position": 12, "head": "ab" * 32, "key": "cd" * 16, "signature": "ef" * 64},
    "event.published": {"token": "k3J9xQ2mVb7LwZp4Rt8sNa", "names": "handles"},
    "event.format": {"format": "bo1", "time_out": "both-lose", "tiebreakers": "omw,oomw,seeded", "seed": 7},
    "playoff.started": {
        "round": 4,
        "size": 4,
        "third_place": True,
        "entrants": ["1", "7", "3", "12"],
        "seed": 9,
    },
    "winner.reported": {"round": 2, "table": 7, "score": "2-1", "at_time": False},
    "winner.confirmed": {"report": 57},
    "event.reopened": {"seal": 68, "reason": "選手名の訂正のため"},
    "event.imported": {
        "entries": 69,
        "sealed": 65,
        "key": "a8fa8184e5be1e0157f7eee95c931bee4041f8e49a443c5e851ccd3a365e65f0",
    },
    "call.raised": {"round": 3, "table": 7, "reason": "dispute"},
    "call.claimed": {"call": 61},
    "call.escalated": {"call": 61},
    "call.resolved": {
        "call": 61,
        "outcome": "ruling",
        "rulings": [8, 9],
        "proposed": 3,
        "minutes": 5,
        "reason": "長考の確認も",
    },
    "deck.rules": {
        "required": True,
        "sections": "main:60-,side:0-15",
        "copies": 4,
        "across": False,
        "limits": [["Black Lotus", 0], ["タイム・ウォーク", 1]],
        "unlimited": ["山"],
        "lock": "round1",
    },
    "decklist.registered": {
        "player": "P001",
        "sections": {"main": [[4, "稲妻", 1], [56, "山", 2]], "side": [[3, "Duress", None]]},
        "format": "text",
        "source": "p001.txt",
        "digest": "ab" * 32,
        "problems": [{"line": 1, "ja": "メインは59枚です。", "en": "the main has 59 cards."}],
        "by_player": False,
    },
    "decklist.corrected": {
        "player": "P001",
        "sections": {"main": [[4, "稲妻", 1], [56, "山", 2]]},
        "format": "arena",
        "source": "web",
        "digest": "cd" * 32,
        "reason": "記入ミス",
        "problems": [],
    },
    "decklists.locked": {},
    "deckcheck.started": {"round": 2, "table": 7, "players": ["P001", "P002"]},
    "deckcheck.counted": {"check": 80, "player": "P001", "sections": {"main": [[3, "稲妻", None]]}},
    "deckcheck.ended": {
        "check": 80,
        "minutes": 7,
        "findings": [
            {
                "player": "P001",
                "missing": [["main", "稲妻", 1]],
                "extra": [["main", "Counterspell", 1]],
                "foreign": [["main", "Counterspell", 1, "P002"]],
                "deck_legal": True,
                "list_legal": True,
                "matches": False,
                "proposed": [
                    ["deck.deck-decklist-mismatch", "P001", {}],
                    ["deck.lost-or-mixed-cards", "P002", {"mixed_into": "P001"}],
                ],
            }
        ],
        "extended": True,
    },
    "deck.corrected": {"check": 80, "player": "P001"},
    "decklists.published": {"top": 8, "players": ["P001", "P007"]},
}


def test_the_fixture_holds_every_kind_of_entry_written_when_it_was_made() -> None:
    assert {item["kind"] for item in _export()["entries"]} == set(KINDS) - set(LATER_KINDS)
    assert len(KINDS) == 24 + len(LATER_KINDS)


@pytest.mark.parametrize("kind", sorted(LATER_KINDS))
def test_a_later_kind_reads_back_to_the_same_bytes(kind: str) -> None:
    typed = parse(kind, LATER_KINDS[kind])
    assert canonical(typed.body()) == canonical(LATER_KINDS[kind])
    assert type(typed).from_body(typed.body()) == typed


def test_a_reported_result_that_is_not_one_is_refused_naming_the_field() -> None:
    body = dict(LATER_KINDS["result.reported"])
    with pytest.raises(MalformedBody, match=r"result.reported: duels\[1\]: duel is not a whole number"):
        parse(
            "result.reported", {**body, "duels": [{"duel": 1, "winner": None}, {"duel": "2", "winner": None}]}
        )


def test_an_attendance_that_is_not_one_is_refused_naming_the_field() -> None:
    with pytest.raises(MalformedBody, match=r"player.attendance: present is not true or false"):
        parse("player.attendance", {"player": "P001", "present": "no"})


def test_every_body_written_before_the_types_reads_back_to_the_same_bytes() -> None:
    for item in _export()["entries"]:
        typed = parse(item["kind"], item["body"])
        assert typed.kind == item["kind"]
        assert canonical(typed.body()) == canonical(item["body"]), item["seq"]
        assert type(typed).from_body(typed.body()) == typed


def test_the_old_export_is_decided_again_up_to_what_shinpan_now_says_otherwise(db: Database) -> None:
    """Import decides every command again and must give the file's entries byte for byte
    (tests/test_import_decided.py round-trips an event of every kind made today). The old
    export was written before a deviation's reason got a sentence of its own: its
    first deviation is where deciding again differs, and the import says so and keeps nothing."""
    fixture = _export()
    with pytest.raises(InvalidInput) as refused:
        transfer.import_event(db, fixture)
    assert "ruling.deviated" in str(refused.value) and "explanation_" in str(refused.value)
    with db.read() as conn:
        assert not snapshot(conn, 1)["rulings"]


def test_a_malformed_body_is_refused_naming_the_kind_and_the_field() -> None:
    with pytest.raises(MalformedBody, match=r"ruling.voided: rulings is missing"):
        RulingsVoided.from_body({"reason": "x"})
    with pytest.raises(MalformedBody, match=r"duel.result: round is not a whole number"):
        parse("duel.result", {"round": "1", "table": 1, "duel": 1, "winner": None})
    with pytest.raises(MalformedBody, match=r"ruling.recorded: rulings\[0\]: dues\[0\]: on_miss is missing"):
        body = copy.deepcopy(
            next(
                i
                for i in _export()["entries"]
                if i["kind"] == "ruling.recorded" and i["body"]["rulings"][0]["dues"]
            )["body"]
        )
        del body["rulings"][0]["dues"][0]["on_miss"]
        parse("ruling.recorded", body)
    with pytest.raises(MalformedBody, match="not a kind of entry"):
        parse("ruling.forgotten", {})


def test_an_import_with_a_malformed_body_is_refused_with_a_message_naming_the_entry(db: Database) -> None:
    """The hash is made again over the altered body: only its shape is wrong."""
    from shinpan.store.chain import entry_hash

    data = _export()
    items = data["entries"]
    n = next(i for i, item in enumerate(items) if item["kind"] == "match.result")
    del items[n]["body"]["table"]
    prev = items[n - 1]["hash"]
    for item in items[n:]:
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
            prev_hash=item["prev_hash"],
        )
    data["head"] = prev
    with pytest.raises(InvalidInput) as refused:
        transfer.import_event(db, data)
    assert f"entry {n + 1} (match.result)" in str(refused.value)
    assert "table is missing" in str(refused.value)


# -- the topics' lists of kinds: what the parser, the projector and the import all read -------


def _kinds_defined(base: type[Kind] = Kind) -> set[type[Kind]]:
    """Every entry type the package defines (a shared private base such as ``_CallMoment`` aside)."""
    found: set[type[Kind]] = set()
    for sub in base.__subclasses__():
        if not sub.__name__.startswith("_"):
            found.add(sub)
        found |= _kinds_defined(sub)
    return found


def test_every_kind_defined_is_named_once_in_its_topic() -> None:
    named = [kind for topic in TOPICS.values() for kind in topic]
    assert len(named) == len(set(named)) == len(KINDS)
    assert set(named) == _kinds_defined(), sorted(k.__name__ for k in set(named) ^ _kinds_defined())
    for topic, kinds in TOPICS.items():
        assert {kind.__module__ for kind in kinds} == {f"shinpan.entries.{topic}"}


@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_every_kind_of_a_topic_is_projected_and_imported(topic: str) -> None:
    """A kind with a projection but no re-import (or the other way) fails here, by name."""
    kinds = TOPICS[topic]
    assert [k.kind for k in kinds if k not in projector._HANDLERS] == []
    assert [k.kind for k in kinds if (k in reimport.COMMANDS) == (k.kind in reimport.FOLLOWS_ONLY)] == []


def test_the_registries_hold_only_the_topics_kinds() -> None:
    named = {kind for topic in TOPICS.values() for kind in topic}
    assert set(projector._HANDLERS) == named
    assert set(reimport.COMMANDS) | {KINDS[k] for k in reimport.FOLLOWS_ONLY} == named
