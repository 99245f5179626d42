"""Verification of services: library services, a sample of compiled corpus services, services with
planted defects (each check must be able to fail), and the coder path with LiteLLM mock responses."""

import json
from pathlib import Path
from typing import Any

import pytest
from typing_extensions import TypedDict

from compoworld.services import Collection, Service, tool
from compoworld.services.library._types import Id, Limit, Offset, Page, Query, Text, Title, matches, page
from compoworld.services.registry import library_services
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import _server
from compoworld.synthesis.verify import ServiceVerdict, verify_service

LIB = library_services()


def _failed(v: ServiceVerdict) -> dict[tuple[str | None, str], str]:
    return {(c.tool, c.check): c.detail for c in v.checks if c.status == "fail"}


# -- library services ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(LIB))
def test_library_service_verifies(name: str) -> None:
    v = verify_service(LIB[name])
    assert v.checks and all(c.service == name for c in v.checks)
    assert {"schema", "invalid_args", "smoke", "determinism", "state_roundtrip"} <= {c.check for c in v.checks}
    assert v.verified, _failed(v)


def test_crm_round_trips_are_exercised() -> None:
    v = verify_service(LIB["crm"])
    passed = {(c.tool, c.check) for c in v.checks if c.status == "pass"}
    assert ("get_contact", "create_read") in passed
    assert ("search_contacts", "list_finds_created") in passed
    assert ("delete_contact", "delete") in passed
    assert ("update_contact", "update_read") in passed
    rows = [c.model_dump() for c in v.checks]
    assert set(rows[0]) == {"service", "tool", "check", "passed", "status", "detail"}


