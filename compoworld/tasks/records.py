"""Tasks as warehouse rows (walks, tasks, rubric_criteria, reference_steps). Pure: no storage here."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from compoworld.tasks.model import Task


def _hash(value: Any) -> str:
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def criterion_key(task_id: str, criterion_id: str) -> str:
    return f"{task_id}:{criterion_id}"


def task_rows(task: Task) -> dict[str, list[dict[str, Any]]]:
    walk = task.walk.model_dump(mode="json")
    walk_id = "walk_" + _hash(walk)
    probe = next((p.detail for p in task.phases if p.phase == "probe"), {})
    return {
        "walks": [{
            "walk_id": walk_id, "seed": task.seed, "length": task.walk.length,
            "services_json": task.walk.services, "distractors_json": task.walk.distractors, "sequence_json": task.walk.visits,
        }],
        "tasks": [{
            "task_id": task.id, "walk_id": walk_id, "seed": task.seed, "instruction": task.instruction,
            "services_json": task.environment_services, "initial_state_json": task.initial_state,
            "initial_state_hash": probe.get("initial_state_hash"), "reference_final_hash": probe.get("final_state_hash"),
            "n_reference_steps": len(task.plan), "n_criteria": len(task.rubric),
            "checks_json": [c.check.model_dump(mode="json") for c in task.rubric], "difficulty": task.difficulty,
            "task_json": task.model_dump(mode="json"),
        }],
        "rubric_criteria": [{
            "task_id": task.id, "criterion_id": criterion_key(task.id, c.id), "ordinal": i, "kind": c.kind,
            "service": c.check.service or None, "description": c.description, "weight": c.weight,
            "check_json": c.check.model_dump(mode="json"),
        } for i, c in enumerate(task.rubric)],
        "reference_steps": [{
            "task_id": task.id, "step": i, "tool": s.tool, "arguments_json": s.arguments,
            "result_json": None, "is_error": False,
        } for i, s in enumerate(task.plan)],
    }
