"""The store: the only code that speaks SQL. The schema and its migrations, the hash-chained
ledger (:mod:`ledger`, :mod:`chain`), the projections (:mod:`projector`), the database and
its transactions (:mod:`db`), and the ledger's guard (:mod:`guards`).
"""

__all__ = [
    "chain",
    "connection",
    "copies",
    "db",
    "deadlines",
    "events",
    "guards",
    "integrity",
    "ledger",
    "migrate",
    "projector",
    "reports",
    "roles",
    "roster",
    "rounds",
    "rulings",
    "schema",
    "snapshots",
    "standings",
]
