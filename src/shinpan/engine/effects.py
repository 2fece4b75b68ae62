"""What rulings do to the event (D10, D14, D17, D22): the entries to append, planned.

Pure: the caller reads a small snapshot of the event (the player's current match and its
duels, their status and live rulings; for a correction, what the corrected rulings did),
asks here, and appends what comes back. Nothing here reads a database or a clock.

- A duel loss lands on the player's current duel, or waits for their next match when none
  is in progress; a match loss on the current match, or the next one when it has ended; the
  opponent wins it (D10). The second duel won decides the match; in best of one (T7), the
  first, so that a duel loss ends the match as a match loss does. A player who has left the
  event has no next match (D14, D22): a loss that would wait for it lands nowhere.
- ``match_draw`` draws the current match; ``time_extension`` extends a match being played.
- A ruling for a player who has left the event applies to no match at all (D14, D22).
- Ejection and disqualification change the status only once confirmed (D17); leaving the
  event while the match is being played loses it (D22).
- Undoing rulings (a void, a deviation) reverses exactly what they did (D16), leaving a
  match result the scorekeeper reported by hand as it stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from shinpan.engine.event_rules import (
    STATUS_CODES,
    Status,
    duel_loss_lands,
    ends_match,
    left_as,
    match_loss_lands,
    next_duel,
    status_codes_now,
    status_of,
)
from shinpan.entries import DuelResult as DuelResult
from shinpan.entries import LossCarried as LossCarried
from shinpan.entries import LossSettled as LossSettled
from shinpan.entries import MatchExtended as MatchExtended
from shinpan.entries import MatchResult as MatchResult
from shinpan.entries import StatusChanged as StatusChanged
from shinpan.guideline.terms import Act

DUELS_TO_WIN = 2
# What penalties and effects do (their declared meanings, whatever a guideline file calls them).
DUEL_LOSS, MATCH_LOSS = Act("duel_loss"), Act("match_loss")
MATCH_DRAW, TIME_EXTENSION = Act("match_draw"), Act("time_extension")
LOSSES = (DUEL_LOSS, MATCH_LOSS)

# -- the snapshot the planner reads -----------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match as it stands: its players, its decided duels (number → winner) and result."""

    round: int
    table: int
    a: str
    b: str | None  # None: a bye
    result: str | None = None  # a | b | draw; None while it is being played
    result_ruling: int | None = None  # the ruling that decided the result, if one did
    duels: Mapping[int, str] = field(default_factory=dict)
    drawn: frozenset[int] = frozenset()  # the numbers of its drawn duels (T7)
    duels_to_win: int = DUELS_TO_WIN  # the event's format (T7): 2 best of three, 1 best of one

    @property
    def taken(self) -> set[int]:
        """The numbers of the duels already played, won or drawn."""
        return set(self.duels) | self.drawn

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.table)

    @property
    def in_progress(self) -> bool:
        return self.result is None and self.b is not None

    def opponent(self, player: str) -> str | None:
        return self.b if self.a == player else self.a

    def side(self, player: str) -> str:
        return "a" if self.a == player else "b"

    def decided_by_duels(self, duels: Mapping[int, str] | None = None) -> str | None:
        """The side that has won the duels the format needs (two, or one in best of one), if one has."""
        winners = list((self.duels if duels is None else duels).values())
        for player in (self.a, self.b):
            if player is not None and winners.count(player) >= self.duels_to_win:
                return self.side(player)
        return None


@dataclass(frozen=True)
class LiveRuling:
    """A ruling that counts, as far as the player's status goes."""

    number: int
    codes: tuple[Act, ...]  # what its penalties and effects do (Rulebook.acts)
    pending: bool  # waiting for the head judge (D17)


@dataclass(frozen=True)
class PlayerView:
    """One player as a ruling's effects need them."""

    player: str
    status: Status | None  # None: not a registered player (no status to change)
    match: Match | None  # the match of the latest round they were paired in
    live: tuple[LiveRuling, ...] = ()  # their live rulings, the one being applied included
    dropped: bool = False  # they dropped: out whatever becomes of their rulings


@dataclass(frozen=True)
class Carried:
    """A loss waiting for the player's next match (D10)."""

    ruling: int
    position: int
    player: str
    loss: str  # duel_loss | match_loss


