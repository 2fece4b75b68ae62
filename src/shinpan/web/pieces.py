"""Answers joined from pieces compressed once: gzip without compressing at each request.

A page that is the same for many phones (the players' page of a round, each player's seat)
is cut into :class:`Piece` s, each deflated once, alone, up to a byte boundary
(``Z_SYNC_FLUSH``): deflate's blocks may follow one another that way, so an answer is a gzip
header, the pieces' deflated bytes one after another, what differs per request (the query
typed) as stored blocks, a last empty block, then the CRC and the length of the whole
(RFC 1951, 1952). A client unpacks the same bytes as from one compression.

Nothing is compressed while answering: zlib lets go of the interpreter while it works, and
the event loop then waited to take it back behind every busy thread of the pool.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Scope

# Answers of GZIP_FROM bytes or more are compressed for a client that accepts it. Level 5:
# most of level 9's saving at a fraction of its time (the desk's panels are compressed for
# every desk on every change).
GZIP_FROM, GZIP_LEVEL = 800, 5
# Magic, deflate, no flags, no time, no extra flags, the system not known.
HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
LAST = b"\x03\x00"  # an empty last block (fixed codes: the end mark alone)
STORED_MOST = 0xFFFF  # bytes in one stored block
CRC_SPAN = 4096  # zlib.crc32 lets go of the interpreter past 5 KiB: the CRC is taken in spans


@dataclass(frozen=True, slots=True)
class Piece:
    """Bytes of an answer, and the same deflated (non-final blocks ending on a byte)."""

    raw: bytes
    packed: bytes

    @classmethod
    def of(cls, text: str | bytes, level: int) -> Piece:
        """``text`` compressed once (at ``level``), to be joined into many answers."""
        raw = text.encode("utf-8") if isinstance(text, str) else text
        if not raw:
            return EMPTY
        deflate = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        return cls(raw, deflate.compress(raw) + deflate.flush(zlib.Z_SYNC_FLUSH))

    @classmethod
    def stored(cls, text: str) -> Piece:
        """``text`` as it is (stored blocks): what differs at each request, nothing compressed."""
        raw = text.encode("utf-8")
        blocks = []
        for at in range(0, len(raw), STORED_MOST):
            part = raw[at : at + STORED_MOST]
            blocks.append(b"\x00" + struct.pack("<HH", len(part), len(part) ^ 0xFFFF) + part)
        return cls(raw, b"".join(blocks))


EMPTY = Piece(b"", b"")


def plain(pieces: Sequence[Piece]) -> bytes:
    return b"".join(p.raw for p in pieces)


def gzipped(pieces: Sequence[Piece]) -> bytes:
    """The pieces as one gzip member."""
    crc = size = 0
    for p in pieces:
        view = memoryview(p.raw)
        for at in range(0, len(view), CRC_SPAN):
            crc = zlib.crc32(view[at : at + CRC_SPAN], crc)
        size += len(view)
    return b"".join([HEADER, *(p.packed for p in pieces), LAST, struct.pack("<II", crc, size & 0xFFFFFFFF)])


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request accepts gzip, as the app's gzip layer reads it."""
    return "gzip" in Headers(scope=scope).get("accept-encoding", "")


def response_of(
    pieces: Sequence[Piece], gzip: bool, gzip_from: int, media_type: str, headers: dict[str, str]
) -> Response:
    """The pieces compressed as the app's gzip layer (starlette's ``GZipMiddleware``)
    compresses an answer: from ``gzip_from`` bytes, for a client that accepts gzip (``Vary``).
    The layer passes an answer already encoded as it is; any other it answers as ever."""
    if not gzip or sum(len(p.raw) for p in pieces) < gzip_from:
        return Response(plain(pieces), headers=headers, media_type=media_type)
    made = Response(gzipped(pieces), headers=headers, media_type=media_type)
    made.headers.add_vary_header("Accept-Encoding")
    made.headers["content-encoding"] = "gzip"
    return made


def encoded(response: Response) -> bool:
    """Whether the answer is compressed already (the app's gzip layer passes it as it is)."""
    return "content-encoding" in response.headers
