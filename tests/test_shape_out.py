"""The JSON API's models made from the services' and views' JSON shapes (issue 32): one
definition of a row, the OpenAPI document saying what the CLI's ``--json`` says."""

from __future__ import annotations

from typing import NotRequired, TypedDict

import pytest

from shinpan.web.openapi import ShapeOut


class _Row(TypedDict):
    rank: int | None
    player: str
    oomw: NotRequired[float]


def test_a_model_takes_the_shapes_keys_in_order_an_optional_one_null_when_absent() -> None:
    class RowOut(ShapeOut, shape=_Row, about={"rank": "null: not ranked"}):
        pass

    assert list(RowOut.model_fields) == ["rank", "player", "oomw"]
    assert (
        RowOut.model_fields["rank"].is_required()
        and RowOut.model_fields["rank"].description == "null: not ranked"
    )
    assert RowOut.model_validate({"rank": 1, "player": "A"}).model_dump() == {
        "rank": 1,
        "player": "A",
        "oomw": None,
    }
    schema = RowOut.model_json_schema(mode="serialization")
    assert schema["required"] == ["rank", "player"]
    assert schema["properties"]["oomw"]["anyOf"] == [{"type": "number"}, {"type": "null"}]


def test_a_key_the_shape_does_not_have_is_refused() -> None:
    with pytest.raises(TypeError, match="nope"):

        class _Wrong(ShapeOut, shape=_Row, about={"nope": "not a key"}):
            pass


def test_the_apis_twins_have_their_shapes_keys() -> None:
    from shinpan.services.publish import PublicationJson
    from shinpan.services.results import ResultThatStands, StandingDuel
    from shinpan.views.standings import StandingJson
    from shinpan.web import api_results, api_rounds, public

    twins = [
        (api_rounds.StandingOut, StandingJson),
        (api_results.StandingResult, ResultThatStands),
        (api_results.StandingDuel, StandingDuel),
        (public.PublishOut, PublicationJson),
    ]
    for model, shape in twins:
        assert list(model.model_fields) == list(shape.__annotations__), model.__name__
