"""The service registry finds every origin without services importing synthesis, and a service's
collections are declared once (`tables`), with the state model derived from them."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from typing_extensions import TypedDict

from compoworld.services import Collection, Service, registry, tool
from compoworld.services.environment import Environment, generated_state
from compoworld.services.registry import library_services
from compoworld.services.library._types import Text, Title
from compoworld.services.library.crm import Company, Crm

ROOT = Path(__file__).resolve().parents[1]

# A cache holding one compiled service, then a fresh process that asks only the registry for it.
_PROBE = """
from compoworld.synthesis.cache import CacheEntry, save
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import _server

tools = [{"name": "create_memo", "description": "Create a memo.",
          "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}]
spec, _ = _server({"id": "t/memos", "name": "Memos", "tools": tools}, "k", "inline")
save([CacheEntry(plan=infer_plan(spec, "memos"), verified=True)])
"""
_LOOKUP = """
import json
from compoworld.services.registry import all_services, get_service
out = {"compiled": sorted(all_services("compiled")), "origin": get_service("memos").origin,
       "library_only": "memos" in all_services("library"), "crm": get_service("crm").origin}
print(json.dumps(out))
"""


def _run(code: str, cache: Path) -> str:
    env = {**os.environ, "COMPOWORLD_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_compiled_services_are_found_by_a_caller_that_never_imports_synthesis(tmp_path: Path) -> None:
    _run(_PROBE, tmp_path)
    found = json.loads(_run(_LOOKUP, tmp_path).strip().splitlines()[-1])
    assert found == {"compiled": ["memos"], "origin": "compiled", "library_only": False, "crm": "library"}


def test_a_registered_origin_is_listed_and_looked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    class Extra(Service):
        name = "extra_origin_probe"

    monkeypatch.setitem(registry._LOADERS, "extra", lambda: {Extra.name: Extra})
    assert registry.all_services("extra") == {Extra.name: Extra}
    assert Extra.name in registry.all_services("all") and "crm" in registry.all_services("all")
    assert registry.get_service(Extra.name) is Extra
    with pytest.raises(KeyError):
        registry.get_service("no_such_service")


def test_the_state_model_is_derived_from_the_collections() -> None:
    assert Crm.tables["companies"] == Collection(Company, "company", "co")
    assert list(Crm.State.model_fields) == list(Crm.tables)
    assert Crm.State.__name__ == "CrmState" and Crm.State is Crm.State  # built once, kept on the class
    state = generated_state(Crm, 3)
    assert Crm.validate_state(state) == state
    broken = {"companies": {"co_0001": {**state["companies"]["co_0001"], "tier": "galactic"}}}
    with pytest.raises(ValidationError):
        Crm.validate_state(broken)


@pytest.mark.parametrize("name", sorted(library_services()))
def test_seeded_records_are_what_the_state_model_gives_back(name: str) -> None:
    """An environment given a state validates only the records that are not the seeded ones themselves
    (a task's plants): that is the same only because seeded records come out of the state model as
    they went in."""
    cls = library_services()[name]
    for seed in (0, 5):
        state = generated_state(cls, seed)
        assert cls.validate_state(state) == state


def test_a_given_state_is_checked_where_it_differs_from_the_seeded_world() -> None:
    seeded = generated_state(Crm, 3)
    first = next(iter(seeded["companies"].values()))
    planted = {**first, "id": "co_0900", "name": "Planted Co"}
    env = Environment([Crm], seed=3, initial_state={"crm": {**seeded, "companies": {**seeded["companies"], "co_0900": planted}}})
    assert env.state()["crm"]["companies"]["co_0900"] == planted
    assert env.state()["crm"]["companies"][first["id"]] is first  # seeded records are shared, not copied
    bad = {**planted, "tier": "galactic"}
    with pytest.raises(ValidationError):
        Environment([Crm], seed=3, initial_state={"crm": {**seeded, "companies": {**seeded["companies"], "co_0900": bad}}})
    with pytest.raises(ValidationError):  # a seeded id given another record is checked too
        Environment([Crm], seed=3, initial_state={"crm": {**seeded, "companies": {**seeded["companies"], first["id"]: {**first, "tier": "galactic"}}}})


def test_a_state_hash_follows_the_content_not_the_cached_dicts() -> None:
    """`state_hash` keeps each collection's digest by the rows' identity: a write after a snapshot
    must show in the next hash, the hash of the old snapshot must not change, and equal states held
    in other dicts hash the same."""
    from compoworld.services.environment import state_hash

    env = Environment([Crm], seed=4)
    before = env.state()
    h0 = state_hash(before)
    assert h0 == env.state_hash() == state_hash(json.loads(json.dumps(before)))  # copies: the same content
    company = next(iter(before["crm"]["companies"]))
    assert env.step({"name": "crm__create_contact",
                     "arguments": {"company_id": company, "name": "Ana Lima", "email": "ana.lima@example.org"}}).ok
    after = env.state()
    assert state_hash(after) == env.state_hash() == state_hash(json.loads(json.dumps(after))) != h0
    assert state_hash(before) == h0  # the snapshot taken before is as it was
    assert Environment([Crm], seed=4).state_hash() == h0  # a fresh world of the same seed
    assert state_hash({}) != state_hash({"crm": {}}) != state_hash({"crm": {"contacts": {}}})


class Memo(TypedDict):
    id: str
    title: Title
    body: Text


class Memos(Service):
    name = "memos_probe"
    tables = {"memos": Collection(Memo, "memo", "memo"), "drafts": Collection(dict[str, Any], "draft", "dr")}

    @tool
    def add_memo(self, title: Title, body: Text = "") -> Memo:
        """Add a memo.

        Args:
            title: The memo's title.
            body: The memo's text.
        """
        return self.db["memos"].insert({"title": title, "body": body})


def test_tables_name_the_entity_and_id_prefix_of_each_collection() -> None:
    env = Environment([Memos], seed=0)
    obs = env.step({"name": "memos_probe__add_memo", "arguments": {"title": "Hello"}})
    assert obs.ok and obs.data["id"] == "memo_0001", obs
    missing = env.services["memos_probe"].db["drafts"]
    assert (missing.entity, missing.prefix) == ("draft", "dr")
    assert list(Memos.State.model_fields) == ["memos", "drafts"]
    assert "add_memo" in Memos.tool_specs() and "State" not in Memos.tool_specs()
