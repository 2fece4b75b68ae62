"""Getting data in and out: CSV imports, whole-event JSON export and import, backups."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shinpan.engine.event_rules import Role, scope_problems
from shinpan.errors import Conflict, InvalidInput, NotFound, StorageError, Unstorable
from shinpan.guideline import Rulebook
from shinpan.services.context import rulebook_for
from shinpan.store.chain import GENESIS, canonical, entry_hash
from shinpan.store.copies import backup_sqlite, restore_entry
from shinpan.store.db import Database
from shinpan.store.events import event_with_uid, has_entries, identity, next_event_id
from shinpan.store.ledger import Entry, read_entries

FORMAT = "shinpan-event"
FORMAT_VERSION = 1


def export_event(db: Database, event_id: int) -> dict[str, Any]:
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
        seq=item["seq"], kind=item["kind"], command_id=item["command_id"], command_hash=item["command_hash"],
        actor=item["actor"], recorded_at=item["recorded_at"], refs=refs, body=body, prev_hash=prev,
    )  # fmt: skip
    if item["prev_hash"] != prev or digest != item["hash"]:
        raise InvalidInput("entry {n} does not verify: the file was altered", n=n)


def _event_created(body: dict[str, Any]) -> None:
    """D15, as :func:`shinpan.services.events.create_event` checks it: a guideline this
    shinpan has, an REL and a head judge it may run with."""
    guideline = body.get("guideline") or {}
    book = rulebook_for(str(guideline.get("id")), str(guideline.get("version")))
    head = body.get("head_judge") or {}
    level = head.get("level")
    problems = scope_problems(book.guideline, body.get("rel"), level if isinstance(level, int) else None)  # type: ignore[arg-type]
    if problems:
        raise InvalidInput("the event cannot be imported: {reason}", reason="; ".join(problems))


def _judge_added(body: dict[str, Any]) -> None:
    """A judge's seat is a floor judge, scorekeeper or viewer: there is one head judge."""
    roles = {r.value for r in Role} - {Role.head_judge.value}
    if body.get("role") not in roles or not isinstance(body.get("name"), str) or not body["name"].strip():
        raise InvalidInput("a judge's seat with the role {role!r} cannot be imported", role=body.get("role"))


def _ruling_recorded(body: dict[str, Any], book: Rulebook) -> None:
    """Rulings of rules and with components the event's guideline has."""
    known = set(book.rule_ids())
    codes = set(book.components) | set(book.effects)
    for r in body.get("rulings") or []:
        if not isinstance(r, dict) or r.get("rule") not in known:
            raise InvalidInput("a ruling of an unknown rule cannot be imported")
        if not set(r.get("penalties") or []) | set(r.get("effects") or []) <= codes:
            raise InvalidInput("a ruling with unknown penalties cannot be imported")


def _validate(kind: str, body: dict[str, Any], book: Rulebook | None) -> Rulebook | None:
    """What the services would refuse, refused here too; the event's guideline once known."""
    if kind == "event.created":
        _event_created(body)
        guideline = body["guideline"]
        return rulebook_for(str(guideline["id"]), str(guideline["version"]))
    if kind == "judge.added":
        _judge_added(body)
    elif kind == "ruling.recorded" and book is not None:
        _ruling_recorded(body, book)
    return book


def import_event(db: Database, data: Any) -> int:
    """Load an exported event; its chain is checked entry by entry before anything is kept:
    every hash, the head the export names (a file cut short is refused), and what the
    services would refuse (an unknown guideline, a second head judge, unknown rules)."""
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
    about = data.get("event")
    book: Rulebook | None = None
    with db.write(None) as conn:
        if event_with_uid(conn, uid) is not None:
            raise Conflict("this event (uid {uid}) is already in the database", uid=uid)
        wanted = about.get("id") if isinstance(about, dict) else None
        if not (type(wanted) is int and 0 < wanted < 2**31):
            wanted = None  # not an id this database could hold
        event_id = wanted if wanted is not None and not has_entries(conn, wanted) else next_event_id(conn)
        prev = GENESIS
        for n, item in enumerate(items, start=1):
            _check_entry(n, item, prev)
            if n > 1 and item["kind"] == "event.created":
                raise InvalidInput("entry {n} creates the event a second time", n=n)
            try:
                book = _validate(item["kind"], item["body"], book)
            except (TypeError, AttributeError, KeyError):
                raise InvalidInput(
                    "entry {n} ({kind}) is not what shinpan writes", n=n, kind=item["kind"]
                ) from None
            entry = Entry(
                event_id, item["seq"], item["kind"], item["actor"], item["recorded_at"], item["body"],
                tuple(item["refs"]), item["command_id"], item["command_hash"], item["prev_hash"], item["hash"],
            )  # fmt: skip
            try:
                restore_entry(conn, entry)
            except (KeyError, TypeError, ValueError, AttributeError, Unstorable) as e:
                # Unstorable: the database refused it (a key used twice, a value too large);
                # its hash holds, but its content is not what shinpan writes: made by hand
                problem = str(e).splitlines()[0]
                raise InvalidInput(
                    "entry {n} ({kind}) cannot be applied: {problem}", n=n, kind=item["kind"], problem=problem
                ) from None
            prev = item["hash"]
    return int(event_id)


def backup(db: Database, target: Path) -> Path:
    """A consistent copy of a live SQLite database (SQLite's online backup)."""
    if db.dialect != "sqlite":
        raise StorageError("backup copies SQLite databases; for PostgreSQL use pg_dump or shinpan export")
    target = target.expanduser().resolve()
    if target.exists():
        raise Conflict("{path} already exists; choose a new file", path=str(target))
    backup_sqlite(db, target)
    return target
