"""What standings and pairings see of an event: entrants with their status, matches played.

Pure data: frozen records, no I/O. A participant id is the event's own id of a player,
already NFKC-normalized (D18).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from shinpan.engine.event_rules import Status

# A player's status as standings and pairings see it (D14, D17): the engine's one enum,
# under the name the tournament core has always used.
PlayerState = Status


@dataclass(frozen=True)
class Entrant:
    """A player of the event and their status at the round asked about."""

    player: str
    status: PlayerState = PlayerState.active


@dataclass(frozen=True)
class Played:
    """One match as results and tiebreakers see it.

    ``b`` None is a bye for ``a``. ``result`` is "a", "b" or "draw"; None while the match is
    not finished (standings ignore it, pairings still see who met whom), and "both_lose" for a
    match at time that the event counts as a loss for both (T8). ``duels`` holds each duel's
    winner in order (None: a drawn duel). ``by_penalty``: decided by a match-loss penalty or
    by a player leaving (D22); it counts 2–0.
    """

    round: int
    a: str
    b: str | None
    result: str | None
    duels: tuple[str | None, ...] = ()
    by_penalty: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``rank`` None for a disqualified player (shown, not ranked).

    ``oomw`` is the mean of OMW over the player's opponents (T9); ``seeded`` the player's
    place in the order drawn from the event's seed (1 first; None when the event's chain
    does not ask for it).
    """

    rank: int | None
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    mwp: Fraction
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    status: PlayerState
    oomw: Fraction = Fraction(0)
    seeded: int | None = None


@dataclass(frozen=True)
class Pairing:
    """One table of a round: ``table`` 1.. from the top of the standings; the bye has ``b`` and ``table`` None."""

    table: int | None
    a: str
    b: str | None
