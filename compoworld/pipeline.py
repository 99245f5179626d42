"""The whole factory in one process: services -> graph -> tasks -> rollouts -> rewards, into the warehouse.

Each stage writes its own part (named by stage and run), so rerunning rewrites rather than duplicates.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from compoworld.config import PipelineConfig
from compoworld.services.registry import all_services
from compoworld.tasks.factory import TaskConfig, generate
from compoworld.tasks.graph import build_graph, edge_records
from compoworld.tasks.records import criterion_key, task_rows
from compoworld.warehouse import Warehouse, dedupe

Log = Callable[[str], None]


def service_rows(classes: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    services, tools = [], []
    for name, cls in sorted(classes.items()):
        info = cls.info()
        sid = f"{name}@{cls.version}"
        services.append({"service_id": sid, "name": name, "version": cls.version, "origin": info["origin"], "domain": info["domain"],
                         "description": info["description"], "n_tools": info["n_tools"], "n_world_model_tools": info["n_world_model"],
                         "definition_json": info})
        for spec in cls.tool_specs().values():
            tools.append({"tool_id": f"{name}__{spec.name}", "service_id": sid, "service": name, "name": spec.name,
                          "description": spec.description, "kind": spec.kind, "read_only": spec.read_only,
                          "destructive": spec.destructive, "idempotent": spec.idempotent,
                          "input_schema_json": spec.input_schema, "output_schema_json": spec.output_schema,
                          "semantic_types_json": {"params": spec.param_semantics, "outputs": spec.output_semantics}})
    return {"services": services, "tools": tools}


def run_pipeline(cfg: PipelineConfig, wh: Warehouse, log: Log = print, progress: Callable[[int, str], Any] | None = None) -> dict[str, Any]:
    from compoworld.rollout.runner import collect, summarize
    from compoworld.rollout.agents import make_agent

    run_id = f"run-{cfg.digest()}"
    t0 = time.perf_counter()
    classes = all_services(cfg.services_from)
    for table, rows in service_rows(classes).items():
        wh.write(table, rows, run_id=run_id, part="all")
    log(f"services: {len(classes)} ({sum(len(c.tool_specs()) for c in classes.values())} tools)")

    graph = build_graph(classes.values())
    edges = [{"edge_id": f"{e['source_tool']}>{e['target_tool']}:{e['semantic_type']}", "src_service": e["source_service"],
              "src_tool": e["source_tool"], "dst_service": e["target_service"], "dst_tool": e["target_tool"],
              "semantic_type": e["semantic_type"]} for e in edge_records(graph)]
    wh.write("graph_edges", dedupe("graph_edges", edges), run_id=run_id, part="all")
    log(f"graph: {graph.number_of_nodes()} services, {len(edges)} typed edges")

    bar = progress(cfg.tasks, "tasks") if progress else None
    tasks, rejected, report = generate(TaskConfig(n=cfg.tasks, seed=cfg.seed, services_from=cfg.services_from),
                                       progress=bar.update if bar else None)
    if bar:
        bar.close()
    tables: dict[str, list[dict[str, Any]]] = {}
    for task in tasks:
        for table, rows in task_rows(task).items():
            tables.setdefault(table, []).extend(rows)
    for table, rows in tables.items():
        wh.write(table, dedupe(table, rows), run_id=run_id, part="all")
    for r in rejected:
        wh.record_failure("instantiate", f"task-{cfg.seed}-{r.index}", f"{r.phase}: {r.reason}", 1, run_id, reason=r.phase)
    log(f"tasks: {report.accepted} accepted of {report.designed} designed ({report.tasks_per_second}/s)")

    rubric_by_task = {t.id: {c.id: c for c in t.rubric} for t in tasks}
    summaries: dict[str, Any] = {}
    for spec in cfg.agents:
        agent = make_agent(spec, seed=cfg.seed)
        bar = progress(len(tasks) * cfg.group_size, f"rollouts ({spec})") if progress else None
        start = time.perf_counter()
        trajs = collect(tasks, agent, group_size=cfg.group_size, seed=cfg.seed, progress=bar.update if bar else None)
        if bar:
            bar.close()
        summary = summarize(trajs, seconds=time.perf_counter() - start)
        rewards = summary.pop("rewards")
        part = f"agent-{spec.replace(':', '-').replace('/', '-')}"
        wh.write("trajectories", [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "rollout_index": t.rollout_index,
            "agent": t.agent, "model": t.model or None, "n_steps": t.steps, "final_state_hash": t.final_state_hash,
            "success": t.success, "score": t.partial_credit, "messages_json": t.messages} for t in trajs], run_id=run_id, part=part)
        wh.write("trajectory_steps", [{"trajectory_id": t.id, "task_id": t.task_id, **s} for t in trajs for s in t.tool_steps()],
                 run_id=run_id, part=part)
        wh.write("criterion_results", [{
            "trajectory_id": t.id, "task_id": t.task_id, "group_id": t.group_id, "criterion_id": criterion_key(t.task_id, c.criterion_id),
            "kind": c.kind, "service": rubric_by_task[t.task_id][c.criterion_id].check.service or None, "passed": c.passed,
            "score": 1.0 if c.passed else 0.0} for t in trajs for c in t.criteria], run_id=run_id, part=part)
        wh.write("rewards", [{k: v for k, v in r.items() if k != "group"} for r in rewards], run_id=run_id, part=part)
        summaries[spec] = summary
        log(f"rollouts ({spec}): {summary['trajectories']} trajectories, success {summary['success_rate']:.1%}, "
            f"partial credit {summary['mean_partial_credit']:.3f}, {summary['steps_per_second']:,.0f} steps/s")
    return {"run_id": run_id, "warehouse": str(wh.root), "seconds": round(time.perf_counter() - t0, 1),
            "services": len(classes), "tasks": report.model_dump(), "rollouts": summaries, "stats": wh.stats()}