# -- compiled services -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_sample() -> list[Any]:
    from compoworld.synthesis.loader import load_specs
    from compoworld.synthesis.pipeline import service_names

    loaded = load_specs()
    if not loaded.servers:
        pytest.skip("the shipped corpus is not available")
    names = service_names(loaded.servers, set(LIB))
    step = max(1, len(loaded.servers) // 30)
    return [(s, n) for s, n in list(zip(loaded.servers, names))[::step]]


def test_a_sample_of_compiled_corpus_services_verifies(corpus_sample: list[Any]) -> None:
    failures = {}
    kinds = set()
    for server, name in corpus_sample:
        plan = infer_plan(server, name)
        v = verify_service(build_service(plan))
        kinds |= {c.check for c in v.checks if c.status == "pass"}
        if not v.verified:
            failures[name] = _failed(v)
    assert len(failures) <= len(corpus_sample) // 20, failures
    assert {"create_read", "list_finds_created", "output_schema", "invalid_args", "determinism", "state_roundtrip"} <= kinds


# -- planted defects: every kind of check can fail ------------------------------------------------------

# records of services defined inside functions: their TypedDicts name local types pydantic cannot resolve
ANY_NOTES = {"notes": Collection(dict[str, Any], "note", "note")}


def _notes_service(defect: str) -> type[Service]:
    """A small correct notes service, with one planted defect."""
    NoteId = Id(f"defects_{defect}", "note")  # noqa: N806 - a type alias scoped to this service

    class Note(TypedDict):
        id: NoteId  # type: ignore[valid-type]
        title: Title
        body: Text

    class Notes(Service):
        name = f"defects_{defect}"
        description = "Notes with a planted defect."
        tables = ANY_NOTES

        def generate(self, gen: Any) -> dict[str, list[dict[str, Any]]]:
            return {"notes": [{"title": gen.title(), "body": gen.sentence()} for _ in range(4)]}

        @tool
        def create_note(self, title: Title, body: Text = "") -> Note:
            """Create a note.

            Args:
                title: Title.
                body: Body.
            """
            row = self.db["notes"].insert({"title": title, "body": body})
            if defect == "output":
                return {"id": row["id"], "title": 5}  # type: ignore[typeddict-item]
            return row

        @tool(read_only=True)
        def get_note(self, note_id: NoteId) -> Note:
            """Get a note.

            Args:
                note_id: The note.
            """
            if defect == "get":
                return next(iter(self.db["notes"]))
            if defect == "read_only":
                self.db["notes"].update(note_id, body="touched")
            return self.db["notes"].require(note_id)

        @tool(read_only=True)
        def list_notes(self, query: Query = "", limit: Limit = 20, offset: Offset = 0) -> Page[Note]:
            """List notes.

            Args:
                query: Words to match.
                limit: Maximum results.
                offset: Results to skip.
            """
            rows = [n for n in self.db["notes"] if matches(query, n["title"], n["body"])]
            if defect == "list":
                rows = rows[:3]
            if defect == "crash":
                raise KeyError("oops")
            return page(rows, limit, offset)

        @tool(destructive=True, idempotent=True)
        def delete_note(self, note_id: NoteId) -> Note:
            """Delete a note.

            Args:
                note_id: The note.
            """
            if defect == "delete":
                return self.db["notes"].require(note_id)
            return self.db["notes"].delete(note_id)

        @tool
        def stamp(self, note_id: NoteId) -> Note:
            """Stamp a note with a counter.

            Args:
                note_id: The note.
            """
            if defect == "nondeterministic":
                import time

                return self.db["notes"].update(note_id, body=str(time.perf_counter_ns()))
            return self.db["notes"].update(note_id, body="stamped")

    return Notes


@pytest.mark.parametrize("defect, tool_name, check", [
    ("output", "create_note", "output_schema"),
    ("get", "get_note", "create_read"),
    ("read_only", "get_note", "read_only"),
    ("list", "list_notes", "list_finds_created"),
    ("crash", "list_notes", "smoke"),
    ("delete", "delete_note", "delete"),
    ("nondeterministic", None, "determinism"),
])
def test_planted_defects_fail_their_check(defect: str, tool_name: str | None, check: str) -> None:
    clean = verify_service(_notes_service("none"))
    assert clean.verified, _failed(clean)
    v = verify_service(_notes_service(defect))
    assert not v.verified
    assert (tool_name, check) in _failed(v), _failed(v)


def test_a_tool_that_does_not_validate_its_arguments_fails_invalid_args() -> None:
    import dataclasses

    class LaxNote(TypedDict):
        id: str
        title: Title
        body: Text

    class Lax(Service):
        name = "defects_lax"
        tables = ANY_NOTES

        @tool
        def add(self, title: Title) -> LaxNote:
            """Add a note.

            Args:
                title: Title.
            """
            return self.db["notes"].insert({"title": title, "body": ""})

    assert verify_service(Lax).verified
    Lax._specs = {"add": dataclasses.replace(Lax._specs["add"], validate=lambda arguments: arguments)}
    v = verify_service(Lax)
    assert ("add", "invalid_args") in _failed(v), _failed(v)


# -- coder path (LiteLLM mock responses) ---------------------------------------------------------------

NOTES_SPEC = [
    {"name": "create_note", "description": "Create a note.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "body": {"type": "string"}}, "required": ["title"]}},
    {"name": "get_note", "description": "Get a note.", "inputSchema": {"type": "object", "properties": {"note_id": {"type": "string"}}, "required": ["note_id"]}},
    {"name": "list_notes", "description": "List notes.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}, "offset": {"type": "integer"}}}},
    {"name": "delete_note", "description": "Delete a note.", "inputSchema": {"type": "object", "properties": {"note_id": {"type": "string"}}, "required": ["note_id"]}},
]

GOOD_CODE = '''
from typing import Any
from typing_extensions import TypedDict
from compoworld.services import Collection, Service, tool
from compoworld.services.library._types import Id, Limit, Offset, Page, Query, Text, Title, matches, page

NoteId = Id("notes_box", "note")


class Note(TypedDict):
    id: NoteId
    title: Title
    body: Text
    created_at: str


class NotesBox(Service):
    name = "notes_box"
    domain = "productivity"
    description = "A box of notes."
    tables = {"notes": Collection(Note, "note", "note")}

    def generate(self, gen: Any) -> dict[str, list[dict[str, Any]]]:
        return {"notes": [{"title": gen.title(), "body": gen.sentence(), "created_at": gen.datetime(-30, -1)} for _ in range(5)]}

    @tool
    def create_note(self, title: Title, body: Text = "") -> Note:
        """Create a note.

        Args:
            title: Title.
            body: Body text.
        """
        return self.db["notes"].insert({"title": title, "body": body, "created_at": self.now()})

    @tool(read_only=True)
    def get_note(self, note_id: NoteId) -> Note:
        """Get a note.

        Args:
            note_id: The note.
        """
        return self.db["notes"].require(note_id)

    @tool(read_only=True)
    def list_notes(self, query: Query = "", limit: Limit = 20, offset: Offset = 0) -> Page[Note]:
        """List notes, newest first.

        Args:
            query: Words to match in title or body.
            limit: Maximum results.
            offset: Results to skip.
        """
        rows = [n for n in self.db["notes"] if matches(query, n["title"], n["body"])]
        rows.sort(key=lambda n: n["created_at"], reverse=True)
        return page(rows, limit, offset)

    @tool(destructive=True, idempotent=True)
    def delete_note(self, note_id: NoteId) -> Note:
        """Delete a note.

        Args:
            note_id: The note.
        """
        return self.db["notes"].delete(note_id)
'''
BROKEN_CODE = GOOD_CODE.replace('return self.db["notes"].require(note_id)', 'return next(iter(self.db["notes"]))')
NETWORK_CODE = "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)\n" + GOOD_CODE


@pytest.fixture(scope="module")
def notes_plan() -> Any:
    spec, _ = _server({"id": "t/notes", "name": "Notes Box", "tools": NOTES_SPEC}, "k", "inline")
    assert spec is not None
    return infer_plan(spec, "notes_box")


def test_coder_accepts_a_correct_service_and_rejects_a_broken_one(notes_plan: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from compoworld.synthesis.cache import CacheEntry, load_compiled, save
    from compoworld.synthesis.coder import code_service, improve_services

    monkeypatch.setenv("COMPOWORLD_CACHE_DIR", str(tmp_path))
    good, code = code_service(notes_plan, "openai/gpt-4o-mini", mock_response=f"Here it is:\n```python\n{GOOD_CODE}\n```")
    assert good.accepted and code is not None and "class NotesBox" in code, good
    bad, none = code_service(notes_plan, "openai/gpt-4o-mini", mock_response=f"```python\n{BROKEN_CODE}\n```")
    assert not bad.accepted and none is None
    assert any(c.check == "create_read" and c.tool == "get_note" for c in bad.failed_checks), bad
    net, _ = code_service(notes_plan, "openai/gpt-4o-mini", mock_response=f"```python\n{NETWORK_CODE}\n```")
    assert not net.accepted and "blocked in the coder sandbox" in net.detail

    outcomes, accepted = improve_services([notes_plan], "openai/gpt-4o-mini", tmp_path / "synth",
                                          mock_response=f"```python\n{GOOD_CODE}\n```")
    assert accepted == {"notes_box": "coded/notes_box.py"} and outcomes[0].accepted
    save([CacheEntry(plan=notes_plan, verified=True, synthesis="coder", code_file=accepted["notes_box"])], directory=tmp_path / "synth")
    cls = load_compiled(directory=tmp_path / "synth")["notes_box"]
    assert cls.origin == "compiled" and getattr(cls, "synthesis") == "coder" and cls.__name__ == "NotesBox"


def test_coder_prompt_carries_spec_and_plan(notes_plan: Any) -> None:
    from compoworld.synthesis.coder import extract_code, prompt

    msgs = prompt(notes_plan)
    body = json.loads(msgs[1]["content"])
    assert [t["name"] for t in body["tools"]] == ["create_note", "get_note", "list_notes", "delete_note"]
    assert body["service_name"] == "notes_box" and "class Crm(Service)" in msgs[0]["content"]
    assert extract_code("text\n```python\nx = 1\n```\nmore") == "x = 1\n"


# -- the whole corpus (the figures) ---------------------------------------------------------------

@pytest.mark.integration
def test_whole_corpus_figures(tmp_path: Path) -> None:
    from compoworld.synthesis import run_synth

    report = run_synth(None, workers=2, cache_directory=tmp_path / "synth")
    s = report.summary()
    assert s["servers_unique"] == 999 and s["tools_unique"] == 7662
    assert s["services_compiled"] >= 950 and s["tools_compiled"] >= 7000
    assert s["tools_deterministic"] / s["tools_compiled"] >= 0.85
    assert s["services_verified"] / s["services_compiled"] >= 0.95
    # issue 12: the share of compiled tools that pass every fidelity check that applies, and of simulated
    # ones. The issue asks for 80% faithful; 74.9% is measured (5,723 of 7,642; bench/synth.py prints the
    # figures), so this floor guards what is reached, not the target. It was 0.75 until 30 updates that
    # refused every call ("nothing it can update") stopped counting as faithful. Simulated is 12.8% since
    # reads of placeholder records nothing writes became world-model tools (they had been structural).
    assert sum(s["fidelity"].values()) == s["tools_compiled"]
    assert s["fidelity"]["faithful"] / s["tools_compiled"] >= 0.745
    assert s["fidelity"]["simulated"] / s["tools_compiled"] <= 0.15
