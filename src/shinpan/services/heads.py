"""Heads on paper: every printout carries its event's chain head as it was when it was made
(:func:`read_head`, in the printout's own read); ``shinpan verify --head`` tells whether the
ledger still holds that head at that position, every entry up to it hashed again from its
content (:func:`check_head`): a printout kept in a
binder catches a ledger rewritten later, however consistently its hashes were made again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

from shinpan.ledger_head import (
    HeadText,
    ImportMark,
    LedgerHead,
    MalformedHead,
    ReopenMark,
    SealMark,
    parse_head,
    short_digest,
)
from shinpan.services.seal import fingerprint
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.heads import Seal, event_exists, hash_at, head_of, last_reopening, length_of, seals_of
from shinpan.store.imports import import_of
from shinpan.store.ledger import event_ids, verify_chain

__all__ = ["HeadCheck", "MalformedHead", "check_head", "read_head", "read_heads"]


# The seals found so far, per event: (entries looked through, the last one's hash, its newest
# seal). Finding seals reads every entry of the event (50,000 entries: 85 ms on SQLite); a
# printout reads only the entries after those it looked through before, once the hash there
# shows that the ledger it looked through is this one (another database, or a rewrite, is
# looked through again). Shown on paper only: ``verify`` reads every seal itself.
_SEEN: dict[int, tuple[int, str, Seal | None]] = {}
_SEEN_MOST = 4096
_seen_lock = threading.Lock()


def _newest_seal(conn: Connection, event_id: int, position: int, digest: str) -> Seal | None:
    with _seen_lock:
        seen = _SEEN.get(event_id)
    after, newest = 0, None
    if seen is not None and seen[0] <= position and hash_at(conn, event_id, seen[0]) == seen[1]:
        after, newest = seen[0], seen[2]
    later = seals_of(conn, event_id, after=after)
    newest = later[-1] if later else newest
    with _seen_lock:
        if len(_SEEN) >= _SEEN_MOST:
            _SEEN.clear()
        _SEEN[event_id] = (position, digest, newest)
    return newest


def read_head(conn: Connection, event_id: int) -> LedgerHead:
    """The event's head in the caller's read (the one its document is made from), with its
    newest seal."""
    position, digest = head_of(conn, event_id)
    s = _newest_seal(conn, event_id, position, digest)
    mark = None
    if s is not None:
        mark = SealMark(
            s.position, fingerprint(s.key) if len(s.key) == 64 else s.key, s.signature, s.recorded_at
        )
    again = last_reopening(conn, event_id) if s is not None else None
    reopened = None
    if again is not None and again.entry <= position:
        reopened = ReopenMark(again.entry, again.at, again.by, again.reason)
    return LedgerHead(event_id, position, digest, mark, reopened, import_mark(conn, event_id))


def import_mark(conn: Connection, event_id: int) -> ImportMark | None:
    """The event's last import, as the desk and paper show it (None: made here)."""
    found = import_of(conn, event_id)
    if found is None:
        return None
    return ImportMark(found.entries, found.sealed, fingerprint(found.key) if found.key else None)


def read_heads(conn: Connection, ids: Iterable[int]) -> tuple[LedgerHead, ...]:
    return tuple(read_head(conn, e) for e in sorted(set(ids)))


