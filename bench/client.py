"""The load generators' HTTP/1.1 client (``bench/load.py``, ``bench/phones.py``): lean, on
asyncio streams. httpx took the generator most of a core; this leaves the server one."""

from __future__ import annotations

import asyncio
import gzip
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

FAILURES = (OSError, EOFError, ValueError, asyncio.LimitOverrunError)  # broken, garbled, timed out
IDLE_SECONDS = 4.0  # a connection idle longer is opened again: uvicorn closes it at 5 s, maybe as we send


class Connection:
    """A keep-alive HTTP/1.1 connection, signed in as ``who`` (or nobody): one request at a
    time, opened again if the server has closed it (after an answer with ``Connection:
    close``, or at any time) or it has been idle ``IDLE_SECONDS``. A request that breaks, or
    has no whole answer in time, closes it too.

    ``local``: the address it connects from (any of 127.0.0.0/8 on loopback: a phone of its
    own on the venue's network). ``browser``: as a phone's browser, it accepts gzip (the
    body read is unpacked) and sends back the cookies the server set."""

    def __init__(
        self, base: str, who: dict[str, str] | None = None, timeout: float = 30,
        local: str | None = None, browser: bool = False,
    ) -> None:  # fmt: skip
        url = urlsplit(base)
        self.address, self.timeout, self.local, self.browser = (
            (url.hostname, url.port),
            timeout,
            local,
            browser,
        )
        self.sign_in = f"Host: {url.netloc}\r\n"
        if who:
            cookies = "; ".join(f"{k}={v}" for k, v in who.items() if k != "token")
            self.sign_in += f"Cookie: {cookies}\r\nX-CSRF-Token: {who['token']}\r\n"
        self.jar: dict[str, str] = {}  # what the server set, a browser's
        self.io: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.answered = 0.0  # when the last answer was read whole

    async def __aenter__(self) -> Connection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.io is not None:
            self.io[1].close()
        self.io = None

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """The answer's status and whole body, within the timeout; status 0 if there is none."""
        try:
            async with asyncio.timeout(self.timeout):
                status, chunks = await self.open(method, path, body)
                whole = b"".join([chunk async for chunk in chunks])
                return status, gzip.decompress(whole) if self.browser and whole[:2] == b"\x1f\x8b" else whole
        except FAILURES:
            return 0, b""

    async def open(self, method: str, path: str, body: bytes = b"") -> tuple[int, AsyncIterator[bytes]]:
        """Sends a request: the answer's status within the timeout (or one of ``FAILURES``),
        then its body as it comes."""
        try:
            async with asyncio.timeout(self.timeout):
                idle = time.monotonic() - self.answered > IDLE_SECONDS
                if self.io is None or idle or self.io[0].at_eof() or self.io[1].is_closing():
                    self.close()
                    local = (self.local, 0) if self.local else None
                    self.io = await asyncio.open_connection(*self.address, local_addr=local)
                reader, writer = self.io
                head = f"{method} {path} HTTP/1.1\r\n{self.sign_in}"
                if self.browser:
                    head += "Accept-Encoding: gzip\r\n"
                    if self.jar:
                        head += "Cookie: " + "; ".join(f"{k}={v}" for k, v in self.jar.items()) + "\r\n"
                else:
                    head += "Accept-Encoding: identity\r\n"
                if body:
                    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                writer.write(head.encode() + b"\r\n" + body)
                await writer.drain()
                status, *fields = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            headers = dict((name.strip().lower(), value.strip().lower()) for name, _, value in
                           (field.partition(":") for field in fields))  # fmt: skip
            if self.browser:
                for name, _, value in (field.partition(":") for field in fields):
                    if name.strip().lower() == "set-cookie":
                        cookie, _, _ = value.strip().partition(";")
                        key, _, kept = cookie.partition("=")
                        self.jar[key] = kept
            return int(status.split(" ", 2)[1]), self.body(reader, headers)
        except BaseException:
            self.close()
            raise

    async def body(self, reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[bytes]:
        """Chunked or with a Content-Length (uvicorn gives every body one or the other)."""
        try:
            if "chunked" in headers.get("transfer-encoding", ""):
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    yield (await reader.readexactly(size + 2))[:-2]
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
            else:
                yield await reader.readexactly(int(headers.get("content-length", 0)))
        except BaseException:  # broken, timed out or given up: what is left of it is unread
            self.close()
            raise
        if headers.get("connection") == "close":
            self.close()
        self.answered = time.monotonic()


async def lines(chunks: AsyncIterator[bytes]) -> AsyncIterator[str]:
    """A body's lines as they come: chunk by chunk, split at each newline."""
    rest = b""
    async for chunk in chunks:
        *complete, rest = (rest + chunk).split(b"\n")
        for line in complete:
            yield line.removesuffix(b"\r").decode()
