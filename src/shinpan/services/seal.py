"""The installation's seal: an Ed25519 key pair made at first start, with which the head
judge signs an event's chain head at its end (an ``event.sealed`` entry).

Where the keys are kept: beside a SQLite database, in its folder; for PostgreSQL (or a
database in memory), in shinpan's data folder (``SHINPAN_HOME``, else
``$XDG_DATA_HOME/shinpan``, else ``~/.local/share/shinpan``) on the machine that runs it.

- ``shinpan-seal.key``: the private key (PKCS #8 PEM), mode 0600, never in the database:
  someone who can rewrite the database still cannot sign;
- ``shinpan-seal.pub``: the public key (PEM), to hand to whoever checks an export;
- ``shinpan-seal-trusted.txt``: other installations' public keys this one accepts seals of
  (raw key in hex, one a line), added by ``shinpan import --trust-key``;
- ``shinpan-seals.jsonl``: every seal this installation has made (the event's uid and id,
  the seal's entry, the head it signed, the signature), one a line: ``verify`` finds each
  in the ledger, so a ledger cut back past a seal, or a seal taken out, is named even when
  what is left is a whole chain (:func:`shinpan.services.integrity.check_kept`).

A seal is checked (:func:`check_seals`) for what could have broken it: an entry it covers
changed (the head it signed is not the ledger's any more), a signature that is not the
key's, or a key this installation does not know.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypedDict, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import EventSealed
from shinpan.errors import InvalidInput, StorageError
from shinpan.ledger_head import ALPHABET
from shinpan.services.asked import Asked, run_asked
from shinpan.store.connection import Connection
from shinpan.store.db import Database, data_dir
from shinpan.store.events import identity
from shinpan.store.heads import Seal, hash_at
from shinpan.store.ledger import Appender

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = [
    "KEY_FILE",
    "PUBLIC_FILE",
    "SEALS_FILE",
    "TRUSTED_FILE",
    "KeptSeal",
    "SealProblem",
    "check_seal",
    "check_seals",
    "fingerprint",
    "installation_key",
    "kept_seals",
    "key_dir",
    "known_keys",
    "made_private",
    "public_hex",
    "seal_event",
    "sealed_message",
    "trust_key",
]

KEY_FILE = "shinpan-seal.key"
PUBLIC_FILE = "shinpan-seal.pub"
TRUSTED_FILE = "shinpan-seal-trusted.txt"
SEALS_FILE = "shinpan-seals.jsonl"


def key_dir(db: Database) -> Path:
    """The folder of the installation's keys (see the module's docstring)."""
    if not db.is_postgres and db.path:
        return Path(db.path).expanduser().resolve().parent
    return data_dir().expanduser()


def made_private(path: Path, content: bytes) -> bool:
    """Write a key file the first time, readable by its owner alone (mode 0600), never over
    one: False when it is there already (another process made it first: theirs is the key)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    return True


def fingerprint(key_hex: str) -> str:
    """A public key as people compare it on paper: 80 bits of its SHA-256, ``ABCD-EFGH-JKLM-NPQR``."""
    try:
        raw = bytes.fromhex(key_hex)
    except ValueError:  # not a key at all (a forged seal): shown as it is
        return key_hex[:19]
    number = int.from_bytes(hashlib.sha256(raw).digest()[:10], "big")
    letters = "".join(ALPHABET[(number >> (75 - 5 * i)) & 31] for i in range(16))
    return "-".join(letters[i : i + 4] for i in range(0, 16, 4))


def sealed_message(position: int, head: str) -> bytes:
    """The bytes a seal signs: the entry's number and its hash."""
    return f"shinpan-seal-v1\n{position}\n{head}".encode("ascii")


