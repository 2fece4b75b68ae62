"""The hash chain: canonical content of an entry, and its hash."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

GENESIS = "0" * 64


# json.dumps with these settings, made once (dumps builds an encoder on every call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
# What an entry's hash covers, in this order, after the previous entry's hash.
CHAINED = ("seq", "kind", "command_id", "command_hash", "actor", "recorded_at", "refs", "body", "prev_hash")


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same bytes for the same content."""
    return _ENCODER.encode(value)


def entry_hash(
    *,
    seq: int,
    kind: str,
    command_id: str | None,
    command_hash: str | None,
    actor: str,
    recorded_at: str,
    refs: str,
    body: str,
    prev_hash: str,
) -> str:
    """SHA-256 over an entry's content and the previous entry's hash."""
    return chained_hash((seq, kind, command_id, command_hash, actor, recorded_at, refs, body, prev_hash))


def chained_hash(content: Sequence[Any]) -> str:
    """:func:`entry_hash` of an entry's content given in the order of :data:`CHAINED` (a
    ledger row as stored, the refs and the body as their JSON)."""
    return hashlib.sha256(canonical(list(content)).encode("utf-8")).hexdigest()


def fingerprint(value: Any) -> str:
    """The hash of a command's content, to tell a retry from a different command."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()
