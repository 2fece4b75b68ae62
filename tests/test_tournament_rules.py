"""T1–T12 of tournament/RULES.md, decided by the pure tournament core: the rules a changed
line would break, told as a scorekeeper would tell them."""

from __future__ import annotations
