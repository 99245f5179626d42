"""The columns of each dataset: Hugging Face `datasets` features and what each column means.

Free-form JSON (tool schemas, tool-call arguments, checks, initial states) uses the `Json` feature:
stored as JSON text in Parquet, decoded to Python objects on load. Arrow structs would merge the
keys of every row into one struct and fill the missing ones with nulls, which a chat template would
then render as `"key": null` arguments and schema fields that were never there.
"""

from __future__ import annotations

from typing import Any

from datasets import Features, Json, List, Value

MESSAGE = {
    "role": Value("string"),
    "content": Value("string"),
    "reasoning_content": Value("string"),
    "tool_calls": List({"id": Value("string"), "type": Value("string"),
                        "function": {"name": Value("string"), "arguments": Json()}}),
    "tool_call_id": Value("string"),
    "name": Value("string"),
}

SFT_FIELDS: dict[str, tuple[Any, str]] = {
    "id": (Value("string"), "content hash of (task id, messages): the row's identity after deduplication"),
    "messages": (List(MESSAGE), "the conversation: system, user, then assistant turns with `tool_calls` "
                                "(arguments as a JSON object) each answered by `tool` messages (`tool_call_id`, `name`)"),
    "tools": (List(Json()), "what the agent was given, as OpenAI function schemas: the environment's tool catalog "
                            "(`service__tool`, distractors included), or in gateway mode the four meta-tools"),
    "discover_mode": (Value("string"), "direct (every tool in `tools`) | gateway (list_services, list_tools, describe_tool "
                                       "and call_tool; the agent discovers the rest)"),
    "task_id": (Value("string"), "the task (content hash); join key to the RL dataset"),
    "trajectory_id": (Value("string"), "the warehouse trajectory this row was taken from (first of its duplicates)"),
    "agent": (Value("string"), "agent kind that produced it: reference | perturbed | litellm"),
    "model": (Value("string"), "model string for LLM agents, empty otherwise"),
    "services": (List(Value("string")), "services in the environment (sorted), distractors included"),
    "task_services": (List(Value("string")), "services the task connects, in first-visit order"),
    "domains": (List(Value("string")), "business domains of the connected services"),
    "difficulty": (Value("int64"), "walk length (number of service visits)"),
    "partial_credit": (Value("float64"), "fraction of rubric criteria passed"),
    "success": (Value("bool"), "every rubric criterion passed"),
    "n_steps": (Value("int64"), "tool calls made"),
    "n_duplicates": (Value("int64"), "identical rollouts collapsed into this row"),
    "source_run_id": (Value("string"), "warehouse run the trajectory came from"),
}

RL_FIELDS: dict[str, tuple[Any, str]] = {
    "task_id": (Value("string"), "the task (content hash)"),
    "prompt": (List({"role": Value("string"), "content": Value("string")}), "system prompt and the task instruction"),
    "tools": (List(Json()), "what the agent is given, as OpenAI function schemas: the environment's tool catalog "
                            "(`service__tool`, distractors included), or in gateway mode the four meta-tools"),
    "discover_mode": (Value("string"), "direct (every tool in `tools`) | gateway (list_services, list_tools, describe_tool "
                                       "and call_tool; the agent discovers the rest): pick the environment with it"),
    "services": (List(Value("string")), "services to compose into the environment (sorted), distractors included"),
    "task_services": (List(Value("string")), "services the task connects, in first-visit order"),
    "distractors": (List(Value("string")), "services present but not needed; a rubric criterion requires them untouched"),
    "domains": (List(Value("string")), "business domains of the connected services"),
    "difficulty": (Value("int64"), "walk length (number of service visits)"),
    "seed": (Value("int64"), "environment seed: every service's seeded records, clock and id sequence"),
    "initial_state": (Json(), "the task's records over the seeded state: service -> collection -> id -> record"),
    "initial_state_hash": (Value("string"), "canonical hash of the rebuilt initial state (check a rebuild against it)"),
    "rubric": (List({"id": Value("string"), "description": Value("string"), "kind": Value("string"),
                     "weight": Value("float64"), "check": Json()}),
               "rubric criteria, each with an executable check over the initial and final states"),
    "n_criteria": (Value("int64"), "rubric size"),
    "n_reference_steps": (Value("int64"), "tool calls in the reference solution (not included)"),
    "reference_final_hash": (Value("string"), "state hash the reference solution reaches"),
    "source_run_id": (Value("string"), "warehouse run the task came from"),
}

FIELDS = {"sft": SFT_FIELDS, "rl": RL_FIELDS}


def features(kind: str) -> Features:
    return Features({name: feat for name, (feat, _) in FIELDS[kind].items()})


def field_docs(kind: str) -> dict[str, str]:
    return {name: doc for name, (_, doc) in FIELDS[kind].items()}
