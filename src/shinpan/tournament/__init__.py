"""The pure tournament core: Swiss pairings and standings from results and statuses.

No I/O, no clock, no database: the standard library, exact fractions and networkx's matching.
"""

from shinpan.tournament.model import Entrant, Pairing, Played, PlayerState, Standing
from shinpan.tournament.pairing import pair_round
from shinpan.tournament.rounds import recommended_rounds
from shinpan.tournament.standings import standings

__all__ = [
    "Entrant",
    "Pairing",
    "Played",
    "PlayerState",
    "Standing",
    "pair_round",
    "recommended_rounds",
    "standings",
]
