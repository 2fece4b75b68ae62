"""A ledger's head as paper carries it: the event, the position (how many entries the chain
held) and the hash of its last entry, in a short form a person can type and a full form for
the QR code.

- short: ``3-128-K7QM-2XPA-V9DN-HT4C`` — event 3, entry 128, then the first 75 bits of the
  hash in Crockford's base 32 (15 letters and digits) and one check character over
  everything before it, so that a mistyped head is told apart from a rewritten ledger.
  Finding another ledger whose entry 128 shares those 75 bits is a second preimage of
  SHA-256 cut to 75 bits: about 2**75 hashes, out of reach of anyone with the database.
- full: ``3-128-<the 64 hex digits>``.

Either is read back by :func:`parse_head` (case, spaces, ``O``/``I``/``L`` forgiven).
Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["HeadText", "LedgerHead", "MalformedHead", "ReopenMark", "SealMark", "parse_head", "short_digest"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
_LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})
DIGEST_CHARS = 15  # 75 bits of the hash


class MalformedHead(ValueError):
    """Text that is not a head in either form; says what is wrong with it (``ja``: in Japanese)."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.ja = ja


def _base32(data: bytes, chars: int) -> str:
    number = int.from_bytes(data, "big")
    bits = len(data) * 8
    return "".join(ALPHABET[(number >> (bits - 5 * (i + 1))) & 31] for i in range(chars))


def _check(event_id: int, position: int, letters: str) -> str:
    digest = hashlib.sha256(f"{event_id}-{position}-{letters}".encode("ascii")).digest()
    return ALPHABET[digest[0] & 31]


def short_digest(event_id: int, position: int, digest: str) -> str:
    """The 16 characters of the short form after the position (75 bits and a check)."""
    letters = _base32(bytes.fromhex(digest), DIGEST_CHARS)
    return letters + _check(event_id, position, letters)


@dataclass(frozen=True)
class SealMark:
    """A seal as paper shows it: the entry it seals, the key's fingerprint, the signature."""

    position: int  # the entry the seal signs the hash of
    fingerprint: str  # the public key's, as people compare it (``ABCD-EFGH-JKLM-NPQR``)
    signature: str  # hex
    sealed_at: str  # the seal entry's stamp


@dataclass(frozen=True)
class ReopenMark:
    """The event's last reopening after a seal, as paper shows it: its entry, when, by whom,
    and why."""

    position: int  # the reopening's entry
    reopened_at: str  # its stamp
    by: str
    reason: str


@dataclass(frozen=True)
class ImportMark:
    """Where an imported event came from, as the desk and paper show it: the file's entries,
    how many its seals covered (0: none), the last seal's key's fingerprint (None: no seal)."""

    entries: int
    sealed: int
    fingerprint: str | None

    @property
    def unsealed(self) -> int:
        """The file's entries no seal covered: only as good as whoever wrote the file."""
        return self.entries - self.sealed


@dataclass(frozen=True)
class LedgerHead:
    """An event's chain as it stood when a document was made."""

    event_id: int
    position: int  # entries in the chain (the last one's number); 0 for an empty chain
    digest: str  # the last entry's hash (64 hex digits)
    seal: SealMark | None = None  # the newest seal, if the event was sealed
    reopened: ReopenMark | None = None  # the last reopening, if the event was reopened
    imported: ImportMark | None = None  # the event's last import, if it was imported

    @property
    def short(self) -> str:
        s = short_digest(self.event_id, self.position, self.digest)
        return f"{self.event_id}-{self.position}-" + "-".join(s[i : i + 4] for i in range(0, 16, 4))

    @property
    def full(self) -> str:
        return f"{self.event_id}-{self.position}-{self.digest}"

    def as_json(self) -> dict[str, object]:
        return {"event": self.event_id, "position": self.position, "head": self.digest, "short": self.short}

    def qr_svg(self) -> str:
        """A QR code of the full form, as inline SVG (for the printed documents)."""
        from shinpan.qr import qr_svg  # start-up: for HTML and PDF only

        return qr_svg(self.full, box=6, border=1)


@dataclass(frozen=True)
class HeadText:
    """A head as a person gave it: the event and position, and the hash or its short form."""

    event_id: int
    position: int
    digest: str | None  # the full hash (64 hex), when given in full
    letters: str | None  # the short form's 15 letters, when given short

    def matches(self, digest: str) -> bool:
        """Whether a stored hash is the one this head names."""
        if self.digest is not None:
            return digest == self.digest
        return _base32(bytes.fromhex(digest), DIGEST_CHARS) == self.letters


def parse_head(text: str) -> HeadText:
    """A head in its short or full form; :class:`MalformedHead` saying what is wrong."""
    parts = [p for p in "-".join(text.split()).split("-") if p]  # spaces as hyphens
    if len(parts) < 3 or not parts[0].isdecimal() or not parts[1].isdecimal():
        raise MalformedHead(
            "a head is written EVENT-ENTRY-XXXX-XXXX-XXXX-XXXX (as printed)",
            "ヘッドは 大会-項-XXXX-XXXX-XXXX-XXXX の形で書きます(印刷のとおりに)",
        )
    event_id, position = int(parts[0]), int(parts[1])
    rest = "".join(parts[2:])
    if len(rest) == 64 and all(c in "0123456789abcdefABCDEF" for c in rest):
        return HeadText(event_id, position, rest.lower(), None)
    letters = rest.upper().translate(_LOOK_ALIKES)
    if len(letters) != DIGEST_CHARS + 1 or any(c not in ALPHABET for c in letters):
        raise MalformedHead(
            "after the event and the entry come 16 letters and digits (as printed)",
            "大会と項の後には英数字が16文字続きます(印刷のとおりに)",
        )
    if _check(event_id, position, letters[:-1]) != letters[-1]:
        raise MalformedHead(
            "its check character does not match: a character was mistyped",
            "最後の確認文字が合いません: どこかの文字が打ち間違えられています",
        )
    return HeadText(event_id, position, None, letters[:-1])
