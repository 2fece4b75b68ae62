"""The database's tables: the ledger, and the projections derived from it.

``entries`` is the ledger: append-only (the database refuses UPDATE and DELETE), one
hash chain per event. Every other table is a projection of the entries, rebuilt by
:mod:`shinpan.store.projector` and compared by ``shinpan rebuild`` / ``shinpan verify``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from shinpan.engine.clock import DEFAULT_TIME_ZONE

metadata = MetaData()


# The ledger. ``body`` and ``refs`` are canonical JSON; ``hash`` covers every column but
# the local ids (``id``, ``event_id``), so an exported chain verifies in another database.
entries = Table(
    "entries",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("event_id", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(40), nullable=False),
    Column("command_id", String(100)),
    Column("command_hash", String(64)),
    Column("actor", String(200), nullable=False),
    Column("recorded_at", String(32), nullable=False),
    Column("refs", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("event_id", "seq", name="uq_entries_event_seq"),
    UniqueConstraint("event_id", "command_id", name="uq_entries_event_command"),
)

events = Table(
    "events",
    metadata,
    Column("event_id", Integer, primary_key=True, autoincrement=False),
    Column("uid", String(36), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("starts_on", String(10)),
    Column("ends_on", String(10)),
    Column("venue", String(200)),
    Column("rel", Integer, nullable=False),
    Column("guideline_id", String(100), nullable=False),
    Column("guideline_version", String(40), nullable=False),
    Column("head_judge", String(200), nullable=False),
    Column("confirmation_threshold", String(40), nullable=False),
    Column("current_round", Integer, nullable=False, default=0),
    Column("created_at", String(32), nullable=False),
    Column("round_minutes", Integer),  # a round's length (None: the default, 50)
    Column("time_zone", String(64), nullable=False, default=DEFAULT_TIME_ZONE),  # every time shown
    # The format its last event.format entry chose (T7–T9; None: never chose, the defaults),
    # and the first playoff round (T10; None: no playoff), read on every result and standings.
    Column("match_format", String(3)),
    Column("time_out", String(10)),
    Column("tiebreakers", String(60)),
    Column("format_seed", Integer),
    Column("playoff_round", Integer),
    # The seal in force (its entry; None: never sealed, or reopened since) and the last
    # reopening's entry: every command reads them, a sealed event takes none.
    Column("sealed_entry", Integer),
    Column("reopened_entry", Integer),
)

judges = Table(
    "judges",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("name", String(200), primary_key=True),
    Column("level", Integer),
    Column("role", String(20), nullable=False),
    Column("account", String(36)),  # the seat's account (users.uid); None: not claimed yet
)

players = Table(
    "players",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("number", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("reading", String(200), nullable=False, default=""),
    Column("club", String(200)),
    Column("status", String(20), nullable=False, default="active"),
    Column("status_ruling", Integer),
    Column("search", Text, nullable=False, default=""),  # name, kana and romaji, normalised
    Column("dropped_round", Integer),  # dropped after this round (None: has not dropped)
)

drafts = Table(
    "drafts",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("name", String(100), primary_key=True),
    Column("round", Integer),
)

rounds = Table(
    "rounds",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("state", String(10), nullable=False),  # paired | started | ended
    Column("ended_at", String(32)),
    Column("started_at", String(32)),  # the round's clock (D21)
    Column("minutes", Integer),  # the round's length, from its start
    Column("seed", Integer),  # a Swiss pairing's seed, 0 to 2**31 - 1 (None: imported)
)

matches = Table(
    "matches",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("table_no", Integer, primary_key=True, autoincrement=False),
    Column("player_a", String(64), nullable=False),
    Column("player_b", String(64)),  # None: a bye
    Column("result", String(10)),  # a | b | draw | None while playing
    Column("result_ruling", Integer),  # the ruling that decided the result (match loss, draw)
    Column("ended_at", String(32)),
    Column("extensions", Integer, nullable=False, default=0),
    Index("ix_matches_a", "event_id", "player_a"),
    Index("ix_matches_b", "event_id", "player_b"),
)

# Time a judge gave one table (a judge call, a deck check): minutes after the round's time.
time_extensions = Table(
    "time_extensions",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("entry_seq", Integer, primary_key=True, autoincrement=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("minutes", Integer, nullable=False),
    Column("reason", Text, nullable=False),
    Column("judge", String(200), nullable=False),
    Column("given_at", String(32), nullable=False),
)

duels = Table(
    "duels",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("table_no", Integer, primary_key=True, autoincrement=False),
    Column("duel", Integer, primary_key=True, autoincrement=False),
    Column("winner", String(64)),
    Column("cause_ruling", Integer),  # the ruling whose duel loss decided it, if any
)

rulings = Table(
    "rulings",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("entry_seq", Integer, nullable=False),
    Column("player", String(200), nullable=False),
    Column("rule", String(80), nullable=False),
    Column("offense", Integer),
    Column("penalties", Text, nullable=False),
    Column("guideline_penalties", Text, nullable=False),
    Column("effects", Text, nullable=False),
    Column("follow_up", Boolean, nullable=False),
    Column("needs_head_judge", Boolean, nullable=False),
    Column("state", String(12), nullable=False),  # pending | confirmed | recorded | voided
    Column("deviation_reason", Text),
    Column("draft", String(100)),
    Column("scope", String(100), nullable=False),  # what the offence is counted in: "" or a draft
    Column("kind", String(40)),
    Column("trigger", String(30), nullable=False),
    Column("recorded_as", String(80)),
    Column("round", Integer),
    Column("table_no", Integer),
    Column("judge", String(200), nullable=False),
    Column("recorded_at", String(32), nullable=False),
    Column("source", Text, nullable=False),
    Column("explanation_ja", Text, nullable=False),
    Column("explanation_en", Text, nullable=False),
    Column("cause", Integer),  # an additional ruling (D3, D6): the ruling that triggered it (D16)
    Column("given_at", String(32)),  # when the ruling was given at the table (D21)
    Index("ix_rulings_player", "event_id", "player"),
    Index("ix_rulings_entry", "event_id", "entry_seq"),
)

deadlines = Table(
    "deadlines",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("ruling", Integer, primary_key=True, autoincrement=False),
    Column("position", Integer, primary_key=True, autoincrement=False),
    Column("player", String(200), nullable=False),
    Column("due_kind", String(20), nullable=False),
    Column("minutes", Integer),
    Column("due_at", String(32)),
    Column("round", Integer),
    Column("table_no", Integer),
    Column("remedy_ja", Text, nullable=False),
    Column("remedy_en", Text, nullable=False),
    Column("on_miss", Text, nullable=False),
    Column("state", String(10), nullable=False),  # pending | done | missed | cancelled
    Column("closed_at", String(32)),
    Index("ix_deadlines_state", "event_id", "state"),
)

# Losses that found no duel or match in progress wait for the player's next one (D10).
carried_losses = Table(
    "carried_losses",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("ruling", Integer, primary_key=True, autoincrement=False),
    Column("position", Integer, primary_key=True, autoincrement=False),
    Column("player", String(64), nullable=False),
    Column("loss", String(20), nullable=False),  # duel_loss | match_loss
    Column("state", String(10), nullable=False),  # waiting | applied | cancelled
)

statements = Table(
    "statements",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("entry_seq", Integer, primary_key=True, autoincrement=False),
    Column("ruling", Integer),
    Column("author", String(200), nullable=False),
    Column("author_role", String(20), nullable=False),  # player | opponent | witness | judge
    Column("text", Text, nullable=False),
)

appeals = Table(
    "appeals",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("entry_seq", Integer, primary_key=True, autoincrement=False),
    Column("ruling", Integer, nullable=False),
    Column("by", String(200), nullable=False),
    Column("reason", Text, nullable=False),
    Column("outcome", String(12)),  # None while open | upheld | overturned | changed
    Column("decision_reason", Text),
)

# Judge calls (T14): each call's moments, who acted, and the time the table got back.
calls = Table(
    "calls",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),  # its call.raised entry
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("reason", String(10)),  # rules | dispute | time | other
    Column("state", String(10), nullable=False),  # open | claimed | escalated | resolved
    Column("raised_by", String(200), nullable=False),
    Column("raised_at", String(32), nullable=False),
    Column("judge", String(200)),  # who claimed it
    Column("claimed_at", String(32)),
    Column("escalated_by", String(200)),
    Column("escalated_at", String(32)),
    Column("resolved_by", String(200)),
    Column("resolved_at", String(32)),
    Column("outcome", String(10)),  # none | ruling | appeal
    Column("rulings", Text, nullable=False),  # JSON: the rulings recorded from it and cited
    Column("proposed", Integer),  # minutes T14 proposed
    Column("minutes", Integer),  # minutes the judge gave
    Column("extension_reason", Text),
    Index("ix_calls_state", "event_id", "state"),
)

# T13: the event's deck rules and the lock, every version of every list, the deck checks.
deck_rules = Table(
    "deck_rules",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("rules", Text, nullable=False),  # the deck.rules entry's body, JSON
    Column("locked_at", String(32)),  # locked by hand (the lock at round 1 or a time is read)
)

decklists = Table(
    "decklists",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("entry_seq", Integer, primary_key=True, autoincrement=False),
    Column("player", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("sections", Text, nullable=False),  # {section: [[count, name, line], ...]}, JSON
    Column("problems", Text, nullable=False),  # [{line, ja, en}], JSON
    Column("format", String(10), nullable=False),
    Column("source", String(200), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("by_player", Boolean, nullable=False),
    Column("reason", Text),  # the head judge's, for a correction after the lock
    Column("submitted_by", String(200), nullable=False),
    Column("submitted_at", String(32), nullable=False),
    Index("ix_decklists_player", "event_id", "player"),
)

deck_checks = Table(
    "deck_checks",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("entry_seq", Integer, primary_key=True, autoincrement=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("players", Text, nullable=False),  # JSON list
    Column("judge", String(200), nullable=False),
    Column("started_at", String(32), nullable=False),
    Column("counts", Text, nullable=False),  # {player: {section: [[count, name, line]]}}, JSON
    Column("ended_at", String(32)),
    Column("minutes", Integer),
    Column("findings", Text),  # the deckcheck.ended entry's findings, JSON
    Column("extended", Boolean),
    Column("corrected", Text, nullable=False),  # players whose deck was marked corrected, JSON
    Index("ix_deck_checks_table", "event_id", "round", "table_no"),
)

# Accounts: the people who sign in. Not event records, so not in the ledger; what they do
# at an event is (entries carry the acting judge's name).
users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("level", Integer),
    Column("created_at", String(32), nullable=False),
    Column("uid", String(36)),  # how the ledger names the account: the same in every database
    # The installation's organisers read every event's rulings: the first account, and whom they name.
    Column("organiser", Boolean, nullable=False, default=False, server_default=false()),
    Index("ux_users_uid", "uid", unique=True),
)

# Signed-in sessions: the cookie carries the id, the database its hash; signing out deletes it.
sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("expires_at", String(32), nullable=False),
    # What its user sees in their list of sessions (the head judge, of their judges'):
    Column("started_at", String(32)),
    Column("last_seen", String(32)),
    Column("device", String(200)),  # the browser's own words (User-Agent), cut short
    Column("address", String(64)),  # where it signed in from
    Index("ix_sessions_user", "user_id"),
)

# Failed sign-ins, shared by every app process: the limit holds across workers.
login_failures = Table(
    "login_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(300), nullable=False),
    Column("at", String(32), nullable=False),
    Index("ix_login_failures_key", "key", "at"),
)

invitations = Table(
    "invitations",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("event_id", Integer, nullable=False),
    Column("role", String(20), nullable=False),
    Column("created_by", String(200), nullable=False),
    Column("expires_at", String(32), nullable=False),
    Column("used_at", String(32)),
    Column("used_by", String(200)),
    Column("seat", String(200)),  # a claim code: the judge's seat it gives its account
)

app_settings = Table(
    "app_settings",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("value", Text, nullable=False),
)

PROJECTIONS = (
    events,
    judges,
    players,
    drafts,
    rounds,
    matches,
    time_extensions,
    duels,
    rulings,
    deadlines,
    carried_losses,
    statements,
    appeals,
    calls,
    deck_rules,
    decklists,
    deck_checks,
)
