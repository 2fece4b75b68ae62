"""How many Swiss rounds an event of a given size should play."""

from __future__ import annotations

# The Magic Tournament Rules, Appendix E ("Recommended Number of Rounds in Swiss Tournaments"),
# as (the most players, the rounds of Swiss):
#   2 → 1, 3–4 → 2, 5–8 → 3, 9–16 → 4, 17–32 → 5, 33–64 → 6, 65–128 → 7,
#   129–226 → 8, 227–409 → 9, 410 and more → 10.
# Appendix E runs 4 and 5–8 players as 2 and 3 rounds of single elimination, and 9–16 as 4
# rounds before a drafted Top 8 (5 in other formats); the Swiss here plays as many rounds.
# 2 and 3 players are not in the table: one round decides two players, two rounds three.
RECOMMENDED = ((1, 0), (2, 1), (4, 2), (8, 3), (16, 4), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9))
MOST_ROUNDS = 10  # 410 players and more


def recommended_rounds(players: int) -> int:
    """The rounds of Swiss recommended for ``players``: the MTR Appendix E table above
    (2 → 1, 3–4 → 2, 5–8 → 3, 9–16 → 4, … 227–409 → 9, 410+ → 10); none for fewer than two."""
    for most, rounds in RECOMMENDED:
        if players <= most:
            return rounds
    return MOST_ROUNDS