@dataclass(frozen=True)
class CausedDuel:
    """A duel a ruling's duel loss decided, with the match it belongs to."""

    match: tuple[int, int]
    duel: int


@dataclass(frozen=True)
class Undoing:
    """What the rulings being undone did, as the ledger shows it now."""

    numbers: frozenset[int]
    matches: Mapping[tuple[int, int], Match]  # every match they touched
    duels: tuple[CausedDuel, ...]  # the duels they decided
    by_hand: frozenset[tuple[int, int]]  # matches whose result the scorekeeper reported by hand
    extensions: tuple[tuple[int, int, int, int], ...]  # (round, table, cause, net count)
    carried: tuple[Carried, ...]  # their losses still waiting
    players: tuple[PlayerView, ...]  # the players they concern; live rulings without them


# -- what the planner says to append: ledger entries (shinpan.entries) ------------------

Effect = DuelResult | MatchResult | MatchExtended | LossCarried | LossSettled | StatusChanged


# -- planning ---------------------------------------------------------------------------


class _Board:
    """A working copy of one player's match and status while a plan is made: each planned
    entry changes it as the ledger's projections will."""

    def __init__(self, view: PlayerView) -> None:
        self.player = view.player
        self.status = view.status
        self.match = view.match
        self.dropped = view.dropped
        self.out: list[Effect] = []

    def land(self, loss: str, ruling: int, position: int) -> None:
        m = self.match
        if loss == DUEL_LOSS:
            if m is None or duel_loss_lands(m.in_progress).value == "next":
                self._carry(loss, ruling, position)
            else:
                self._opponent_wins_duel(m, ruling)
        elif m is None or match_loss_lands(not m.in_progress).value == "next":
            self._carry(loss, ruling, position)
        else:
            self._opponent_wins_match(m, ruling)

    def _carry(self, loss: str, ruling: int, position: int) -> None:
        """D10: the loss waits for the next match; D14, D22: a player who has left the event
        has none (their match ended when they left), so it lands on no match."""
        if left_as(self.status, self.dropped) is None:
            self.out.append(LossCarried(ruling, position, self.player, loss))

    def _opponent_wins_duel(self, m: Match, ruling: int) -> None:
        opponent = str(m.opponent(self.player))
        duel = next_duel(m.taken)
        duels = {**m.duels, duel: opponent}
        decided = m.decided_by_duels(duels)
        self.out.append(DuelResult(m.round, m.table, duel, opponent, ruling, decided is not None, decided))
        self.match = replace(
            m, duels=duels, result=decided or m.result, result_ruling=None if decided else m.result_ruling
        )

    def _opponent_wins_match(self, m: Match, ruling: int) -> None:
        result = m.side(str(m.opponent(self.player)))
        self.out.append(MatchResult(m.round, m.table, result, ruling))
        self.match = replace(m, result=result, result_ruling=ruling)

    def draw(self, ruling: int) -> None:
        m = self.match
        if m is not None:
            self.out.append(MatchResult(m.round, m.table, "draw", ruling))
            self.match = replace(m, result="draw", result_ruling=ruling)

    def extend(self, ruling: int) -> None:
        m = self.match
        if m is not None and m.in_progress:
            self.out.append(MatchExtended(m.round, m.table, 1, ruling))

    def settle(self, ruling: int | None, live: Iterable[LiveRuling]) -> None:
        """D14, D17: the status the live rulings give; D22 when it ends a match being played."""
        if self.status is None:
            return
        new = status_of((status_codes_now(r.codes, pending=r.pending) for r in live), dropped=self.dropped)
        if new == self.status:
            return
        self.out.append(StatusChanged(self.player, new, ruling))
        self.status = new
        m = self.match
        if ends_match(new) and ruling is not None and m is not None and m.in_progress:
            self._opponent_wins_match(m, ruling)


