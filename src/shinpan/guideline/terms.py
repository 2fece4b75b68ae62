"""The two words of a penalty the type checker keeps apart.

A component's (or an effect's) **code** is what its guideline file calls it: ``warning1``,
``disqualification`` in the shipped file, ``caution1``, ``expulsion`` or anything in another.
What it **does** to the event (an :class:`Act`) is the meaning the file declares for it
(``acts_as``: a :class:`shinpan.guideline.model.Meaning`'s value), or "" for nothing the
engine applies. Only :meth:`shinpan.guideline.Rulebook.acts` turns codes into acts; the
engine's rules take acts, so passing codes where acts are due fails ``mypy``.
"""

from __future__ import annotations

from typing import NewType

ComponentCode = NewType("ComponentCode", str)
Act = NewType("Act", str)

NO_ACT = Act("")  # a component the engine applies nothing of (a warning, no_mulligan…)
