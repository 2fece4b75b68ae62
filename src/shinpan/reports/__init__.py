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
  :func:`penalty_slips`: a round's, or those selected, four to an A4 page;
- :func:`result_slips`: a round's result slips, eight to an A4 page, each with its
  match's code (:mod:`shinpan.tournament.codes`) and a QR code;
- :func:`pairings_by_table`, :func:`pairings_by_name`, :func:`wall_standings`: a round's
  pairings and the standings for the venue wall, from plain rows (:mod:`shinpan.reports.wall`);
- :func:`venue_bracket`: the playoff's bracket and the final placings (:mod:`shinpan.reports.bracket`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shinpan import names_on_first_use

if TYPE_CHECKING:
    from shinpan.reports.bracket import WallBracket
    from shinpan.reports.dq import DisqualificationReport, dq_report
    from shinpan.reports.formats import FORMATS, Output, Report, render
    from shinpan.reports.history import PlayerHistory, history_of_player, player_history
    from shinpan.reports.penalties import GROUPINGS, PenaltyReport, penalty_report
    from shinpan.reports.result_slip import ResultSlips, result_slips
    from shinpan.reports.rulings import ReportedRuling
    from shinpan.reports.slip import DEFAULT_BASE_URL, PenaltySlips, Slip, penalty_slip, penalty_slips
    from shinpan.reports.stats import Statistics, statistics
    from shinpan.reports.venue import venue_bracket, venue_pairings, venue_standings
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

# Each report loads on first use (:func:`shinpan.names_on_first_use`): a command that files
# the penalty report as CSV does not load the PDF engine, the templates or the charts of the
# others.
_WHERE = {
    "DEFAULT_BASE_URL": "slip",
    "DisqualificationReport": "dq",
    "FORMATS": "formats",
    "GROUPINGS": "penalties",
    "Output": "formats",
    "PenaltyReport": "penalties",
    "PenaltySlips": "slip",
    "ResultSlips": "result_slip",
    "PlayerHistory": "history",
    "Report": "formats",
    "ReportedRuling": "rulings",
    "Slip": "slip",
    "Statistics": "stats",
    "WallBracket": "bracket",
    "WallPairing": "wall",
    "WallPairings": "wall",
    "WallStanding": "wall",
    "WallStandings": "wall",
    "dq_report": "dq",
    "history_of_player": "history",
    "pairing_rows": "wall",
    "pairings_by_name": "wall",
    "pairings_by_table": "wall",
    "penalty_report": "penalties",
    "penalty_slip": "slip",
    "penalty_slips": "slip",
    "result_slips": "result_slip",
    "player_history": "history",
    "render": "formats",
    "standing_rows": "wall",
    "statistics": "stats",
    "venue_bracket": "venue",
    "venue_pairings": "venue",
    "venue_standings": "venue",
    "wall_standings": "wall",
}


__all__ = [
    "DEFAULT_BASE_URL",
    "FORMATS",
    "GROUPINGS",
    "DisqualificationReport",
    "Output",
    "PenaltyReport",
    "PenaltySlips",
    "PlayerHistory",
    "Report",
    "ReportedRuling",
    "ResultSlips",
    "Slip",
    "Statistics",
    "WallBracket",
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
    "penalty_slips",
    "player_history",
    "render",
    "result_slips",
    "standing_rows",
    "statistics",
    "venue_bracket",
    "venue_pairings",
    "venue_standings",
    "wall_standings",
]

names_on_first_use(__name__, _WHERE)
