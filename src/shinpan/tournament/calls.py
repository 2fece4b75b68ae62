"""Judge calls (T14): what may happen to a call, and the time the table gets back.

A call is raised for a table (by a player from the players' page, or by any judge), with an
optional reason; a judge claims it; the judge may hand it to the head judge (escalate); it
is resolved with an outcome: no ruling needed, a ruling (the call cites the rulings recorded
from it), or an appeal to the head judge (D11). The table gets the time the call took from
its claim to its resolution, less one minute, rounded up to whole minutes and never below
zero, once the judge confirms it (T5). A player raises at most one open call per table.

Each check returns why a step is refused (a :class:`CallRefused`), or None: the services
say it in the user's words. Pure: no clock (the moments are given), no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from enum import StrEnum


class CallState(StrEnum):
    """Where a call stands: the calls table and the JSON say the value."""

    open = "open"  # raised, no judge has taken it yet
    claimed = "claimed"  # a judge is on the way or at the table
    escalated = "escalated"  # handed to the head judge
    resolved = "resolved"


class Outcome(StrEnum):
    """How a call ended (T14)."""

    none = "none"  # no ruling needed
    ruling = "ruling"  # the call cites the rulings recorded from it
    appeal = "appeal"  # appealed to the head judge (D11)


class CallReason(StrEnum):
    """Why the table called, from the players' short list (optional)."""

    rules = "rules"  # ルールの質問
    dispute = "dispute"  # 相手とのもめごと
    time = "time"  # 時間
    other = "other"  # その他


class CallRefused(StrEnum):
    """Why a step of a call is refused."""

    not_in_round = "not_in_round"  # no match at that table in the round being played
    already_open = "already_open"  # the players' page: the table has an open call
    already_claimed = "already_claimed"  # a judge has taken it (claimed or escalated)
    escalated = "escalated"  # already with the head judge
    not_claimed = "not_claimed"  # nobody has taken it yet: claim it first
    resolved = "resolved"  # it is over
    cites_none = "cites_none"  # resolved "ruling" without a ruling
    cites_without_ruling = "cites_without_ruling"  # rulings cited, yet the outcome is not "ruling"


TAKEN = frozenset({CallState.claimed, CallState.escalated})  # a judge holds it
OPEN_STATES = frozenset({CallState.open, CallState.claimed, CallState.escalated})  # not resolved yet


def why_no_raise(*, table_in_round: bool, open_at_table: bool, by_player: bool) -> CallRefused | None:
    """A call is raised for a table of the round being played; a player (the players' page)
    raises at most one open call per table; a judge may raise another."""
    if not table_in_round:
        return CallRefused.not_in_round
    if by_player and open_at_table:
        return CallRefused.already_open
    return None


def _taking_up(state: CallState, done: frozenset[CallState], refused: CallRefused) -> CallRefused | None:
    """A resolved call is taken up no more; one already ``done`` is refused for ``refused``."""
    if state is CallState.resolved:
        return CallRefused.resolved
    if state in done:
        return refused
    return None


def why_no_claim(state: CallState) -> CallRefused | None:
    """Only an open call is claimed: one judge takes it, the others see it taken."""
    return _taking_up(state, TAKEN, CallRefused.already_claimed)


def why_no_escalate(state: CallState) -> CallRefused | None:
    """A call not yet resolved may be handed to the head judge, once."""
    return _taking_up(state, frozenset({CallState.escalated}), CallRefused.escalated)


def why_no_resolve(state: CallState, outcome: Outcome, rulings: Sequence[int]) -> CallRefused | None:
    """A call a judge holds is resolved once; resolved "ruling" it cites at least one ruling,
    and only then does it cite any."""
    if state is CallState.resolved:
        return CallRefused.resolved
    if state not in TAKEN:
        return CallRefused.not_claimed
    if outcome is Outcome.ruling and not rulings:
        return CallRefused.cites_none
    if outcome is not Outcome.ruling and rulings:
        return CallRefused.cites_without_ruling
    return None


_MINUTE = timedelta(minutes=1)


def extension_minutes(took: timedelta) -> int:
    """T14: the table's extension for a call that took ``took`` from its claim to its
    resolution: less one minute, rounded up to whole minutes, never below zero
    (0 s, 59 s, 60 s → 0; 61 s, 119 s, 120 s → 1; 121 s → 2)."""
    beyond = took - _MINUTE
    if beyond <= timedelta(0):
        return 0
    return -(-beyond // _MINUTE)  # timedelta // timedelta is exact (microseconds), floored


def over_threshold(waited: timedelta, threshold: timedelta) -> bool:
    """A call that has waited longer than the threshold is marked in the judges' queue."""
    return waited > threshold


def by_waiting(raised: Iterable[tuple[int, str]]) -> list[int]:
    """The judges' queue: calls (number, when raised as the ledger writes it) longest
    waiting first; the same moment in the order they were raised."""
    return [n for n, _at in sorted(raised, key=lambda c: (c[1], c[0]))]


def percentile(values: Sequence[float], share: int) -> float | None:
    """The ``share``-th percentile (nearest rank: the smallest value at least ``share`` per
    cent of the values reach) of waiting or handling times; None when there are none.
    The median is the 50th."""
    if not values:
        return None
    ordered = sorted(values)
    rank = -(-share * len(ordered) // 100)  # ceil(share/100 * n)
    return ordered[max(rank, 1) - 1]
