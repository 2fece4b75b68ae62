"""What a server may hold at once: open files, connections, live streams.

Every connection and every live view's stream holds an open file. With the common limit of
1,024 open files, a stranger's silent connections or one viewer's streams used to take them
all, and the head judge could no longer sign in. So:

- ``shinpan serve`` raises the process's open-file limit to what the system allows
  (:func:`raise_open_files`) and says what it got.
- :func:`connection_budget` is how many connections the server holds at once, the files
  the database, the logs and the worker threads need set aside; beyond it, and beyond
  :data:`shinpan.web.protocol.WAITING_PER_ADDRESS` connections from one address waiting
  for a request, the connection that waited longest gives way (:mod:`shinpan.web.protocol`).
- :class:`StreamCap`: a session has at most ``STREAMS_PER_SESSION`` live streams, the
  server at most ``STREAMS_TOTAL`` (fewer with fewer files); beyond, 429 in the user's language.
"""

from __future__ import annotations

import resource
import weakref
from collections.abc import AsyncGenerator, AsyncIterator

from shinpan.errors import ShinpanError
from shinpan.web.i18n import N_

RESERVED_FILES = 256  # the database's files and connections, logs, worker threads, imports
STREAMS_PER_SESSION = 8  # a browser keeps six connections to a server: a session's tabs fit
STREAMS_TOTAL = 2000  # about 40 KB each: 80 MB at most


def raise_open_files() -> tuple[int, int]:
    """Raise this process's open-file limit to the most the system allows (its hard
    limit); (the limit now, the limit before)."""
    before, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(before, 1 << 20)
    if wanted > before:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # a system that allows less than it says: keep what there is
            return before, before
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0], before


def say_open_files() -> tuple[str, str]:
    """Raise the open-file limit (:func:`raise_open_files`); what the server can hold, in
    words: in Japanese, and in English."""
    files, before = raise_open_files()
    raised = f"raised from {before}" if files > before else "the most the system allows"
    raised_ja = f"{before}から引き上げ" if files > before else "システムの上限"
    connections, streams = connection_budget(files), streams_total(files)
    return (
        f"開けるファイル: {files}({raised_ja}): 接続は{connections}まで、ライブ更新は{streams}まで",
        f"open files: {files} ({raised}): up to {connections} connections, {streams} live streams",
    )


def open_files() -> int:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_budget(files: int | None = None) -> int:
    """How many connections a server holds at once with ``files`` open files (default:
    this process's limit), the files it needs for everything else set aside."""
    files = open_files() if files is None else files
    reserve = max(RESERVED_FILES, files // 8)
    return max(64, files - reserve)


def streams_total(files: int | None = None) -> int:
    """How many live streams a server holds at once: half its connections, STREAMS_TOTAL at most."""
    return min(STREAMS_TOTAL, connection_budget(files) // 2)


class TooManyStreams(ShinpanError):
    """429: a session, or the server, has as many live streams open as it may."""

    status = 429


SESSION_FULL = N_("this session already has {n} live views open; close a tab or page that shows one")
SERVER_FULL = N_("the server has as many live views open as it can hold; try again in a moment")


class _Slot:
    """One stream's place, given back when the stream ends (or is dropped unstarted)."""

    __slots__ = ("__weakref__", "session")

    def __init__(self, session: str) -> None:
        self.session = session


class StreamCap:
    """Live streams counted per session and in all, on the event loop (no lock needed:
    taking a place and counting are done between two awaits)."""

    def __init__(self, per_session: int = STREAMS_PER_SESSION, total: int | None = None) -> None:
        self.per_session = per_session
        self.total = streams_total() if total is None else total
        self._all: weakref.WeakSet[_Slot] = weakref.WeakSet()
        self._sessions: dict[str, weakref.WeakSet[_Slot]] = {}

    def open_streams(self, session: str | None = None) -> int:
        if session is None:
            return len(self._all)
        held = self._sessions.get(session)
        return len(held) if held is not None else 0

    def take(self, session: str) -> _Slot:
        """A place for one more stream of ``session``, or TooManyStreams."""
        held = self._sessions.get(session)
        if held is not None and len(held) >= self.per_session:
            raise TooManyStreams(SESSION_FULL, n=self.per_session)
        if len(self._all) >= self.total:
            raise TooManyStreams(SERVER_FULL)
        if held is None:
            if len(self._sessions) > 2 * self.total:  # sessions whose streams all ended
                self._sessions = {k: v for k, v in self._sessions.items() if len(v)}
            held = self._sessions[session] = weakref.WeakSet()
        slot = _Slot(session)
        held.add(slot)
        self._all.add(slot)
        return slot

    async def hold(self, slot: _Slot, stream: AsyncIterator[str]) -> AsyncGenerator[str, None]:
        """``stream``, its place held while it runs. A stream never started gives its place
        back when it is dropped (the place is only weakly counted)."""
        try:
            async for message in stream:
                yield message
        finally:
            self._all.discard(slot)
            held = self._sessions.get(slot.session)
            if held is not None:
                held.discard(slot)
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
