"""The JSON API holds to its OpenAPI document (schemathesis, bounded): for generated calls to
every operation, signed in as the head judge with a valid CSRF token, no server error, every
status and content type documented, every body of the documented shape. SQLite and PostgreSQL.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from web_support import World, worlds

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def fuzzed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=2)


def test_the_api_holds_to_its_openapi_document(fuzzed: World) -> None:
    head_judge = fuzzed.clients["head_judge"]
    headers, cookies = {"X-CSRF-Token": head_judge.csrf}, dict(head_judge.http.cookies)
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", fuzzed.app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 25, "every operation of the API is in the document"
    for operation, mode in itertools.product(operations, GenerationMode):  # valid calls, and invalid ones

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def holds(case: Any) -> None:
            response = case.call(headers=headers, cookies=cookies)
            case.validate_response(response, checks=CHECKS)

        try:
            holds()
        except Unsatisfiable:  # an operation with nothing to get wrong (no parameters, no body)
            assert mode is GenerationMode.NEGATIVE, operation.label
