"""The services: one function per thing a person does (record, confirm, void, deviate,
appeal, import, pair, deadlines, export…). Each reads what it needs, lets the engine decide
and appends the entries, in one write transaction (:func:`commands.run_command`). The CLI,
the web app and the reports call these and decide nothing themselves.

The modules load when used (``from shinpan.services import recording``), so that a command
that needs none of them starts fast.
"""

__all__ = [
    "access",
    "accounts",
    "appeals",
    "calls",
    "closed",
    "codes",
    "commands",
    "context",
    "corrections",
    "deadlines",
    "deck_rules",
    "deck_shapes",
    "deckchecks",
    "decklists",
    "demo",
    "effects",
    "events",
    "formats",
    "heads",
    "integrity",
    "network",
    "players",
    "playoff",
    "public",
    "publish",
    "queries",
    "recording",
    "reopen",
    "results",
    "rounds",
    "scoresheet",
    "seal",
    "search",
    "self_service",
    "shapes",
    "swiss",
    "tls",
    "winner_reports",
]
