"""The players' phones of ``bench/load.py`` (T12): at a round's pairing, every player opens
the players' page from the QR code on the wall and looks for their table, all within
``window`` seconds of the pairing.

Each phone is a browser of its own: its own address on the venue's network (one of
127.1.0.0/16 on loopback: the server listens on 127.0.0.1 only, and the players' limit per
address holds for each phone as it would at the venue), its own connection, the cookies the
server set, gzip. It opens ``/p/<token>``, takes 10–30 % of the window to type, then asks
``/p/<token>?q=…`` by its player id, its reading or its name, and checks that the answer
shows its table (by id: the table the pairing gave it). Both requests are timed.

The phones run in a process of their own, as the open pages do: the judges' requests timed
in the first process do not wait behind 2,000 phones.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as PipeEnd
from urllib.parse import quote

from client import Connection

PHONE_TARGET_MS = 100.0
KINDS = ("phone page", "phone table")


def address(i: int) -> str:
    """The ``i``-th phone's address (65,024 of them)."""
    return f"127.1.{i // 254}.{i % 254 + 1}"


@dataclass
class Plan:
    base: str
    token: str
    players: list[tuple[str, str, str]]  # number, name, reading
    window: float
    seed: int = 7


@dataclass
class PhoneStats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    refused: int = 0  # 429: past the limit per address
    wrong: int = 0  # an answer without the player's table
    failed: dict[int, int] = field(default_factory=lambda: defaultdict(int))  # by status (0: no answer)

    def add(self, kind: str, started: float, status: int, ok: bool) -> None:
        self.latencies[kind].append((time.perf_counter() - started) * 1000)
        self.refused += status == 429
        if not (status == 200 and ok):
            self.errors[kind] += 1
            self.failed[status] += 1


async def phone(
    plan: Plan, i: int, asked: str, table: int | None, start: float, think: float, stats: PhoneStats
) -> None:
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    async with Connection(plan.base, local=address(i), browser=True, timeout=20) as http:
        started = time.perf_counter()
        status, page = await http.request("GET", f"/p/{plan.token}")
        stats.add("phone page", started, status, b'id="q"' in page)
        await asyncio.sleep(think)
        started = time.perf_counter()
        status, page = await http.request("GET", f"/p/{plan.token}?q={quote(asked)}")
        shown = b'class="table-no">' in page
        if table is not None:  # asked by id: the table the pairing gave it, in either language
            shown = f">{table}番卓<".encode() in page or f">Table {table}<".encode() in page
        stats.add("phone table", started, status, shown)
        stats.wrong += status == 200 and not shown


async def _phones(plan: Plan, paired_at: float, tables: dict[str, int]) -> PhoneStats:
    rng = random.Random(plan.seed)
    stats = PhoneStats()
    tasks = []
    for i, (number, name, reading) in enumerate(plan.players):
        how = rng.random()
        asked, table = (number, tables.get(number)) if how < 0.3 else (reading if how < 0.7 else name, None)
        start = paired_at + rng.uniform(0, 0.7 * plan.window)
        think = rng.uniform(0.1, 0.3) * plan.window
        tasks.append(asyncio.create_task(phone(plan, i, asked, table, start, think, stats)))
    await asyncio.gather(*tasks)
    return stats


def run_phones(plan: Plan, pipe: PipeEnd) -> None:
    """In a process of its own: waits for the pairing (when its answer came, perf_counter,
    and each player's table), then every phone asks; sends back what it measured."""
    pipe.send("ready")
    paired_at, tables = pipe.recv()
    stats = asyncio.run(_phones(plan, paired_at, tables))
    pipe.send({"latencies": dict(stats.latencies), "errors": dict(stats.errors), "refused": stats.refused,
               "wrong": stats.wrong, "failed": dict(stats.failed)})  # fmt: skip
