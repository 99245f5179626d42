"""Schema validation shortcuts agree with the validators they stand in for, and the memoized argument
pools of a state follow its writes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from compoworld.services.environment import Environment
from compoworld.services.json_schema import InvalidValue, compile_validator, fits, validate_once
from compoworld.services.registry import all_services
from compoworld.services.sampling import _pools, schema_arguments

VALUES: list[Any] = ["text", "", 0, 7, -3, 2.0, 2.5, float("nan"), 10**30, True, False, None, [], [1, "a"], {}, {"a": 1}]
SCHEMAS: list[dict[str, Any]] = [
    {}, {"description": "anything"}, {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"},
    {"type": "null"}, {"type": "array"}, {"type": "object", "title": "T"}, {"type": ["string", "null"]},
    {"type": ["integer", "boolean"]}, {"type": ["number", "array", "null"], "default": 1},
    # not plain: the fast path must leave these to the validator
    {"type": "string", "minLength": 1}, {"type": "string", "format": "date-time"}, {"type": "integer", "minimum": 1},
    {"enum": [1, "a"]}, {"type": "object", "required": ["a"]}, {"type": "array", "items": {"type": "string"}},
]


def _compiled_verdict(schema: dict[str, Any], value: Any) -> bool:
    try:
        compile_validator(schema)(value)
        return True
    except InvalidValue:
        return False


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: str(s))
def test_fits_gives_the_compiled_validators_verdict(schema: dict[str, Any]) -> None:
    # `fits` decides plain type schemas without building a validator; its verdicts must be the validator's
    assert [fits(schema, v) for v in VALUES] == [_compiled_verdict(schema, v) for v in VALUES]


ONE_USE: list[tuple[dict[str, Any], Any]] = [
    ({"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}, "required": ["when"]},
     {"when": "2026-03-01T09:30:00Z"}),
    ({"type": "object", "properties": {"when": {"type": "string", "format": "date-time"}}, "required": ["when"]},
     {"when": "yesterday"}),
    ({"type": "object", "properties": {"when": {"type": "string"}}, "required": ["when"]}, {}),
    ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "additionalProperties": False}, {"n": 0}),
    ({"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False}, {"n": 3, "m": 1}),
    ({"type": "array", "items": {"enum": ["open", "closed"]}}, ["open", "closed"]),
    ({"type": "array", "items": {"enum": ["open", "closed"]}}, ["open", "pending"]),
    ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"e": {"format": "email"}}},
     {"e": "not an address"}),
    ({"type": "object", "properties": {"c": {"format": "x-internal-code"}}}, {"c": "anything goes"}),
]


@pytest.mark.parametrize("schema,value", ONE_USE)
def test_validate_once_gives_the_compiled_validators_verdict(schema: dict[str, Any], value: Any) -> None:
    expected = _compiled_verdict(schema, value)
    if expected:
        assert validate_once(schema, value) is value
    else:
        with pytest.raises(InvalidValue) as err:
            validate_once(schema, value)
        assert "does not match the schema" not in err.value.message("field")  # it says which part is wrong


def test_argument_pools_are_shared_by_equal_states_and_follow_writes() -> None:
    crm = all_services("library")["crm"]
    a, b = Environment([crm], seed=5), Environment([crm], seed=5)
    ids_a, values_a = _pools(a, "crm")
    ids_b, values_b = _pools(b, "crm")
    assert ids_a is ids_b and values_a is values_b  # the same seeded rows: computed once
    assert ids_a["crm.activity_id"] == []
    spec = crm.tool_specs()["log_activity"]
    args = schema_arguments(spec, a, "crm", random.Random(0))
    assert args is not None
    obs = a.step({"name": "crm__log_activity", "arguments": args})
    assert obs.ok, obs.error
    ids_after, values_after = _pools(a, "crm")
    assert ids_after["crm.activity_id"] == [obs.data["id"]]
    assert _pools(b, "crm")[0]["crm.activity_id"] == []  # the other environment's state did not change
    summary = obs.data["summary"]
    assert summary in values_after["summary"] and summary not in (values_a.get("summary") or [])


def test_the_sampling_fallback_is_recognized_where_it_lands() -> None:
    # what sampling answers for a parameter nothing describes ("X label 303") is found in a value,
    # a list or an object, so the designer never asks an agent to type it
    from compoworld.services.sampling import _Sampler, is_fallback_value

    crm = all_services("library")["crm"]
    sampler = _Sampler(Environment([crm], seed=0), random.Random(3), {}, "crm")
    label = sampler.value("x_label", {"type": "string"}, None)
    recipients = sampler.value("to", {"type": "array", "items": {"type": "string"}}, None)
    body = sampler.value("payload", {"type": "object", "properties": {"source": {"type": "string"}}, "required": ["source"]}, None)
    assert is_fallback_value("x_label", label) and is_fallback_value("to", recipients) and is_fallback_value("payload", body)
    assert not is_fallback_value("x_label", "Month") and not is_fallback_value("to", ["ana@example.com"])
    assert not is_fallback_value("source", "Source 52") and not is_fallback_value("title", "X label 303")


def test_sampled_coordinates_are_places_on_earth() -> None:
    # A hotel search took latitude 213.0 and longitude 291.0: a number parameter named as a coordinate
    # is drawn within the Earth's ranges (and the schema's own bounds).
    from compoworld.services.sampling import _Sampler

    sampler = _Sampler(Environment([], seed=0), random.Random(3), {}, None)
    lats = [sampler.value(n, {"type": "number"}, None) for n in ("lat", "latitude", "originLat") for _ in range(30)]
    lons = [sampler.value(n, {"type": "number"}, None) for n in ("lng", "longitude", "center_lon") for _ in range(30)]
    assert all(-90 <= v <= 90 for v in lats) and all(-180 <= v <= 180 for v in lons)
    assert any(v < 0 for v in lons) and len(set(lats)) > 20  # spread over the globe, not one spot
    bounded = [sampler.value("latitude", {"type": "number", "minimum": 40, "maximum": 41}, None) for _ in range(20)]
    assert all(40 <= v <= 41 for v in bounded)
    assert isinstance(sampler.value("lat", {"type": "integer"}, None), int)
