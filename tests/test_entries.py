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

from shinpan.entries import KINDS, MalformedBody, RulingsVoided, parse
from shinpan.errors import InvalidInput
from shinpan.services import integrity, transfer
from shinpan.store.chain import canonical
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPORT = FIXTURES / "event_every_kind.json"
PROJECTED = FIXTURES / "event_every_kind.projections.json"


def _export() -> dict[str, Any]:
    return dict(json.loads(EXPORT.read_text(encoding="utf-8")))


# Kinds made after the fixture was exported; each reads back to its bytes below.
LATER_KINDS = {
    "event.published": {"token": "k3J9xQ2mVb7LwZp4Rt8sNa", "names": "handles"},
    "event.format": {"format": "bo1", "time_out": "both-lose", "tiebreakers": "omw,oomw,seeded", "seed": 7},
    "playoff.started": {
        "round": 4,
        "size": 4,
        "third_place": True,
        "entrants": ["1", "7", "3", "12"],
        "seed": 9,
    },
}


def test_the_fixture_holds_every_kind_of_entry_written_when_it_was_made() -> None:
    assert {item["kind"] for item in _export()["entries"]} == set(KINDS) - set(LATER_KINDS)
    assert len(KINDS) == 24 + len(LATER_KINDS)


@pytest.mark.parametrize("kind", sorted(LATER_KINDS))
def test_a_later_kind_reads_back_to_the_same_bytes(kind: str) -> None:
    typed = parse(kind, LATER_KINDS[kind])
    assert canonical(typed.body()) == canonical(LATER_KINDS[kind])
    assert type(typed).from_body(typed.body()) == typed


def test_every_body_written_before_the_types_reads_back_to_the_same_bytes() -> None:
    for item in _export()["entries"]:
        typed = parse(item["kind"], item["body"])
        assert typed.kind == item["kind"]
        assert canonical(typed.body()) == canonical(item["body"]), item["seq"]
        assert type(typed).from_body(typed.body()) == typed


def test_importing_the_old_export_verifies_projects_the_same_tables_and_exports_the_same_bytes(
    db: Database,
) -> None:
    event_id = transfer.import_event(db, _export())
    checked = integrity.verify(db, event_id)
    assert checked.ok and checked.entries == len(_export()["entries"])
    assert not integrity.rebuild(db, event_id, check_only=True)  # the projections are the entries'
    with db.read() as conn:
        tables = snapshot(conn, event_id)
    got = {name: [rows[k] for k in sorted(rows, key=repr)] for name, rows in sorted(tables.items())}
    expected = json.loads(PROJECTED.read_text(encoding="utf-8"))
    assert json.loads(json.dumps(got, ensure_ascii=False, default=str)) == expected
    again = json.dumps(transfer.export_event(db, event_id), ensure_ascii=False, indent=1) + "\n"
    assert again == EXPORT.read_text(encoding="utf-8")


def test_a_malformed_body_is_refused_naming_the_kind_and_the_field() -> None:
    with pytest.raises(MalformedBody, match=r"ruling.voided: rulings is missing"):
        RulingsVoided.from_body({"reason": "x"})
    with pytest.raises(MalformedBody, match=r"duel.result: round is not a whole number"):
        parse("duel.result", {"round": "1", "table": 1, "duel": 1, "winner": None})
    with pytest.raises(MalformedBody, match=r"ruling.recorded: rulings\[0\]: dues\[0\]: on_miss is missing"):
        body = copy.deepcopy(next(i for i in _export()["entries"] if i["kind"] == "ruling.recorded" and
                                  i["body"]["rulings"][0]["dues"])["body"])  # fmt: skip
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
            seq=item["seq"], kind=item["kind"], command_id=item["command_id"], command_hash=item["command_hash"],
            actor=item["actor"], recorded_at=item["recorded_at"], refs=canonical(item["refs"]),
            body=canonical(item["body"]), prev_hash=item["prev_hash"],
        )  # fmt: skip
    data["head"] = prev
    with pytest.raises(InvalidInput) as refused:
        transfer.import_event(db, data)
    assert f"entry {n + 1} (match.result)" in str(refused.value)
    assert "table is missing" in str(refused.value)
