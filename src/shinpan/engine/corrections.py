"""Corrections: what a void or a deviation undoes and re-derives (D16).

A void takes effect as if the voided record had never been made, a deviation as if the
record had been made with the head judge's penalties. Afterwards the additional rulings
(D3 unrelated warnings, D6 draft exclusion) are worked out again from each affected
player's corrected history: :func:`rederive` walks that history in order, keeps every
additional ruling whose cause still calls for it, adds those now called for, and lists the
ones nothing calls for any more, to be voided by the correction. Offence numbers already
given never change. ``shinpan replay`` and the ledger's services both correct through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shinpan.engine.decide import additional_ruling, triggered
from shinpan.engine.ruling import Ruling
from shinpan.guideline.rulebook import Rulebook


@dataclass(frozen=True)
class Rederived:
    """What a correction does to one player's additional rulings."""

    void: tuple[int, ...]  # numbers of the additional rulings nothing calls for any more
    add: tuple[Ruling, ...]  # the additional rulings now called for, numbered from ``first_number``


def rederive(
    book: Rulebook, history: Sequence[Ruling], *, first_number: int, ref: str | None = None
) -> Rederived:
    """D16: the additional rulings one player's live ``history`` (in number order, already
    corrected) calls for, against those it holds."""
    dropped: frozenset[int] = frozenset()
    for _ in range(len(history) + 1):  # new offences count only what stays live: settle that first
        found = _walk(book, history, first_number, ref, dropped)
        if frozenset(found.void) == dropped:
            return found
        dropped = frozenset(found.void)
    return found


def _walk(
    book: Rulebook, history: Sequence[Ruling], first_number: int, ref: str | None, gone: frozenset[int]
) -> Rederived:
    """One walk through the history; new offence numbers are counted without ``gone``."""
    waiting: dict[int | None, list[Ruling]] = {}
    for r in history:
        if r.additional:
            waiting.setdefault(r.cause, []).append(r)
    walked: list[Ruling] = []
    added: list[Ruling] = []
    dropped: set[int] = set()
    number = first_number

    def counting() -> list[Ruling]:  # the live rulings new offence numbers are counted in
        return [r for r in (*history, *added) if r.number not in dropped and r.number not in gone]

    def visit(ruling: Ruling) -> None:
        nonlocal number
        before = list(walked)
        walked.append(ruling)
        held = waiting.pop(ruling.number, []) if ruling.number is not None else []
        for why in triggered(book, ruling, before):
            kept = next((r for r in held if r.trigger is why), None)
            if kept is not None:
                held.remove(kept)
                visit(kept)
                continue
            extra = additional_ruling(book, why, ruling, counting(), number, ref, before)
            number += 1
            added.append(extra)
            visit(extra)
        for orphan in held:
            drop(orphan)

    def drop(ruling: Ruling) -> None:
        if ruling.number is not None:
            dropped.add(ruling.number)
            for child in waiting.pop(ruling.number, []):
                drop(child)

    for r in history:
        if not r.additional:
            visit(r)
    for rest in waiting.values():  # caused by rulings that are no longer live
        for r in rest:
            drop(r)
    return Rederived(void=tuple(sorted(dropped)), add=tuple(added))