def plan_ruling(view: PlayerView, ruling: int, codes: Sequence[Act], *, pending: bool) -> list[Effect]:
    """Everything one ruling's penalties and effects do to the player's match and status;
    a ``pending`` ruling ejects or disqualifies nobody until it is confirmed (D17). A player
    who has left the event (D14, D22) plays no more: nothing lands on a match, not even the
    one they left (its result stands as their leaving decided it); only a heavier status
    (a withdrawn player disqualified) still changes."""
    board = _Board(view)
    on_matches = left_as(view.status, view.dropped) is None
    for position, code in enumerate(codes if on_matches else ()):
        if code in LOSSES:
            board.land(code, ruling, position)
        elif code == MATCH_DRAW:
            board.draw(ruling)
        elif code == TIME_EXTENSION:
            board.extend(ruling)
    if not STATUS_CODES.isdisjoint(status_codes_now(codes, pending=pending)):
        board.settle(ruling, view.live)
    return board.out


def plan_confirmation(view: PlayerView, ruling: int, codes: Sequence[Act]) -> list[Effect]:
    """D17: a confirmed ejection or disqualification changes the status now."""
    if STATUS_CODES.isdisjoint(codes):
        return []
    board = _Board(view)
    board.settle(ruling, view.live)
    return board.out


def plan_reported_duel(m: Match, duel: int | None, winner: str) -> DuelResult:
    """A scorekeeper's duel result: ``duel`` left out, the match's next duel (D10); the
    second duel won (best of one: the first) decides a match still being played."""
    number = duel if duel is not None else next_duel(m.taken)
    decided = m.decided_by_duels({**m.duels, number: winner}) if m.result is None else None
    return DuelResult(m.round, m.table, number, winner, None, decided is not None, decided)


def plan_carried(view: PlayerView, carried: Carried, round_no: int) -> list[Effect]:
    """At pairing: a waiting loss lands on the player's match of ``round_no`` (D10)."""
    m = view.match
    if m is None or m.round != round_no or not m.in_progress:
        return []
    board = _Board(view)
    board.land(carried.loss, carried.ruling, carried.position)
    return [*board.out, LossSettled(carried.ruling, carried.position, "applied")]


def plan_undo(undoing: Undoing) -> list[Effect]:
    """D16, D17: reverse what these rulings did to duels, matches, extensions, waiting losses
    and statuses. A match whose result the scorekeeper reported by hand keeps it."""
    out: list[Effect] = []
    matches = dict(undoing.matches)
    for caused in undoing.duels:
        m = matches[caused.match]
        duels = {n: w for n, w in m.duels.items() if n != caused.duel}
        keeps = m.result_ruling is not None or caused.match in undoing.by_hand
        result = None if keeps else m.decided_by_duels(duels)
        out.append(DuelResult(m.round, m.table, caused.duel, None, None, not keeps, result))
        matches[caused.match] = replace(m, duels=duels) if keeps else replace(m, duels=duels, result=result)
    for key, m in sorted(matches.items()):
        if m.result_ruling in undoing.numbers:
            result = m.decided_by_duels()
            out.append(MatchResult(m.round, m.table, result, None))
            matches[key] = replace(m, result=result, result_ruling=None)
    for round_no, table, cause, net in undoing.extensions:
        out += [MatchExtended(round_no, table, -1, cause)] * net
    out += [LossSettled(c.ruling, c.position, "cancelled") for c in undoing.carried]
    for view in undoing.players:
        board = _Board(replace(view, match=None))
        board.settle(None, view.live)
        out += board.out
    return out


def reported_by_hand(results: Iterable[tuple[str, bool, bool]]) -> bool:
    """Whether a match's result stands as the scorekeeper reported it, from its result
    entries in order: (kind, a result with no ruling behind it, a duel that set the result)."""
    by_hand = False
    for kind, by_scorekeeper, duel_set_result in results:
        if kind == MatchResult.kind:
            by_hand = by_scorekeeper
        elif duel_set_result:
            by_hand = False
    return by_hand


def net_extensions(
    extended: Iterable[tuple[int, int, int, int]], numbers: frozenset[int]
) -> list[tuple[int, int, int, int]]:
    """The time extensions these rulings still hold, per match: (round, table, cause, count),
    from the ``match.extended`` entries (round, table, delta, cause) in order."""
    net: dict[tuple[int, int, int], int] = {}
    for round_no, table, delta, cause in extended:
        if cause in numbers:
            net[(round_no, table, cause)] = net.get((round_no, table, cause), 0) + delta
    return [(r, t, c, n) for (r, t, c), n in net.items() if n > 0]
