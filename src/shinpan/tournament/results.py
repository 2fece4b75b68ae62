"""Results as the scorekeeper reports them, and their corrections (T1, T7, T8, T11).

The rules, in the order the code applies them:

- a slip's score ``A-B`` (``A-B-D``) is the duels won by seat a, by seat b (and drawn); a
  duel lost by a penalty is one of them (it was played, T2);
- a finished best-of-three match (T7) is won by the first to win two duels; a drawn duel
  decides nothing; a score where neither won two is a draw only with a drawn duel in it
  (1-1-1), else the match has not ended and the slip says "time";
- a match reported at time (T8, :func:`match_at_time`): the event's rule decides; for now
  the one rule, decided by duels: more duels won wins, equal is a draw;
- a result without duels (``a``, ``b``, ``draw``) counts 2–0 (a draw 1–1) in the standings
  (T1): it sets no duel;
- a duel reported alone: the second duel won decides a match still being played (D10);
- T11: a match has at most one result at a time. A report for a match that has one is
  refused unless it names the result that stands (as shown: ``a``, ``b``, ``draw`` or the
  score, or its ledger entry) and says why; a result a ruling decided is the ruling's, not
  the scorekeeper's; once the next round is paired only the head judge corrects.

Pure: seats are ``a`` and ``b``; the caller maps players to seats.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from shinpan.errors import InvalidInput
from shinpan.tournament.formats import AtTime, MatchFormat, duels_to_win
from shinpan.tournament.formats import at_time as at_time_rule

SEATS = ("a", "b")
MATCH_RESULTS = ("a", "b", "draw")
MOST_DUELS = 5  # the duels a match can hold, drawn ones included


class ResultError(InvalidInput, ValueError):
    """A report that cannot be a match's result: what is wrong, in which field."""


@dataclass(frozen=True)
class Score:
    """Duels won by seat a, by seat b, and drawn."""

    won_a: int
    won_b: int
    drawn: int = 0

    @property
    def duels(self) -> int:
        return self.won_a + self.won_b + self.drawn

    def shown(self) -> str:
        """``2-1``, or ``1-1-1`` with drawn duels: as a slip writes it."""
        return f"{self.won_a}-{self.won_b}" + (f"-{self.drawn}" if self.drawn else "")


_SCORE = re.compile(r"(\d{1,2})-(\d{1,2})(?:-(\d{1,2}))?")
_DASHES = str.maketrans({c: "-" for c in "‐‑‒–—―−ーｰ－"})


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_DASHES).strip().lower().replace(" ", "")


def parse_score(text: str, *, at_time: bool = False) -> Score:
    """``2-1`` or ``1-1-1`` (full-width digits and any dash taken) as a score; ``0-0`` only
    for a match at time before any duel ended (T8: the format's rule decides it)."""
    found = _SCORE.fullmatch(_plain(text))
    if found is None:
        raise ResultError(
            "write the score as duels won by seat a, by seat b (and drawn): 2-1 or 1-1-1", field="score"
        )
    score = Score(int(found[1]), int(found[2]), int(found[3] or 0))
    if (score.duels == 0 and not at_time) or score.duels > MOST_DUELS:
        raise ResultError("a match has 1 to {most} duels", field="score", most=MOST_DUELS)
    return score


def match_at_time(score: Score, rule: AtTime = AtTime.duels) -> str:
    """T8: an unfinished match when its table's time runs out, as the event's rule decides it
    (:func:`shinpan.tournament.formats.at_time`)."""
    return at_time_rule(rule, score.won_a, score.won_b)


def match_result(
    score: Score, *, at_time: bool, fmt: MatchFormat = MatchFormat.bo3, rule: AtTime = AtTime.duels
) -> str:
    """T7, T8: the match's result (a, b, draw, or both_lose at time) from its score as reported."""
    to_win = duels_to_win(fmt)
    if score.won_a > to_win or score.won_b > to_win or min(score.won_a, score.won_b) >= to_win:
        raise ResultError(
            "{score} cannot be: a match ends when a player has won {n} duels",
            field="score",
            score=score.shown(),
            n=to_win,
        )
    if at_time and max(score.won_a, score.won_b) < to_win:  # a match won before time is simply won
        return match_at_time(score, rule)
    if score.won_a == to_win:
        return "a"
    if score.won_b == to_win:
        return "b"
    if score.won_a == score.won_b and score.drawn:
        return "draw"
    raise ResultError(
        "{score} is a match not finished: add time (the match ran out of time) or give the final score",
        field="score",
        score=score.shown(),
    )


# -- a table as it stands, and what a report does to it ---------------------------------------


@dataclass(frozen=True)
class Duel:
    """One duel as it stands: the seat that won it (None: drawn), and whether a penalty decided it."""

    winner: str | None
    penalty: bool = False


@dataclass(frozen=True)
class Table:
    """A match as it stands: its duels by number, its result, whether a ruling decided it."""

    duels: Mapping[int, Duel]
    result: str | None = None
    by_ruling: bool = False

    def score(self) -> Score:
        winners = [d.winner for d in self.duels.values()]
        return Score(winners.count("a"), winners.count("b"), winners.count(None))

    def shown(self) -> str | None:
        """The result as a scorekeeper reads it and names it to correct it: the score when
        the match has duels, else ``a``, ``b`` or ``draw``; None while it is being played."""
        if self.result is None:
            return None
        return self.score().shown() if self.duels else self.result


@dataclass(frozen=True)
class DuelReport:
    """One duel: the seat that won it, or None for a drawn duel."""

    duel: int
    winner: str | None


@dataclass(frozen=True)
class MatchReport:
    """The match's result without duels: a, b or draw."""

    result: str


