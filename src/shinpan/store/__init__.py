"""The store: the only code that speaks SQL. The schema and its migrations, the hash-chained
ledger (:mod:`ledger`, :mod:`chain`), the projections (:mod:`projector`), the database and
its transactions (:mod:`db`; its connections, :mod:`pool`), the ledger's guard
(:mod:`guards`), and the typed reads the services, pages and reports ask (one module per
domain: :mod:`feed`, :mod:`appeals`, :mod:`matches`, :mod:`players`, :mod:`settings`,
:mod:`history`, …).
"""

__all__ = [
    "access",
    "accounts",
    "appeals",
    "chain",
    "connection",
    "copies",
    "db",
    "deadlines",
    "entry",
    "events",
    "feed",
    "guards",
    "heads",
    "held",
    "history",
    "integrity",
    "ledger",
    "matches",
    "migrate",
    "notices",
    "players",
    "pool",
    "projector",
    "public",
    "registration",
    "reports",
    "results",
    "roles",
    "roster",
    "rounds",
    "rulings",
    "schema",
    "search",
    "settings",
    "snapshots",
    "standings",
    "tables",
    "urls",
    "winner_reports",
]
