"""The tables as plain data, for the store's code that runs without SQLAlchemy: which
tables are projections of the ledger and what their rows are keyed by, their DDL for a
scratch SQLite database (``shinpan verify`` derives the projections there), and every table
the app's PostgreSQL role is granted.

:mod:`shinpan.store.schema` stays the source (Alembic migrates from it);
``tests/test_tables.py`` checks that what is written here says the same.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["APP_TABLES", "PROJECTIONS", "SCRATCH_DDL", "Projection"]


class Projection(NamedTuple):
    """A projection table: its name, its primary key, its columns in order."""

    name: str
    key: tuple[str, ...]
    columns: tuple[str, ...]


def _projection(name: str, key: str, columns: str) -> Projection:
    return Projection(name, tuple(key.split()), tuple(columns.split()))


PROJECTIONS = (
    _projection(
        "events",
        "event_id",
        "event_id uid name starts_on ends_on venue rel guideline_id guideline_version head_judge "
        "confirmation_threshold current_round created_at round_minutes time_zone match_format time_out "
        "tiebreakers format_seed playoff_round sealed_entry reopened_entry",
    ),
    _projection("judges", "event_id name", "event_id name level role account"),
    _projection(
        "players",
        "event_id number",
        "event_id number name reading club status status_ruling search dropped_round",
    ),
    _projection("drafts", "event_id name", "event_id name round"),
    _projection("rounds", "event_id number", "event_id number state ended_at started_at minutes seed"),
    _projection(
        "matches",
        "event_id round table_no",
        "event_id round table_no player_a player_b result result_ruling ended_at extensions",
    ),
    _projection(
        "time_extensions",
        "event_id entry_seq",
        "event_id entry_seq round table_no minutes reason judge given_at",
    ),
    _projection("duels", "event_id round table_no duel", "event_id round table_no duel winner cause_ruling"),
    _projection(
        "rulings",
        "event_id number",
        "event_id number entry_seq player rule offense penalties guideline_penalties effects follow_up "
        "needs_head_judge state deviation_reason draft scope kind trigger recorded_as round table_no "
        "judge recorded_at source explanation_ja explanation_en cause given_at",
    ),
    _projection(
        "deadlines",
        "event_id ruling position",
        "event_id ruling position player due_kind minutes due_at round table_no remedy_ja remedy_en "
        "on_miss state closed_at",
    ),
    _projection("carried_losses", "event_id ruling position", "event_id ruling position player loss state"),
    _projection("statements", "event_id entry_seq", "event_id entry_seq ruling author author_role text"),
    _projection(
        "appeals",
        "event_id entry_seq",
        "event_id entry_seq ruling by reason outcome decision_reason",
    ),
    _projection(
        "calls",
        "event_id number",
        "event_id number round table_no reason state raised_by raised_at judge claimed_at escalated_by "
        "escalated_at resolved_by resolved_at outcome rulings proposed minutes extension_reason",
    ),
    _projection("deck_rules", "event_id", "event_id rules locked_at"),
    _projection(
        "decklists",
        "event_id entry_seq",
        "event_id entry_seq player version sections problems format source digest by_player reason "
        "submitted_by submitted_at",
    ),
    _projection(
        "deck_checks",
        "event_id entry_seq",
        "event_id entry_seq round table_no players judge started_at counts ended_at minutes findings "
        "extended corrected",
    ),
)

# The projection tables (and their indexes, which the projector's reads rely on) as
# SQLite creates them from the schema; no data, no constraints between tables.
SCRATCH_DDL = """
CREATE TABLE events (
    event_id INTEGER NOT NULL,
    uid VARCHAR(36) NOT NULL,
    name VARCHAR(200) NOT NULL,
    starts_on VARCHAR(10),
    ends_on VARCHAR(10),
    venue VARCHAR(200),
    rel INTEGER NOT NULL,
    guideline_id VARCHAR(100) NOT NULL,
    guideline_version VARCHAR(40) NOT NULL,
    head_judge VARCHAR(200) NOT NULL,
    confirmation_threshold VARCHAR(40) NOT NULL,
    current_round INTEGER NOT NULL,
    created_at VARCHAR(32) NOT NULL,
    round_minutes INTEGER,
    time_zone VARCHAR(64) NOT NULL,
    match_format VARCHAR(3),
    time_out VARCHAR(10),
    tiebreakers VARCHAR(60),
    format_seed INTEGER,
    playoff_round INTEGER,
    sealed_entry INTEGER,
    reopened_entry INTEGER,
    PRIMARY KEY (event_id),
    UNIQUE (uid)
);
CREATE TABLE judges (
    event_id INTEGER NOT NULL,
    name VARCHAR(200) NOT NULL,
    level INTEGER,
    role VARCHAR(20) NOT NULL,
    account VARCHAR(36),
    PRIMARY KEY (event_id, name)
);
CREATE TABLE players (
    event_id INTEGER NOT NULL,
    number VARCHAR(64) NOT NULL,
    name VARCHAR(200) NOT NULL,
    reading VARCHAR(200) NOT NULL,
    club VARCHAR(200),
    status VARCHAR(20) NOT NULL,
    status_ruling INTEGER,
    search TEXT NOT NULL,
    dropped_round INTEGER,
    PRIMARY KEY (event_id, number)
);
CREATE TABLE drafts (
    event_id INTEGER NOT NULL,
    name VARCHAR(100) NOT NULL,
    round INTEGER,
    PRIMARY KEY (event_id, name)
);
CREATE TABLE rounds (
    event_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    state VARCHAR(10) NOT NULL,
    ended_at VARCHAR(32),
    started_at VARCHAR(32),
    minutes INTEGER,
    seed INTEGER,
    PRIMARY KEY (event_id, number)
);
CREATE TABLE matches (
    event_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    player_a VARCHAR(64) NOT NULL,
    player_b VARCHAR(64),
    result VARCHAR(10),
    result_ruling INTEGER,
    ended_at VARCHAR(32),
    extensions INTEGER NOT NULL,
    PRIMARY KEY (event_id, round, table_no)
);
CREATE INDEX ix_matches_a ON matches (event_id, player_a);
CREATE INDEX ix_matches_b ON matches (event_id, player_b);
CREATE TABLE time_extensions (
    event_id INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    reason TEXT NOT NULL,
    judge VARCHAR(200) NOT NULL,
    given_at VARCHAR(32) NOT NULL,
    PRIMARY KEY (event_id, entry_seq)
);
CREATE TABLE duels (
    event_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    duel INTEGER NOT NULL,
    winner VARCHAR(64),
    cause_ruling INTEGER,
    PRIMARY KEY (event_id, round, table_no, duel)
);
CREATE TABLE rulings (
    event_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    player VARCHAR(200) NOT NULL,
    rule VARCHAR(80) NOT NULL,
    offense INTEGER,
    penalties TEXT NOT NULL,
    guideline_penalties TEXT NOT NULL,
    effects TEXT NOT NULL,
    follow_up BOOLEAN NOT NULL,
    needs_head_judge BOOLEAN NOT NULL,
    state VARCHAR(12) NOT NULL,
    deviation_reason TEXT,
    draft VARCHAR(100),
    scope VARCHAR(100) NOT NULL,
    kind VARCHAR(40),
    "trigger" VARCHAR(30) NOT NULL,
    recorded_as VARCHAR(80),
    round INTEGER,
    table_no INTEGER,
    judge VARCHAR(200) NOT NULL,
    recorded_at VARCHAR(32) NOT NULL,
    source TEXT NOT NULL,
    explanation_ja TEXT NOT NULL,
    explanation_en TEXT NOT NULL,
    cause INTEGER,
    given_at VARCHAR(32),
    PRIMARY KEY (event_id, number)
);
CREATE INDEX ix_rulings_entry ON rulings (event_id, entry_seq);
CREATE INDEX ix_rulings_player ON rulings (event_id, player);
CREATE TABLE deadlines (
    event_id INTEGER NOT NULL,
    ruling INTEGER NOT NULL,
    position INTEGER NOT NULL,
    player VARCHAR(200) NOT NULL,
    due_kind VARCHAR(20) NOT NULL,
    minutes INTEGER,
    due_at VARCHAR(32),
    round INTEGER,
    table_no INTEGER,
    remedy_ja TEXT NOT NULL,
    remedy_en TEXT NOT NULL,
    on_miss TEXT NOT NULL,
    state VARCHAR(10) NOT NULL,
    closed_at VARCHAR(32),
    PRIMARY KEY (event_id, ruling, position)
);
CREATE INDEX ix_deadlines_state ON deadlines (event_id, state);
CREATE TABLE carried_losses (
    event_id INTEGER NOT NULL,
    ruling INTEGER NOT NULL,
    position INTEGER NOT NULL,
    player VARCHAR(64) NOT NULL,
    loss VARCHAR(20) NOT NULL,
    state VARCHAR(10) NOT NULL,
    PRIMARY KEY (event_id, ruling, position)
);
CREATE TABLE statements (
    event_id INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    ruling INTEGER,
    author VARCHAR(200) NOT NULL,
    author_role VARCHAR(20) NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (event_id, entry_seq)
);
CREATE TABLE appeals (
    event_id INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    ruling INTEGER NOT NULL,
    "by" VARCHAR(200) NOT NULL,
    reason TEXT NOT NULL,
    outcome VARCHAR(12),
    decision_reason TEXT,
    PRIMARY KEY (event_id, entry_seq)
);
CREATE TABLE calls (
    event_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    reason VARCHAR(10),
    state VARCHAR(10) NOT NULL,
    raised_by VARCHAR(200) NOT NULL,
    raised_at VARCHAR(32) NOT NULL,
    judge VARCHAR(200),
    claimed_at VARCHAR(32),
    escalated_by VARCHAR(200),
    escalated_at VARCHAR(32),
    resolved_by VARCHAR(200),
    resolved_at VARCHAR(32),
    outcome VARCHAR(10),
    rulings TEXT NOT NULL,
    proposed INTEGER,
    minutes INTEGER,
    extension_reason TEXT,
    PRIMARY KEY (event_id, number)
);
CREATE INDEX ix_calls_state ON calls (event_id, state);
CREATE TABLE deck_rules (
    event_id INTEGER NOT NULL,
    rules TEXT NOT NULL,
    locked_at VARCHAR(32),
    PRIMARY KEY (event_id)
);
CREATE TABLE decklists (
    event_id INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    player VARCHAR(64) NOT NULL,
    version INTEGER NOT NULL,
    sections TEXT NOT NULL,
    problems TEXT NOT NULL,
    format VARCHAR(10) NOT NULL,
    source VARCHAR(200) NOT NULL,
    digest VARCHAR(64) NOT NULL,
    by_player BOOLEAN NOT NULL,
    reason TEXT,
    submitted_by VARCHAR(200) NOT NULL,
    submitted_at VARCHAR(32) NOT NULL,
    PRIMARY KEY (event_id, entry_seq)
);
CREATE INDEX ix_decklists_player ON decklists (event_id, player);
CREATE TABLE deck_checks (
    event_id INTEGER NOT NULL,
    entry_seq INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    players TEXT NOT NULL,
    judge VARCHAR(200) NOT NULL,
    started_at VARCHAR(32) NOT NULL,
    counts TEXT NOT NULL,
    ended_at VARCHAR(32),
    minutes INTEGER,
    findings TEXT,
    extended BOOLEAN,
    corrected TEXT NOT NULL,
    PRIMARY KEY (event_id, entry_seq)
);
CREATE INDEX ix_deck_checks_table ON deck_checks (event_id, round, table_no);
"""

# Every table, in the schema's order (alembic_version, Alembic's own, is granted apart).
APP_TABLES = (
    "app_settings",
    "appeals",
    "calls",
    "carried_losses",
    "deadlines",
    "deck_checks",
    "deck_rules",
    "decklists",
    "drafts",
    "duels",
    "entries",
    "events",
    "invitations",
    "judges",
    "login_failures",
    "matches",
    "players",
    "rounds",
    "rulings",
    "sessions",
    "statements",
    "time_extensions",
    "users",
)
