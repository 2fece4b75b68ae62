"""Reports an organiser can file and judges can learn from.

Read-only views of the ledger, each a plain value with its JSON and (where it is a table)
its CSV, rendered to HTML and PDF by :func:`render`:

- :func:`penalty_report`: the official penalty report of an event (cautions and draft
  warnings stay out; voided rulings stay in, marked);
- :func:`dq_report`: each disqualification with its timeline, statements and decision (D14);
- :func:`player_history` / :func:`history_of_player`: a person across every event;
- :func:`statistics`: rulings by category, infraction, round and judge, deviations and voids
  per judge, time to confirmation, missed deadlines; charts in :mod:`shinpan.reports.charts`;
- :func:`penalty_slip`: one ruling on an A6 slip with a QR code to its page;
- :func:`pairings_by_table`, :func:`pairings_by_name`, :func:`wall_standings`: a round's
  pairings and the standings for the venue wall, from plain rows (:mod:`shinpan.reports.wall`).
"""

from shinpan.reports.dq import DisqualificationReport, dq_report
from shinpan.reports.formats import FORMATS, Output, Report, render
from shinpan.reports.history import PlayerHistory, history_of_player, player_history
from shinpan.reports.penalties import GROUPINGS, PenaltyReport, penalty_report
from shinpan.reports.rulings import ReportedRuling
from shinpan.reports.slip import DEFAULT_BASE_URL, Slip, penalty_slip
from shinpan.reports.stats import Statistics, statistics
from shinpan.reports.venue import venue_pairings, venue_standings
from shinpan.reports.wall import (
    WallPairing,
    WallPairings,
    WallStanding,
    WallStandings,
    pairing_rows,
    pairings_by_name,
    pairings_by_table,
    standing_rows,
    wall_standings,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "FORMATS",
    "GROUPINGS",
    "DisqualificationReport",
    "Output",
    "PenaltyReport",
    "PlayerHistory",
    "Report",
    "ReportedRuling",
    "Slip",
    "Statistics",
    "WallPairing",
    "WallPairings",
    "WallStanding",
    "WallStandings",
    "dq_report",
    "history_of_player",
    "pairing_rows",
    "pairings_by_name",
    "pairings_by_table",
    "penalty_report",
    "penalty_slip",
    "player_history",
    "render",
    "standing_rows",
    "statistics",
    "venue_pairings",
    "venue_standings",
    "wall_standings",
]
