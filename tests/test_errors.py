"""One exception tree: every error the engine, the guideline loader, the CSV reader and the
web layer raise is a ShinpanError that knows its HTTP status (errors.py draws the tree)."""

from __future__ import annotations

import pytest

from shinpan import errors
from shinpan.engine import RecordError, ScenarioError
from shinpan.engine.clock import ClockError, parse_given_at
from shinpan.files.csvio import CsvError, CsvProblem, CsvTooLarge, check_size
from shinpan.guideline.problems import GuidelineError, Problem
from shinpan.web.app import BodyTooLarge
from shinpan.web.auth import CsrfFailed, NotAllowed


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (RecordError("facts.kind", "not one of {kinds}", kinds="talking, noise"), 422),
        (ScenarioError(3, "unknown infraction {'x'}"), 422),
        (ClockError("future", "lies in the future"), 422),
        (GuidelineError([Problem("g.yaml", "components[0]", "unknown code {x}")]), 422),
        (CsvError([CsvProblem.of(2, None, "more", n=3)]), 422),
        (CsvTooLarge([CsvProblem.of(None, None, "more", n=1)]), 413),
        (BodyTooLarge(), 413),
        (NotAllowed("{judge} may not {action}", judge="佐藤", action="void"), 403),
        (CsrfFailed(), 403),
        (errors.NotSignedIn(), 401),
        (errors.TooManyAttempts(), 429),
    ],
)
def test_every_error_is_in_the_tree_with_its_status(error: errors.ShinpanError, status: int) -> None:
    assert isinstance(error, errors.ShinpanError)
    assert error.status == status
    assert error.render()  # renders, even with braces in what it quotes


def test_the_engine_s_errors_keep_their_words_and_stay_value_errors() -> None:
    e = RecordError("facts.kind", "not one of {kinds}", kinds="talking, noise")
    assert isinstance(e, ValueError)
    assert str(e) == "facts.kind: not one of talking, noise"
    assert (e.field, e.template, e.params) == (
        "facts.kind",
        "not one of {kinds}",
        {"kinds": "talking, noise"},
    )
    assert str(ScenarioError(3, "no such player 'Ｘ'")) == "event 3: no such player 'Ｘ'"
    with pytest.raises(errors.InvalidInput) as raised:
        parse_given_at("yesterday")
    assert raised.value.field == "given_at"


def test_a_csv_over_its_limit_is_refused_as_too_large() -> None:
    with pytest.raises(errors.TooLarge):
        check_size(10**9)
