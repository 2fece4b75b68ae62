"""Getting data in and out: CSV imports, whole-event JSON export and import, backups."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from shinpan.engine.event_rules import Role, scope_problems
from shinpan.entries import (
    EntryBody,
    EventCreated,
    EventImported,
    EventPublished,
    JudgeAdded,
    JudgeSeated,
    MalformedBody,
    RulingsRecorded,
    parse,
)
from shinpan.errors import Conflict, InvalidInput, NotFound, StorageError
from shinpan.files import seals
from shinpan.files.guidelines import held_guideline
from shinpan.files.reimport import replay_export
from shinpan.files.seals import SealsPart, export_seals
from shinpan.guideline import Rulebook
from shinpan.ledger_head import ImportMark
from shinpan.services import seal
from shinpan.services.accounts import claim_code, sign_in_name
from shinpan.services.context import rulebook_for, stamp
from shinpan.services.heads import import_mark
from shinpan.store.accounts import account_by_name
from shinpan.store.chain import GENESIS, canonical, entry_hash
from shinpan.store.connection import Connection
from shinpan.store.copies import backup_sqlite
from shinpan.store.db import Database
from shinpan.store.events import event_with_uid, has_entries, identity, next_event_id
from shinpan.store.events import seats as event_seats
from shinpan.store.held import HeldTransaction
from shinpan.store.ledger import Appender, Entry, read_entries
from shinpan.store.public import published

FORMAT = "shinpan-event"
FORMAT_VERSION = 1


class ExportedIdentity(TypedDict):
    uid: str
    name: str
    id: int


class Export(SealsPart):
    """An exported event: its ledger, entry by entry with their hashes, and its seals."""

    format: str
    version: int
    event: ExportedIdentity
    head: str
    entries: list[dict[str, Any]]  # each entry as :meth:`Entry.content` gives it


def export_event(db: Database, event_id: int) -> Export:
    """The whole event as its ledger: every entry with its hash; projections are derived."""
    with db.read() as conn:
        row = identity(conn, event_id)
        if row is None:
            raise NotFound("no event {event}", event=event_id)
        chain = [e.content() for e in read_entries(conn, event_id)]
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "event": {"uid": row.uid, "name": row.name, "id": event_id},
        "head": chain[-1]["hash"] if chain else GENESIS,
        "entries": chain,
        **seals.export_part(chain),
    }


_FIELDS = (
    "seq",
    "kind",
    "actor",
    "recorded_at",
    "body",
    "refs",
    "command_id",
    "command_hash",
    "prev_hash",
    "hash",
)


def _shaped(item: Any) -> bool:
    """An entry's fields have the types the ledger writes (before any is trusted)."""
    text = ("kind", "actor", "recorded_at", "prev_hash", "hash")
    return (
        isinstance(item, dict)
        and set(item) == set(_FIELDS)
        and all(isinstance(item[k], str) for k in text)
        and all(item[k] is None or isinstance(item[k], str) for k in ("command_id", "command_hash"))
        and isinstance(item["body"], dict)
        and isinstance(item["refs"], list)
        and all(type(r) is int for r in item["refs"])
    )


def _check_entry(n: int, item: Any, prev: str) -> None:
    if not _shaped(item):
        raise InvalidInput("entry {n} is not a shinpan ledger entry", n=n)
    if item["seq"] != n:
        raise InvalidInput(
            "entry {n} is numbered {seq}: entries are missing or out of order", n=n, seq=item["seq"]
        )
    refs, body = canonical(item["refs"]), canonical(item["body"])
    digest = entry_hash(
        seq=item["seq"],
        kind=item["kind"],
        command_id=item["command_id"],
        command_hash=item["command_hash"],
        actor=item["actor"],
        recorded_at=item["recorded_at"],
        refs=refs,
        body=body,
        prev_hash=prev,
    )
    if item["prev_hash"] != prev or digest != item["hash"]:
        raise InvalidInput("entry {n} does not verify: the file was altered", n=n)


def _event_created(created: EventCreated) -> Rulebook:
    """D15, as :func:`shinpan.services.events.create_event` checks it: a guideline this
    shinpan has, an REL and a head judge it may run with."""
    ref = created.guideline
    held_guideline(ref.id, ref.version, ref.sha256)  # held here, with the same content
    book = rulebook_for(ref.id, ref.version)
    problems = scope_problems(book.guideline, created.rel, created.head_judge.level)
    if problems:
        raise InvalidInput("the event cannot be imported: {reason}", reason="; ".join(problems))
    return book


