"""The JSON API holds to its OpenAPI document (schemathesis, bounded): for generated calls to
every operation, signed in as the head judge with a valid CSRF token, no server error, every
status and content type documented, every body of the documented shape. SQLite and PostgreSQL.

And the document is as strict as the validation: calls made from it
as valid, to the head judge's own event, are not "mostly rejected" (schemathesis' warning:
every one refused, and for what it holds rather than for a missing resource) by any operation.

The first test runs in ``PARTS`` parts per database (every ``PARTS``-th operation of the
document), so that the two workers share them and no single test holds the end of the suite;
every operation is in exactly one part, with the examples it had. The second runs whole, in
the document's order: a part alone would ask for an appeal's decision in an event where no
appeal was ever filed, and every valid call would be refused for it.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.cli.commands.run.warnings import StatusCodeStatistic
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from shinpan.services import reopen
from shinpan.services.closed import seal_state_of
from web_support import World, worlds

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
PARTS = 4
# The live stream never ends by itself: schemathesis cuts each call to it at the read timeout
# (10 s unless told) and checks what came by then (status, headers, the events sent). Its
# first event comes at once, so its calls are cut after STREAM_SECONDS instead.
STREAM_SECONDS = 2.0


def _timeout(operation: Any) -> dict[str, float]:
    return {"timeout": STREAM_SECONDS} if operation.path.endswith("/stream") else {}


@pytest.fixture(scope="module")
def operations(fuzzed: World) -> list[Any]:
    """The API's operations in the order of its document as the app serves it (loaded once:
    the parts share the document and what schemathesis builds from it)."""
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", fuzzed.app)
    every = [result.ok() for result in schema.get_all_operations()]
    assert len(every) >= 25, "every operation of the API is in the document"
    return every


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def fuzzed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=2)


@pytest.mark.parametrize("part", range(PARTS))
def test_the_api_holds_to_its_openapi_document(fuzzed: World, operations: list[Any], part: int) -> None:
    head_judge = fuzzed.clients["head_judge"]
    headers, cookies = {"X-CSRF-Token": head_judge.csrf}, dict(head_judge.http.cookies)
    chosen = operations[part::PARTS]
    for operation, mode in itertools.product(chosen, GenerationMode):  # valid calls, and invalid ones

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def holds(case: Any) -> None:
            response = case.call(headers=headers, cookies=cookies, **_timeout(case.operation))
            case.validate_response(response, checks=CHECKS)

        try:
            holds()
        except Unsatisfiable:  # an operation with nothing to get wrong (no parameters, no body)
            assert mode is GenerationMode.NEGATIVE, operation.label


# What the document cannot say, so valid calls made from it are refused for what they hold:
# whether the event is sealed (a seal is made once; a reopening needs a seal first); a CSV file's grammar (its header's names, in Japanese or English, its encodings); a duel's
# winner, who must be one of the two players of the match at that table; a ruling's time at
# the table, within the last 12 hours (D21); each table named once in a change of pairings (a
# document can ask for distinct items, not for one field of theirs distinct); a judge call's
# table, which must have a match in the round being played (T14); a decklist's text in any
# of its formats, a deck rules' sections, the counts of a check under way (T13).
BEYOND_THE_DOCUMENT = {
    "POST /api/events/{event_id}/reopen",
    "POST /api/events/{event_id}/calls",
    "POST /api/events/{event_id}/decklists",
    "POST /api/events/{event_id}/decklists/correct",
    "POST /api/events/{event_id}/decklists/import",
    "POST /api/events/{event_id}/decklists/rules",
    "POST /api/events/{event_id}/deckchecks/count",
    "POST /api/events/{event_id}/pairings",
    "POST /api/events/{event_id}/players",
    "POST /api/events/{event_id}/rounds/{round_no}/pairings",
    "POST /api/events/{event_id}/results",
    "POST /api/events/{event_id}/rounds/end",  # which tables are open is the event's state, not the document's
    "POST /api/events/{event_id}/rulings",
}


def _statuses(operation: Any, fuzzed: World) -> tuple[dict[int, int], dict[int, str]]:
    """The statuses of valid calls made from the document, to the head judge's own event."""
    head_judge = fuzzed.clients["head_judge"]
    headers, cookies = {"X-CSRF-Token": head_judge.csrf}, dict(head_judge.http.cookies)
    statuses: collections.Counter[int] = collections.Counter()
    refusals: dict[int, str] = {}

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def count(case: Any) -> None:
        if case.path_parameters and "event_id" in case.path_parameters:
            case.path_parameters["event_id"] = fuzzed.event
        response = case.call(headers=headers, cookies=cookies, **_timeout(case.operation))
        statuses[response.status_code] += 1
        refusals.setdefault(response.status_code, response.content[:200].decode(errors="replace"))

    count()
    return dict(statuses), refusals


def _open(fuzzed: World) -> None:
    """The head judge's event open to commands: reopened if a call sealed it."""
    state = seal_state_of(fuzzed.db, fuzzed.event)
    if state is not None and state.sealed:
        reopen.reopen_event(fuzzed.db, fuzzed.event, "検査の続き")


def test_valid_calls_made_from_the_document_are_not_mostly_rejected(
    fuzzed: World, operations: list[Any]
) -> None:
    """In one run, in the document's order: an operation's valid calls find what the ones
    before it made (an appeal filed before its decision), as on the event's day."""
    rejected = {}
    for operation in operations:
        if (
            operation.label in BEYOND_THE_DOCUMENT
            or "/reports/" in operation.path
            or operation.path.endswith("/slip")
        ):
            continue  # the reports' parameters are enums and numbers: the test above holds them
        _open(fuzzed)  # a seal made by an earlier call (the test above, or /seal) closes the event
        statuses, refusals = _statuses(operation, fuzzed)
        found = StatusCodeStatistic(counts=statuses, total=sum(statuses.values()))
        if found.should_warn_about_validation_mismatch():  # schemathesis' own rule for the warning
            rejected[operation.label] = refusals
    assert rejected == {}, "the document allows what these refuse: say it in the document"
