"""The files that come in and go out, in one place.

Two kinds, one layer each (``tests/test_layers.py`` holds it):

* The formats, read below the services: the players' and pairings' CSV (:mod:`.csvio`, its
  messages in :mod:`.csv_messages`), the decklist files (:mod:`.decklists`), the guideline
  files and their cache (:mod:`.guidelines`). They import neither the store nor the
  services, so a service (and the CLI's start) can use them without loading either.
* The event's file, beside the services: an event exported with every ledger entry and
  imported again (:mod:`.transfer`), its entries decided again by running their commands
  (:mod:`.reimport`; the rounds', the rulings' and the decklists' in :mod:`.reimport_rounds`,
  :mod:`.reimport_rulings`, :mod:`.reimport_decks`), its seals checked first
  (:mod:`.seals`). What is written to the ledger stays the services' (``run_command``);
  these only read and check the file.

The modules load when used (``from shinpan.files import csvio``).
"""

__all__ = [
    "csv_messages",
    "csvio",
    "decklists",
    "guidelines",
    "reimport",
    "reimport_decks",
    "reimport_rounds",
    "reimport_rulings",
    "seals",
    "transfer",
]