def _judge_added(seat: JudgeAdded) -> None:
    """A judge's seat is a floor judge, scorekeeper or viewer: there is one head judge."""
    roles = {r.value for r in Role} - {Role.head_judge.value}
    if seat.role not in roles or not seat.name.strip():
        raise InvalidInput("a judge's seat with the role {role!r} cannot be imported", role=seat.role)


def _ruling_recorded(recorded: RulingsRecorded, book: Rulebook) -> None:
    """Rulings of rules and with components the event's guideline has."""
    known = set(book.rule_ids())
    codes = set(book.components) | set(book.effects)
    for r in recorded.rulings:
        if r.rule not in known:
            raise InvalidInput("a ruling of an unknown rule cannot be imported")
        if not set(r.penalties) | set(r.effects) <= codes:
            raise InvalidInput("a ruling with unknown penalties cannot be imported")


def _validate(body: EntryBody, book: Rulebook | None) -> Rulebook | None:
    """What the services would refuse, refused here too; the event's guideline once known."""
    if isinstance(body, EventCreated):
        return _event_created(body)
    if isinstance(body, JudgeAdded):
        _judge_added(body)
    elif isinstance(body, RulingsRecorded) and book is not None:
        _ruling_recorded(body, book)
    return book


def _parsed(n: int, item: dict[str, Any]) -> EntryBody:
    """The entry's body in its type; a body that is not what shinpan writes is refused,
    naming the entry and the field."""
    try:
        return parse(item["kind"], item["body"])
    except MalformedBody as e:
        raise InvalidInput(
            "entry {n} ({kind}) is not what shinpan writes: {problem}", n=n, kind=item["kind"], problem=str(e)
        ) from None


@dataclass(frozen=True)
class Imported:
    """An imported event: its id here, the claim codes of its seats that no account holds
    (seat → code, shown once: the code is kept only as a hash), and how far the file was
    sealed (``source``: its entries, how many its seals covered, the last seal's key)."""

    event_id: int
    claim_codes: dict[str, str] = field(default_factory=dict)
    source: EventImported = field(default_factory=lambda: EventImported(0, 0))

    @property
    def sealed(self) -> bool:
        """Whether the file's seals covered every entry it held."""
        return self.source.unsealed == 0 and self.source.sealed > 0


class SourceJson(TypedDict):
    """What an import says of its file, as the CLI's ``--json`` gives it."""

    entries: int
    sealed: bool
    sealed_entries: int
    unsealed_entries: int
    key: str | None  # the fingerprint of the last seal's key


def import_event(db: Database, data: Any, *, accounts: Mapping[str, str] | None = None) -> Imported:
    """Load an exported event. Its chain is checked entry by entry first (every hash, and
    the head the export names: a file cut short is refused); then every command it holds is
    decided again by the services into the new event and must append exactly the file's
    entries (:mod:`shinpan.files.reimport`). Nothing of the file gives an account a
    seat: ``accounts`` (seat name in the file → an account's name here) binds seats, and
    every other seat gets a claim code. One transaction: refused, nothing is kept."""
    seals.check_export(db, data)  # a sealed export: its seals first
    items = _entries_of(data)
    uid = items[0]["body"]["uid"]
    about = data.get("event")
    book: Rulebook | None = None
    with db.write(None) as conn:
        if event_with_uid(conn, uid) is not None:
            raise Conflict("this event (uid {uid}) is already in the database", uid=uid)
        holders = _holders(conn, accounts or {})
        wanted = about.get("id") if isinstance(about, dict) else None
        if not (type(wanted) is int and 0 < wanted < 2**31):
            wanted = None  # not an id this database could hold
        event_id = wanted if wanted is not None and not has_entries(conn, wanted) else next_event_id(conn)
        exported, prev = [], GENESIS
        for n, item in enumerate(items, start=1):
            _check_entry(n, item, prev)
            if n > 1 and item["kind"] == "event.created":
                raise InvalidInput("entry {n} creates the event a second time", n=n)
            body = _parsed(n, item)
            book = _validate(body, book)
            exported.append(
                Entry(
                    event_id,
                    item["seq"],
                    item["actor"],
                    item["recorded_at"],
                    body,
                    tuple(item["refs"]),
                    item["command_id"],
                    item["command_hash"],
                    item["prev_hash"],
                    item["hash"],
                    canonical(item["body"]),
                )
            )
            prev = item["hash"]
        held = HeldTransaction(db, conn)
        replay_export(held, event_id, exported)
        codes = _seat(held, conn, event_id, holders)
        source = _source(data, len(exported))
        _unpublish_and_note(conn, event_id, source)
    return Imported(int(event_id), codes, source)


