"""How many Swiss rounds an event of a given size should play."""

from __future__ import annotations

# The Magic Tournament Rules, Appendix E: (the most players, the rounds of Swiss).
RECOMMENDED = (
    (1, 0),
    (2, 1),
    (3, 2),
    (4, 2),
    (8, 3),
    (16, 4),
    (32, 5),
    (64, 6),
    (128, 7),
    (226, 8),
    (409, 9),
)
MOST_ROUNDS = 10  # 410 players and more


def recommended_rounds(players: int) -> int:
    """The rounds of Swiss recommended for ``players`` (placeholder table, refined below)."""
    for most, rounds in RECOMMENDED:
        if players <= most:
            return rounds
    return MOST_ROUNDS
