"""The hash chain: canonical content of an entry, and its hash."""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same bytes for the same content."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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
    content = canonical([seq, kind, command_id, command_hash, actor, recorded_at, refs, body, prev_hash])
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def fingerprint(value: Any) -> str:
    """The hash of a command's content, to tell a retry from a different command."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()