def public_hex(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat  # start-up

    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _load(path: Path) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # start-up
    from cryptography.hazmat.primitives.serialization import load_pem_private_key  # start-up

    if os.name == "posix" and path.stat().st_mode & 0o077:
        raise StorageError(f"the seal key {path} may be read by others: make it private (chmod 600 {path})")
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise StorageError(f"{path} is not an Ed25519 private key")
    return key


def installation_key(db: Database) -> Ed25519PrivateKey:
    """The installation's private key, made (mode 0600) the first time it is asked for."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # start-up
    from cryptography.hazmat.primitives.serialization import (  # start-up
        Encoding,
        NoEncryption,
        PrivateFormat,
        PublicFormat,
    )

    folder = key_dir(db)
    path = folder / KEY_FILE
    try:
        if path.exists():
            return _load(path)
        key = Ed25519PrivateKey.generate()
        if not made_private(path, key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())):
            return _load(path)
        public = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
        (folder / PUBLIC_FILE).write_bytes(public)
        return key
    except OSError as e:
        raise StorageError(f"cannot read or make the seal key in {folder}: {e.strerror or e}") from None


def known_keys(db: Database) -> set[str]:
    """The public keys (hex) whose seals this installation accepts: its own, and those trusted."""
    keys = {public_hex(installation_key(db))}
    trusted = key_dir(db) / TRUSTED_FILE
    if trusted.exists():
        for line in trusted.read_text(encoding="utf-8").splitlines():
            word = line.split("#", 1)[0].strip().lower()
            if len(word) == 64 and all(c in "0123456789abcdef" for c in word):
                keys.add(word)
    return keys


def trust_key(db: Database, key_hex: str, note: str) -> None:
    """Accept seals of another installation's key from now on (written to the trusted file)."""
    if key_hex in known_keys(db):
        return
    with (key_dir(db) / TRUSTED_FILE).open("a", encoding="utf-8") as out:
        out.write(f"{key_hex}  # {fingerprint(key_hex)} {note}\n")


# -- sealing ------------------------------------------------------------------------------------


def seal_event(
    db: Database,
    event_id: int,
    **asked: Unpack[Asked],
) -> Sealed:
    """The head judge seals the event: the installation's signature of the chain's head,
    appended as an entry. Entries after it are not covered (a later seal covers them)."""
    key = installation_key(db)  # read (or made) before the event's write lock is taken
    public = public_hex(key)

    def act(conn: Connection, ap: Appender) -> Sealed:
        if ap.seq == 0:
            raise InvalidInput("an event with no entries cannot be sealed")
        position, head = ap.seq, ap.hash
        signature = key.sign(sealed_message(position, head)).hex()
        entry = ap.append(EventSealed(position, head, public, signature))
        return _sealed(entry.seq, entry.of(EventSealed))

    made: list[str] = []  # the event's uid, read in the seal's transaction

    def sealing(conn: Connection, ap: Appender) -> Sealed:
        found = identity(conn, event_id)
        made.append("" if found is None else found.uid)
        return act(conn, ap)

    done = run_asked(
        db,
        event_id,
        Action.manage,
        {"seal": event_id},
        sealing,
        lambda _conn, entry: _sealed(entry.seq, entry.of(EventSealed)),
        **asked,
    )
    if made:  # made now, not a retry: kept beside the key
        _keep(db, made[0], event_id, done)
    return done


def _keep(db: Database, uid: str, event_id: int, done: Sealed) -> None:
    line = json.dumps(
        {
            "event": uid,
            "event_id": event_id,
            "entry": done["seq"],
            "position": done["position"],
            "head": done["head"],
            "key": done["key"],
            "signature": done["signature"],
        },
        sort_keys=True,
    )
    path = key_dir(db) / SEALS_FILE
    try:
        with path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        raise StorageError(
            "the seal is in the ledger, but it could not be kept in {path}: {why}",
            path=str(path),
            why=e.strerror or str(e),
        ) from None


class KeptSeal(NamedTuple):
    """A seal as the installation keeps it in :data:`SEALS_FILE`."""

    event: str  # the event's uid
    event_id: int
    entry: int  # the seal's entry
    position: int
    head: str
    signature: str


def kept_seals(db: Database) -> list[KeptSeal]:
    """Every seal this installation has made, as kept beside its key (a line that is not one
    is left out: the file is the installation's own)."""
    path = key_dir(db) / SEALS_FILE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise StorageError("cannot read {path}: {why}", path=str(path), why=e.strerror or str(e)) from None
    out = []
    for line in lines:
        try:
            d = json.loads(line)
            out.append(
                KeptSeal(
                    str(d["event"]),
                    int(d["event_id"]),
                    int(d["entry"]),
                    int(d["position"]),
                    str(d["head"]),
                    str(d["signature"]),
                )
            )
        except (ValueError, KeyError, TypeError):
            continue
    return out


class Sealed(TypedDict):
    """A seal as the CLI's ``--json`` gives it: its entry, the head it signed and the key."""

    seq: int
    position: int
    head: str
    key: str
    fingerprint: str
    signature: str


def _sealed(seq: int, seal: EventSealed) -> Sealed:
    return {
        "seq": seq,
        "position": seal.position,
        "head": seal.head,
        "key": seal.key,
        "fingerprint": fingerprint(seal.key),
        "signature": seal.signature,
    }


# -- checking -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SealProblem:
    """What broke a seal: ``changed`` (an entry it covers is not what was sealed), ``signature``
    (not the key's signature of that head), ``unknown_key`` (a key this installation does
    not know), ``misplaced`` (the seal does not sign the entry just before it), ``missing``
    (a seal this installation made is not in the ledger any more)."""

    event_id: int
    seq: int  # the seal entry
    problem: str
    key: str

    def text(self, lang: str = "en") -> str:
        """What broke the seal, in Japanese or English (event 0: a seal of an export file)."""
        fp = fingerprint(self.key)
        n, before = self.seq, self.seq - 1
        if lang == "ja":
            seal = f"大会 {self.event_id} の封印(第{n}項)" if self.event_id else f"ファイルの封印(第{n}項)"
            return (
                seal
                + {
                    "changed": f"が破れています: 封印した第1〜{before}項のどれかが封印の後に書き換えられました"
                    f"(第{before}項のハッシュが封印したものと違います)",
                    "signature": f"の署名が鍵 {fp} の署名ではありません: 封印が書き換えられました",
                    "unknown_key": f"は、このシステムが知らない鍵 {fp} で署名されています",
                    "misplaced": "が直前の項を封印していません: 封印が動かされました",
                    "missing": "が台帳にありません: このシステムが封印した後で、台帳が封印の前まで切り詰められたか、"
                    "封印の項が取り除かれました",
                }[self.problem]
            )
        seal = f"event {self.event_id}, seal at entry {n}" if self.event_id else f"the seal at entry {n}"
        return (
            seal
            + {
                "changed": f": BROKEN, an entry it covers (1–{before}) was changed after sealing "
                f"(entry {before}'s hash is not the one sealed)",
                "signature": f": BROKEN, the signature is not key {fp}'s: the seal was altered",
                "unknown_key": f": signed with key {fp}, which this installation does not know",
                "misplaced": ": BROKEN, it does not seal the entry just before it: the seal was moved",
                "missing": ": MISSING from the ledger: this installation made it, and the ledger was cut back "
                "past it or the seal's entry was taken out",
            }[self.problem]
        )

    def __str__(self) -> str:
        return self.text("en")


def check_seal(event_id: int, seal: Seal, stored_head: str | None, known: set[str]) -> SealProblem | None:
    """One seal against the hash the ledger (or an export) holds at the entry it signed."""
    from cryptography.exceptions import InvalidSignature  # start-up
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey  # start-up

    def broken(problem: str) -> SealProblem:
        return SealProblem(event_id, seal.seq, problem, seal.key)

    if seal.position != seal.seq - 1:
        return broken("misplaced")
    if stored_head != seal.head:
        return broken("changed")
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(seal.key))
        public.verify(bytes.fromhex(seal.signature), sealed_message(seal.position, seal.head))
    except (ValueError, InvalidSignature):
        return broken("signature")
    if seal.key.lower() not in known:
        return broken("unknown_key")
    return None


def check_seals(
    conn: Connection, event_id: int, seals: list[Seal], known: set[str], broken_at: int | None = None
) -> list[SealProblem]:
    """Every seal of one event, against its ledger as stored. ``broken_at``: the first entry
    where the chain's walk found a hash that its content no longer gives: a seal over it is
    broken too, whatever the stored hashes say."""
    found = []
    for seal in seals:
        problem = check_seal(event_id, seal, hash_at(conn, event_id, seal.position), known)
        if problem is None and broken_at is not None and broken_at <= seal.position:
            problem = SealProblem(event_id, seal.seq, "changed", seal.key)
        if problem is not None:
            found.append(problem)
    return found
