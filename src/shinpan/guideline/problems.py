"""What is wrong with a guideline file: each problem, and the error that lists them all.

Apart from the checks (:mod:`shinpan.guideline.check`) and the parser
(:mod:`shinpan.guideline.load`), so that a command that takes a guideline from the cache
can name the error it would tell without loading either.
"""

from __future__ import annotations

from dataclasses import dataclass

from shinpan.errors import InvalidInput


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a guideline file: where (file and field path) and what."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


class GuidelineError(InvalidInput):
    """A guideline file that cannot be used, with every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems).replace("{", "{{").replace("}", "}}"))
