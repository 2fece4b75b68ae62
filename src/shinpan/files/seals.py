"""An export's seals (see :mod:`shinpan.services.seal` for the installation's key and the
sealing): the seal entries an exported event holds, checked before anything of it is
imported, their keys trusted when the organiser names them, and the part of the export that
lists them beside its entries."""

from __future__ import annotations

from typing import Any, TypedDict

from shinpan.entries import EventSealed
from shinpan.errors import InvalidInput
from shinpan.services.seal import SealProblem, check_seal, fingerprint, known_keys, trust_key
from shinpan.store.db import Database
from shinpan.store.heads import Seal


class ExportedSeal(TypedDict):
    """A seal as an export lists it: its entry, the head it signed, the key and signature."""

    entry: int
    position: int
    head: str
    key: str
    fingerprint: str
    signature: str


class SealsPart(TypedDict, total=False):
    """What an export says of its seals (nothing when the event is unsealed)."""

    seals: list[ExportedSeal]


class SealBroken(InvalidInput):
    """An export whose seal does not hold: what broke it, in both languages (``problem``)."""

    def __init__(self, problem: SealProblem) -> None:
        self.problem = problem
        super().__init__("{what}", what=problem.text("en"))


def export_seals(data: Any) -> list[Seal]:
    """The seal entries of an export (entries numbered as the export numbers them); a seal
    entry whose body is not a seal is refused."""
    items = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    found = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict) or item.get("kind") != EventSealed.kind:
            continue
        try:
            body = EventSealed.from_body(item.get("body"))
        except ValueError as e:
            raise InvalidInput(
                "entry {n} is not a seal shinpan writes: {problem}", n=n, problem=str(e)
            ) from None
        at, actor = item.get("recorded_at"), item.get("actor")
        found.append(Seal(n, str(at), str(actor), body.position, body.head, body.key, body.signature))
    return found


def check_export(db: Database, data: Any) -> None:
    """An export's every seal, before anything of it is imported (:func:`check_seal`):
    :class:`SealBroken` for the first that does not hold."""
    seals = export_seals(data)
    if not seals:
        return
    items = data["entries"]
    known = known_keys(db)
    for seal in seals:
        at = items[seal.position - 1] if 0 < seal.position <= len(items) else None
        stored = at.get("hash") if isinstance(at, dict) and at.get("seq") == seal.position else None
        problem = check_seal(0, seal, stored if isinstance(stored, str) else None, known)
        if problem is not None:
            raise SealBroken(problem)


def trust_export_keys(db: Database, data: Any, fingerprints: list[str]) -> list[str]:
    """Trust the keys of an export's seals that have these fingerprints (as printed on its
    final report); the fingerprints that match no seal of the export."""
    wanted = {f.strip().upper().replace("-", "") for f in fingerprints}
    matched = set()
    for seal in export_seals(data):
        if len(seal.key) != 64:
            continue
        fp = fingerprint(seal.key).replace("-", "")
        if fp in wanted:
            trust_key(db, seal.key.lower(), "(trusted at an import)")
            matched.add(fp)
    return [f for f in fingerprints if f.strip().upper().replace("-", "") not in matched]


def export_part(entries: list[dict[str, Any]]) -> SealsPart:
    """What an export says of its seals beside its entries (which hold them too): each seal's
    position, head, public key (hex and fingerprint) and signature; nothing when unsealed."""
    seals = export_seals({"entries": entries})
    if not seals:
        return {}
    return {
        "seals": [
            {
                "entry": s.seq,
                "position": s.position,
                "head": s.head,
                "key": s.key,
                "fingerprint": fingerprint(s.key),
                "signature": s.signature,
            }
            for s in seals
        ]
    }
