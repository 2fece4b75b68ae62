"""The playoff after the Swiss (RULES T10, 決勝トーナメント): who enters, the bracket, who goes
on, and the final placings.

- **Who.** The top of the final Swiss standings in rank order, only players still in the
  event: disqualified, ejected, withdrawn and dropped players do not enter and the next
  ranked player takes the place. Players sharing a rank (equal on points and the whole
  chain) are ordered by the event's ``seeded`` draw, so the cut line never ties.
- **Bracket.** Seeds meet in the standard order, so the top two can meet only in the final:
  for 8, 1–8, 4–5, 2–7, 3–6; each round pairs the winners of neighbouring matches.
- **Going on.** A player who leaves between playoff rounds (a drop, an ejection or a
  disqualification taking effect) sends the opponent on without playing. A player who
  leaves during a match loses it (D22): that is the match's result, reported as any.
- **Third place** (3位決定戦), when the event plays it: the semi-final losers, beside the final.
- **Placings.** 1 the winner, 2 the finalist, 3–4 the semi-final losers (by the third-place
  match if played, else by Swiss rank), 5–8 the quarter-final losers by Swiss rank, and so
  on; then everyone else in Swiss order (the standings now, T6). A disqualified player has
  no place, wherever the disqualification came: the players after them move up.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from shinpan.errors import InvalidInput, Refused
from shinpan.tournament.model import PlayerState, Standing

SIZES = (4, 8, 16, 32)


@dataclass(frozen=True)
class Seat:
    """A playoff player and their seed (1 the top of the Swiss)."""

    player: str
    seed: int


@dataclass(frozen=True)
class Bout:
    """One playoff match, at ``slot`` of its round in bracket order.

    ``b`` None: ``a`` goes on without playing, because the opponent left between rounds
    (``left`` names who) or nobody came through the other side; both None: nobody came
    through either side, and the next round's opponent goes on alone. ``winner`` None while
    the match is not decided. ``table`` None for a match nobody plays.
    """

    slot: int
    table: int | None
    a: Seat | None
    b: Seat | None
    winner: str | None = None
    third_place: bool = False
    left: tuple[Seat, ...] = ()

    @property
    def played(self) -> bool:
        return self.a is not None and self.b is not None

    @property
    def loser(self) -> str | None:
        """Who lost the match played, or None."""
        if self.winner is None or self.a is None or self.b is None:
            return None
        return self.b.player if self.winner == self.a.player else self.a.player

    @property
    def out(self) -> list[str]:
        """Who went out at this match: its loser, and whoever left before it."""
        gone = [seat.player for seat in self.left]
        return gone + ([self.loser] if self.loser is not None else [])

    @property
    def going_on(self) -> Seat | None:
        for seat in (self.a, self.b):
            if seat is not None and seat.player == self.winner:
                return seat
        return None


def check_result(first_playoff_round: int | None, round_no: int, result: str) -> None:
    """A playoff match has a winner (T8, T10): a draw or a loss for both is refused there."""
    if first_playoff_round is not None and round_no >= first_playoff_round and result not in ("a", "b"):
        raise Refused(
            "a playoff match has a winner: report who won (no draw, no loss for both)", field="result"
        )


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order: neighbours meet in the first round (8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    if size not in SIZES:
        raise InvalidInput("a playoff has 4, 8, 16 or 32 players, not {size}", field="size", size=size)
    order = [1]
    while len(order) < size:
        count = 2 * len(order)
        order = [seed for top in order for seed in (top, count + 1 - top)]
    return order


def qualifiers(lines: Sequence[Standing], size: int, seeded: Mapping[str, int]) -> list[str]:
    """The players who enter a playoff of ``size``, best seed first.

    ``lines`` are the final Swiss standings; ``seeded`` each player's place in the event's
    draw (:func:`shinpan.tournament.tiebreakers.seeded_places`), which breaks a tie on the
    cut line.
    """
    seed_order(size)  # refuses a size that is no bracket
    eligible = [line for line in lines if line.status is PlayerState.active and line.rank is not None]
    if len(eligible) < size:
        raise InvalidInput(
            "a playoff of {size} needs {size} players still in the event; {count} are",
            field="size",
            size=size,
            count=len(eligible),
        )
    eligible.sort(key=lambda line: (line.rank, seeded.get(line.player, 0)))
    return [line.player for line in eligible[:size]]


def first_round(entrants: Sequence[str]) -> list[Bout]:
    """The bracket's first round from the entrants in seed order; the better seed sits at ``a``."""
    order = seed_order(len(entrants))
    seats = [Seat(entrants[seed - 1], seed) for seed in order]
    return [Bout(slot, slot + 1, seats[2 * slot], seats[2 * slot + 1]) for slot in range(len(seats) // 2)]


def next_round(previous: Sequence[Bout], gone: Collection[str], *, third_place: bool = False) -> list[Bout]:
    """The next playoff round once every match of ``previous`` is decided.

    Winners of neighbouring matches meet, the better seed at ``a``; a winner who has left
    since (``gone``) sends the other on without playing. After the semi-finals, with
    ``third_place``, their losers meet beside the final (one who has left sends the other
    to third place without playing).
    """
    main = sorted((bout for bout in previous if not bout.third_place), key=lambda bout: bout.slot)
    if len(main) < 2:
        raise InvalidInput("the playoff is over: the final has been played", field="round")
    if any(bout.winner is None and (bout.a is not None or bout.b is not None) for bout in main):
        raise InvalidInput("every playoff match of the round needs its result first", field="round")
    bouts = [
        _bout(slot, main[2 * slot].going_on, main[2 * slot + 1].going_on, gone)
        for slot in range(len(main) // 2)
    ]
    if third_place and len(main) == 2:
        losers = [_seat_of(bout, bout.loser) for bout in main]
        bouts.append(_bout(1, losers[0], losers[1], gone, third_place=True))
    table = 0
    numbered = []
    for bout in bouts:
        if bout.played:
            table += 1
            bout = replace(bout, table=table)
        numbered.append(bout)
    return numbered


def _seat_of(bout: Bout, player: str | None) -> Seat | None:
    for seat in (bout.a, bout.b):
        if seat is not None and seat.player == player:
            return seat
    return None


def _bout(
    slot: int, one: Seat | None, other: Seat | None, gone: Collection[str], *, third_place: bool = False
) -> Bout:
    """A match of the next round: who still plays is seated, who left is named."""
    seats = [seat for seat in (one, other) if seat is not None]
    present = sorted((seat for seat in seats if seat.player not in gone), key=lambda seat: seat.seed)
    left = tuple(seat for seat in seats if seat.player in gone)
    if len(present) == 2:
        return Bout(slot, None, present[0], present[1], third_place=third_place)
    if len(present) == 1:
        return Bout(
            slot, None, present[0], None, winner=present[0].player, third_place=third_place, left=left
        )
    return Bout(slot, None, None, None, third_place=third_place, left=left)


def placings(
    swiss_order: Sequence[str], rounds: Sequence[Sequence[Bout]], disqualified: Collection[str] = ()
) -> list[tuple[int, str]]:
    """Every player of the event with their final place (T10), best first.

    ``swiss_order`` is every player of the event in final Swiss order (the standings now,
    T6); ``rounds`` the playoff's rounds in order, the last holding the final (and the
    third-place match, if played). Before the final is decided, only the players already
    out of the playoff are placed above the rest. ``disqualified`` (their status now) have
    no place, wherever the disqualification came: the players after them move up.
    """
    rank = {player: i for i, player in enumerate(swiss_order)}
    placed: list[str] = []
    final_round = rounds[-1] if rounds else []
    final = next((bout for bout in final_round if not bout.third_place), None)
    third = next((bout for bout in final_round if bout.third_place), None)
    over = final is not None and len(final_round) - (third is not None) == 1 and final.winner is not None
    if over and final is not None and final.winner is not None:
        placed.append(final.winner)
        placed.extend(final.out)
        earlier = list(reversed(rounds[:-1]))
    else:
        earlier = []
    for number, bouts in enumerate(earlier):
        out = sorted((p for bout in bouts if not bout.third_place for p in bout.out), key=rank.__getitem__)
        if number == 0 and third is not None and third.winner is not None:
            first = [third.winner, *third.out]
            out = first + [player for player in out if player not in first]
        placed.extend(player for player in out if player not in placed)
    seen = set(placed)
    placed.extend(player for player in swiss_order if player not in seen)
    kept = [player for player in placed if player not in disqualified]
    return [(place, player) for place, player in enumerate(kept, start=1)]


# -- what the rounds are called (決勝トーナメントの呼び名) ---------------------------------------

THIRD_PLACE_NAME = ("3位決定戦", "third-place match")


def stage_name(size: int, index: int) -> tuple[str, str]:
    """A playoff round's name (Japanese, English), decided once from the bracket's ``size``
    and the round's place in it (``index`` 0: its first round): the last is 決勝 (final), the
    one before 準決勝 (semi-finals), then 準々決勝 (quarter-finals), then ベスト16, ベスト32."""
    left = size.bit_length() - 2 - index  # rounds after this one
    if left == 0:
        return ("決勝", "final")
    if left == 1:
        return ("準決勝", "semi-finals")
    if left == 2:
        return ("準々決勝", "quarter-finals")
    return (f"ベスト{2 ** (left + 1)}", f"round of {2 ** (left + 1)}")


def final_decided(size: int, rounds: Sequence[Sequence[Bout]]) -> bool:
    """Whether the playoff's final has its winner: its champion and placings may be shown."""
    if len(rounds) != size.bit_length() - 1:
        return False
    return any(b.winner is not None and not b.third_place for b in rounds[-1])