@dataclass(frozen=True)
class ScoreReport:
    """The match's score from its slip; ``at_time``: the match did not finish in time (T8)."""

    score: Score
    at_time: bool = False


Report = DuelReport | MatchReport | ScoreReport


@dataclass(frozen=True)
class Outcome:
    """What a report sets: the duels reported by hand (number, seat or None for drawn);
    ``whole``: they are all of them (earlier ones reported by hand go); the match's result."""

    duels: tuple[tuple[int, str | None], ...]
    whole: bool
    result: str | None
    at_time: bool = False


def _decided(duels: Mapping[int, Duel], fmt: MatchFormat) -> str | None:
    winners = [d.winner for d in duels.values()]
    return next((seat for seat in SEATS if winners.count(seat) >= duels_to_win(fmt)), None)


def outcome(
    table: Table, report: Report, fmt: MatchFormat = MatchFormat.bo3, rule: AtTime = AtTime.duels
) -> Outcome:
    """What ``report`` does to the match ``table`` (whether it may is :func:`verdict`'s)."""
    if isinstance(report, ScoreReport):
        penalties = [(n, d.winner) for n, d in table.duels.items() if d.penalty]
        score = report.score
        by_a = sum(1 for _, w in penalties if w == "a")
        by_b = len(penalties) - by_a
        if score.won_a < by_a or score.won_b < by_b:
            raise ResultError(
                "{score} leaves out the duels a penalty decided ({a} to seat a, {b} to seat b)",
                field="score",
                score=score.shown(),
                a=by_a,
                b=by_b,
            )
        result = match_result(score, at_time=report.at_time, fmt=fmt, rule=rule)
        seats = ["a"] * (score.won_a - by_a) + ["b"] * (score.won_b - by_b) + [None] * score.drawn
        free = (n for n in range(1, MOST_DUELS + len(penalties) + 1) if n not in dict(penalties))
        return Outcome(tuple(zip(free, seats, strict=False)), True, result, report.at_time)
    if isinstance(report, MatchReport):
        if report.result not in MATCH_RESULTS:
            raise ResultError("a match result is a, b or draw", field="result")
        return Outcome((), table.result is not None, report.result)
    if not 1 <= report.duel <= MOST_DUELS:
        raise ResultError("a match has duels 1 to {most}", field="duel", most=MOST_DUELS)
    if report.winner is not None and report.winner not in SEATS:
        raise ResultError("the winner must be one of the match's players", field="winner")
    if report.duel in table.duels and table.duels[report.duel].penalty:
        raise ResultError(
            "duel {duel} was decided by a penalty: change the ruling, not the result",
            field="duel",
            duel=report.duel,
        )
    duels = {**table.duels, report.duel: Duel(report.winner)}
    decided = _decided(duels, fmt)
    return Outcome(((report.duel, report.winner),), False, decided)


# -- T11: whether a report may stand -------------------------------------------------------------


class Verdict(StrEnum):
    """T11: what becomes of a report."""

    first = "first"  # the match's first result (or a duel not reported yet)
    correction = "correction"  # names what stands, with a reason: it replaces it
    stands = "stands"  # refused: a result stands and the report does not name it
    nothing_stands = "nothing_stands"  # refused: it names a result, but none stands
    by_ruling = "by_ruling"  # refused: a ruling decided the result
    reason_missing = "reason_missing"  # refused: a correction says why
    head_judge_only = "head_judge_only"  # refused: the next round is paired
    unchanged = "unchanged"  # refused: the correction says the result that already stands


def standing(table: Table, report: Report) -> str | None:
    """What a report would replace, as shown: the match's result; for a duel of a match
    still being played, that duel as it stands (``a``, ``b``, ``draw``)."""
    if table.result is not None:
        return table.shown()
    if isinstance(report, DuelReport) and report.duel in table.duels:
        return table.duels[report.duel].winner or "draw"
    return None


def names(replaces: str, shown: str) -> bool:
    """Whether ``replaces`` names the result shown (``2-1-0`` names ``2-1``; ``A`` names ``a``)."""
    given = _plain(replaces)
    found = _SCORE.fullmatch(given)
    if found is not None:
        given = Score(int(found[1]), int(found[2]), int(found[3] or 0)).shown()
    return given == shown


def _same(table: Table, report: Report) -> bool:
    """Whether a report says the very result that stands (a correction that changes nothing)."""
    if isinstance(report, ScoreReport):
        return bool(table.duels) and report.score.shown() == table.score().shown()
    if isinstance(report, MatchReport):
        return not table.duels and report.result == table.result
    return False


def verdict(
    table: Table,
    report: Report,
    *,
    replaces: str | None,
    replaces_entry: int | None,
    standing_entry: int | None,
    reason: str | None,
    next_round_paired: bool,
    head_judge: bool,
) -> Verdict:
    """T11: a first result, a correction, or refused (and why). ``replaces``: the result
    the report names as shown; ``replaces_entry``: the ledger entry it names; ``standing_entry``:
    the entry that made the result that stands."""
    stands = standing(table, report)
    named = replaces is not None or replaces_entry is not None
    if stands is None:
        return Verdict.nothing_stands if named else Verdict.first
    if table.by_ruling:
        return Verdict.by_ruling
    if not named:
        return Verdict.stands
    if replaces is not None and not names(replaces, stands):
        return Verdict.stands
    if replaces_entry is not None and replaces_entry != standing_entry:
        return Verdict.stands
    if _same(table, report):
        return Verdict.unchanged
    if not (reason or "").strip():
        return Verdict.reason_missing
    if next_round_paired and not head_judge:
        return Verdict.head_judge_only
    return Verdict.correction
