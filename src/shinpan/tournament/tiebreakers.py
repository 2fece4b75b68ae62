"""Tiebreaker chains (RULES T9): what ranks players after match points, in the event's order.

An event ranks by match points, then by the keys of its chain in order:

- ``omw``: the mean of the opponents' match-win percentages (T2);
- ``gw``: the player's own game-win percentage (T2);
- ``ogw``: the mean of the opponents' game-win percentages (T2);
- ``oomw``: the mean of OMW over the player's opponents, one per match, as OMW is of MWP;
- ``seeded``: an order drawn once from the event's seed in the ledger; the same on every
  screen and reprint, and it never ties.

Two chains are offered by name: the default ``omw, gw, ogw`` and, common at Japanese events
that count a match at time as a loss for both, ``omw, oomw, seeded``.

The ``seeded`` order of a player is a hash of the seed and the participant id, so it does
not move when a late entrant is added or another player leaves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from enum import StrEnum

from shinpan.errors import InvalidInput


class Tiebreaker(StrEnum):
    omw = "omw"
    gw = "gw"
    ogw = "ogw"
    oomw = "oomw"
    seeded = "seeded"


Chain = tuple[Tiebreaker, ...]

DEFAULT_CHAIN: Chain = (Tiebreaker.omw, Tiebreaker.gw, Tiebreaker.ogw)
BOTH_LOSE_CHAIN: Chain = (Tiebreaker.omw, Tiebreaker.oomw, Tiebreaker.seeded)

# The chains offered by name, as an organiser chooses them.
PRESETS: Mapping[str, Chain] = {"standard": DEFAULT_CHAIN, "both-lose": BOTH_LOSE_CHAIN}


def parse_chain(text: str) -> Chain:
    """The chain an organiser wrote: a preset's name, or keys separated by commas.

    Each key at most once, at least one key; anything else is refused with what is allowed.
    """
    written = text.strip().lower()
    if written in PRESETS:
        return PRESETS[written]
    names = [name.strip() for name in written.split(",")]
    if not written or any(not name for name in names):
        raise InvalidInput(
            "write the tiebreakers as keys separated by commas (omw, gw, ogw, oomw, seeded) or a preset's name",
            field="tiebreakers",
        )
    chain: list[Tiebreaker] = []
    for name in names:
        try:
            key = Tiebreaker(name)
        except ValueError:
            raise InvalidInput(
                "unknown tiebreaker {name}: the keys are omw, gw, ogw, oomw and seeded",
                field="tiebreakers",
                name=name,
            ) from None
        if key in chain:
            raise InvalidInput("tiebreaker {name} is named twice", field="tiebreakers", name=name)
        chain.append(key)
    return tuple(chain)


def chain_text(chain: Chain) -> str:
    """The chain as the CLI and the API write it: ``omw,gw,ogw``."""
    return ",".join(key.value for key in chain)


def seeded_places(seed: int, players: Iterable[str]) -> dict[str, int]:
    """Each player's place (1 first) in the order drawn from the event's seed.

    A player's draw depends only on the seed and their own id, so the order of the others
    stays as it was when a player is added or leaves.
    """

    def draw(player: str) -> tuple[bytes, str]:
        digest = hashlib.sha256(f"{seed}\x00{player}".encode()).digest()
        return (digest, player)

    ordered = sorted(set(players), key=draw)
    return {player: place for place, player in enumerate(ordered, start=1)}
