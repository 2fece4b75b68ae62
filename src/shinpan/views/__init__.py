"""The read side: what the CLI, the web app and the reports show, read from the store.

Each module here reads the store's typed rows in one read transaction and gives frozen
values (and their JSON); it lets the core compute what is the core's (the standings' ranks,
a ruling's meaning) and writes nothing. A view imports the store, the core, the guideline
files (:mod:`shinpan.files.guidelines`), the event as read
(:mod:`shinpan.services.context`) and the JSON shapes (:mod:`shinpan.services.shapes`), never
a command: no :mod:`shinpan.services.commands`, no ledger writer, no command service
(``tests/test_read_commands.py`` holds both: for each view, and for the read-only commands). The commands in
:mod:`shinpan.services` read views where they need what a view shows.

- :mod:`shinpan.views.events`: the list of events;
- :mod:`shinpan.views.history`: a player's history in an event; :mod:`shinpan.views.players`:
  a player as a search and the desk show them;
- :mod:`shinpan.views.rulings`: one ruling as every reader shows it (:class:`RulingView`);
- :mod:`shinpan.views.standings`: the standings after a round, and the event's format.
"""

__all__ = ["events", "history", "players", "rulings", "standings"]
