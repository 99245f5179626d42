"""Graphs, walk draws and tasks as warehouse rows, and tasks back from rows. Pure: no storage here."""

from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

from compoworld.canonical import content_hash
from compoworld.tasks.graph import edge_records
from compoworld.tasks.model import Task, Walk, WalkDraw


def criterion_key(task_id: str, criterion_id: str) -> str:
    return f"{task_id}:{criterion_id}"


def graph_rows(graph: nx.DiGraph) -> list[dict[str, Any]]:
    """One `graph_edges` row per typed edge, in edge-id order, all carrying the graph's content id."""
    edges = sorted(({"edge_id": f"{e['source_tool']}>{e['target_tool']}:{e['semantic_type']}", "src_service": e["source_service"],
                     "src_tool": e["source_tool"], "dst_service": e["target_service"], "dst_tool": e["target_tool"],
                     "semantic_type": e["semantic_type"], "src_role": e["source_role"], "dst_role": e["target_role"]}
                    for e in edge_records(graph)), key=lambda e: e["edge_id"])
    unique: dict[str, dict[str, Any]] = {}
    for e in edges:
        unique.setdefault(e["edge_id"], e)
    edges = list(unique.values())
    gid = graph_id(edges)
    return [{**e, "graph_id": gid} for e in edges]


def graph_id(edges: list[dict[str, Any]]) -> str:
    # The id list is wrapped once more, as the first graph ids were: ids stay stable across versions.
    return "graph_" + content_hash([[e["edge_id"] for e in edges]])


def walk_rows(draws: Iterable[WalkDraw], seed: int, graph: str) -> list[dict[str, Any]]:
    return [{"walk_id": d.id, "task_index": d.index, "attempt": d.attempt, "graph_id": graph, "seed": seed, "world": d.world,
             "length": d.walk.length, "services_json": d.walk.services, "distractors_json": d.walk.distractors,
             "sequence_json": d.walk.visits, "walk_json": d.walk.model_dump(mode="json")} for d in draws]


def walks_from_rows(rows: Iterable[dict[str, Any]]) -> dict[int, list[WalkDraw]]:
    """Walk draws back from `walks` rows, per task index, in the order the designer tries them."""
    out: dict[int, list[WalkDraw]] = {}
    for r in sorted(rows, key=lambda r: (r["task_index"], r["attempt"])):
        walk = Walk.model_validate_json(r["walk_json"]) if isinstance(r["walk_json"], str) else Walk.model_validate(r["walk_json"])
        out.setdefault(r["task_index"], []).append(
            WalkDraw(id=r["walk_id"], index=r["task_index"], attempt=r["attempt"], walk=walk, world=r["world"]))
    return out


def task_rows(task: Task) -> dict[str, list[dict[str, Any]]]:
    probe = next((p.detail for p in task.phases if p.phase == "probe"), {})
    return {
        "tasks": [{
            "task_id": task.id, "task_index": task.index, "walk_id": task.walk_id, "seed": task.seed,
            "instruction": task.instruction, "services_json": task.environment_services, "initial_state_json": task.initial_state,
            "initial_state_hash": probe.get("initial_state_hash"), "reference_final_hash": probe.get("final_state_hash"),
            "n_reference_steps": len(task.plan), "n_criteria": len(task.rubric),
            "checks_json": [c.check.model_dump(mode="json") for c in task.rubric], "difficulty": task.difficulty,
            "capabilities_json": task.capabilities, "n_reference_calls": probe.get("calls"), "n_report_items": len(task.report),
            "mutants": probe.get("mutants"),
            "mutation_score": round(probe["killed"] / probe["mutants"], 4) if probe.get("mutants") else None,
            "task_json": task.model_dump(mode="json"),
        }],
        "rubric_criteria": [{
            "task_id": task.id, "criterion_id": criterion_key(task.id, c.id), "ordinal": i, "kind": c.kind,
            "service": c.check.service or None, "description": c.description, "weight": c.weight,
            "check_json": c.check.model_dump(mode="json"), "reads_answer": c.check.kind == "answer_mentions",
        } for i, c in enumerate(task.rubric)],
        "reference_steps": [{
            "task_id": task.id, "step": i, "tool": s.tool, "arguments_json": s.arguments, "purpose": s.purpose,
        } for i, s in enumerate(task.plan)],
    }


def tasks_from_rows(rows: Iterable[dict[str, Any]]) -> list[Task]:
    """Tasks back from `tasks` rows, in index order."""
    return sorted((Task.model_validate_json(r["task_json"]) for r in rows), key=lambda t: t.index)