@dataclass(frozen=True)
class HeadCheck:
    """What the ledger says of a printed head.

    ``state``: ``holds`` (the event's entry ``position`` has that hash), ``not_held`` (the
    event is here but its chain at that position is another: rewritten, or cut short) or
    ``unknown`` (no event here has that head: another database, or the event was never here).
    """

    state: str
    event_id: int
    position: int
    printed: str  # the head as given
    now: str | None = None  # the short form of what the ledger has at that position now
    length: int = 0  # the event's entries now
    chain_break: tuple[int, str] | None = None  # where its chain itself breaks (entry, what), if it does
    found_in: int | None = None  # another event of this database that holds the head

    @property
    def holds(self) -> bool:
        return self.state == "holds"

    def text(self, lang: str = "en") -> str:
        e, n = self.event_id, self.position
        if lang == "ja":
            return self._ja(e, n)
        if self.state == "holds":
            where = f" (event {self.found_in} in this database)" if self.found_in is not None else ""
            return f"holds: the ledger of event {e} still has this head at entry {n}{where}"
        if self.state == "unknown":
            return f"unknown head: no event here has it at entry {n} (is this the right database?)"
        if self.chain_break is not None:
            k, what = self.chain_break
            return (
                f"does not hold: event {e}'s entry {k} {what}: entries 1–{n} do not hash to the printed head "
                f"(the first that differs is entry {k})"
            )
        if self.length < n:
            return (
                f"does not hold: event {e}'s ledger has {self.length} entries, the printout stood at entry {n}: "
                f"entries were removed, or its chain was rewritten"
            )
        return (
            f"does not hold: event {e}'s entry {n} is not the one printed (the ledger has {self.now} there): "
            f"one or more of entries 1–{n} were changed after the printout was made; "
            "its chain was rewritten whole, every hash made again"
        )

    def _ja(self, e: int, n: int) -> str:
        if self.state == "holds":
            where = f"(このデータベースの大会 {self.found_in})" if self.found_in is not None else ""
            return f"一致: 大会 {e} の台帳はいまも第{n}項でこのヘッドを保持しています{where}"
        if self.state == "unknown":
            return f"不明なヘッド: このデータベースのどの大会にも、第{n}項にこのヘッドはありません(データベースが違いませんか)"
        if self.chain_break is not None:
            k, what = self.chain_break
            return (
                f"不一致: 大会 {e} の第{k}項{_break_ja(what)}: 第1〜{n}項を内容から計算し直すと、"
                f"印刷されたヘッドになりません(最初に食い違うのは第{k}項です)"
            )
        if self.length < n:
            return (
                f"不一致: 大会 {e} の台帳は{self.length}項しかなく、印刷物は第{n}項の時点のものです: "
                "項が削除されたか、台帳が書き換えられました"
            )
        return (
            f"不一致: 大会 {e} の第{n}項が印刷物のものと違います(台帳ではいま {self.now}): "
            f"印刷の後に第1〜{n}項のどれかが書き換えられました。ハッシュがすべて計算し直されています"
        )


def _break_ja(problem: str) -> str:
    """What :func:`shinpan.store.ledger.verify_chain` found at an entry, in Japanese."""
    if problem.startswith("was altered"):
        return "の内容が書き換えられています(保存されたハッシュと合いません)"
    if "removed" in problem:
        last = problem.split(" ")[1].split("–")[-1] if problem.startswith("entries") else ""
        return f"〜{last}項が削除されています" if last else "が削除されています"
    return "が挿入されています"


def check_head(db: Database, text: str, event_id: int | None = None) -> HeadCheck:
    """Whether the ledger still holds a printed head (short or full form) at its position:
    every entry from the first to that one hashed again from its stored content, each
    linking the one before, ending in the printed hash. ``event_id``: the event to check,
    when its id here is not the printed one (an import). :class:`MalformedHead` when the
    text is not a head."""
    given = parse_head(text)
    event = event_id if event_id is not None else given.event_id
    n = given.position
    found_in = None
    with db.read() as conn:
        if not event_exists(conn, event):
            found_in = _elsewhere(conn, given)
            if found_in is None:
                return HeadCheck("unknown", event, n, text.strip())
        walked = event if found_in is None else found_in
        found, _, _ = verify_chain(conn, walked, upto=n)
        stored = hash_at(conn, walked, n)
        if found is None and stored is not None and given.matches(stored):
            return HeadCheck("holds", event, n, text.strip(), found_in=found_in)
        length = length_of(conn, walked)
    now = None if stored is None else f"{given.event_id}-{n}-{_grouped(given.event_id, n, stored)}"
    broke = (found.seq, found.problem) if found is not None else None
    return HeadCheck("not_held", event, n, text.strip(), now, length, broke)


def _grouped(event_id: int, position: int, digest: str) -> str:
    s = short_digest(event_id, position, digest)
    return "-".join(s[i : i + 4] for i in range(0, 16, 4))


def _elsewhere(conn: Connection, given: HeadText) -> int | None:
    """The event of this database with the head at that position, when the printed event id
    is none here (the event came by import)."""
    for e in event_ids(conn):
        stored = hash_at(conn, e, given.position)
        if stored is not None and given.matches(stored):
            return e
    return None