def imported_from(db: Database, event_id: int) -> ImportMark | None:
    """Where the event came from, for the desk: its last import (None: made here)."""
    with db.read() as conn:
        return import_mark(conn, event_id)


def source_json(imported: Imported) -> SourceJson:
    s = imported.source
    return {
        "entries": s.entries,
        "sealed": imported.sealed,
        "sealed_entries": s.sealed,
        "unsealed_entries": s.unsealed,
        "key": seal.fingerprint(s.key) if s.key else None,
    }


def _source(data: dict[str, Any], entries: int) -> EventImported:
    """How far the file's seals (checked already) covered it: through its last seal's entry."""
    seals = export_seals(data)
    if not seals:
        return EventImported(entries, 0)
    last = seals[-1]
    return EventImported(entries, last.seq, last.key)


def _unpublish_and_note(conn: Connection, event_id: int, source: EventImported) -> None:
    """After the file: the event closed to its players, as the head judge closes it
    (publishing it again draws a new address: the file's is the original's), and where it
    came from."""
    head = next(s.name for s in event_seats(conn, event_id) if s.role == "head_judge")
    before = published(conn, event_id)
    ap = Appender(conn, event_id, head, stamp())  # no command: the import's own (a sealed event too)
    if before is not None and before.token is not None:
        ap.append(EventPublished(None, before.names, False), refs=[])
    ap.append(source, refs=[])


def _entries_of(data: Any) -> list[Any]:
    """The export's entries, once the file says it is one and its head names its last entry."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput("not a shinpan event export (format {format!r})", format=FORMAT)
    if data.get("version") != FORMAT_VERSION:
        raise InvalidInput("export version {v} is not supported", v=data.get("version"))
    items = data.get("entries")
    if not isinstance(items, list) or not items or not isinstance(items[0], dict):
        raise InvalidInput("the export has no entries")
    first = items[0]
    uid = first["body"].get("uid") if isinstance(first.get("body"), dict) else None
    if first.get("kind") != "event.created" or not isinstance(uid, str):
        raise InvalidInput("the export does not begin with the event's creation")
    last = items[-1] if isinstance(items[-1], dict) else {}
    if data.get("head") != last.get("hash"):
        raise InvalidInput("the export's head does not match its last entry: entries were cut off or altered")
    return items


def _holders(conn: Connection, accounts: Mapping[str, str]) -> dict[str, str]:
    """Seat name → the uid of the account here the person importing named for it."""
    out: dict[str, str] = {}
    for seat, name in accounts.items():
        found = account_by_name(conn, sign_in_name(name))
        if found is None:
            raise NotFound(
                "no account named {name} here: make it first, or leave the seat to its claim code",
                field="map_account",
                name=name,
            )
        if found.uid in out.values():
            raise InvalidInput("the account {name} is named for two seats", field="map_account", name=name)
        out[seat.strip()] = found.uid
    return out


def _seat(db: Database, conn: Connection, event_id: int, holders: dict[str, str]) -> dict[str, str]:
    """After the file: each seat to the account the person importing named, or to none (a
    ``judge.seated`` entry where the file left it otherwise); a claim code for each seat
    left to none."""
    seats = {s.name: s for s in event_seats(conn, event_id)}
    unknown = sorted(set(holders) - set(seats))
    if unknown:
        raise NotFound("the event has no judge's seat named {seat}", field="map_account", seat=unknown[0])
    head = next(s.name for s in seats.values() if s.role == "head_judge")
    ap = Appender(conn, event_id, head, stamp())
    for name, seat in seats.items():
        if seat.account != holders.get(name):
            ap.append(JudgeSeated(name, holders.get(name)))
    return {name: claim_code(db, event_id, name) for name in seats if name not in holders}


def backup(db: Database, target: Path) -> Path:
    """A consistent copy of a live SQLite database (SQLite's online backup)."""
    if db.dialect != "sqlite":
        raise StorageError("backup copies SQLite databases; for PostgreSQL use pg_dump or shinpan export")
    target = target.expanduser().resolve()
    if target.exists():
        raise Conflict("{path} already exists; choose a new file", path=str(target))
    backup_sqlite(db, target)
    return target
