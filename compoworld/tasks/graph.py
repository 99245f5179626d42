"""The service dependency graph: A -> B where a value of some semantic type that A reveals is
consumed by B (written by one of its actions, or used to look a record up)."""

from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

from compoworld.services.service import Service
from compoworld.tasks.explore import ServiceProfile, profile


def build_graph(services: Iterable[type[Service]]) -> nx.DiGraph:
    """Nodes carry each service's profile; an edge's `types` maps semantic type -> (source tool, target tool)."""
    profiles = {cls.name: profile(cls) for cls in services}
    g = nx.DiGraph()
    for name, prof in profiles.items():
        g.add_node(name, profile=prof)
    produced = {name: _producers(p) for name, p in profiles.items()}
    consumed = {name: _consumers(p) for name, p in profiles.items()}
    by_type: dict[str, list[str]] = {}
    for name, types in consumed.items():
        for t in types:
            by_type.setdefault(t, []).append(name)
    for src, types in produced.items():
        for t, src_tool in types.items():
            for dst in by_type.get(t, []):
                if dst == src:
                    continue
                if not g.has_edge(src, dst):
                    g.add_edge(src, dst, types={})
                g[src][dst]["types"][t] = (src_tool, consumed[dst][t])
    return g


def _producers(p: ServiceProfile) -> dict[str, str]:
    out: dict[str, str] = {}
    for t in sorted(p.produces()):
        out[t] = next(lk.tool for lk in p.lookups if t in p.field_sems.get(lk.collection, {}).values())
    return out


def _consumers(p: ServiceProfile) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in p.actions:
        for param, t in a.param_sems.items():
            if param in a.param_fields:
                out.setdefault(t, a.tool)
    for lk in p.lookups:
        t = p.field_sems.get(lk.collection, {}).get(lk.key_field, "")
        if t:
            out.setdefault(t, lk.tool)
    return {t: tool for t, tool in out.items() if t in p.consumes()}


def edge_records(g: nx.DiGraph) -> list[dict[str, Any]]:
    """The graph as rows: (source service/tool, target service/tool, semantic type)."""
    rows = []
    for src, dst, data in sorted(g.edges(data=True)):
        for t, (src_tool, dst_tool) in sorted(data["types"].items()):
            rows.append({"source_service": src, "source_tool": src_tool, "target_service": dst,
                         "target_tool": dst_tool, "semantic_type": t})
    return rows
