"""The service dependency graph: A -> B where a value that A reveals is consumed by B (written by
one of its actions, or used to look a record up), and the value plays a role on both sides that fits
a business hand-off (`compoworld.services.cast`): a customer contact's email does not become an
expense report's employee email, a vendor's contact may receive a purchase order, a candidate
becomes an employee. Roles are facts about fields; the graph only matches them."""

from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

from compoworld.services.cast import fits, role_of
from compoworld.services.service import Service
from compoworld.tasks.explore import ServiceProfile, profile

Port = tuple[str, str]  # (semantic type, role)


def build_graph(services: Iterable[type[Service]], roles: bool = True) -> nx.DiGraph:
    """Nodes carry each service's profile; an edge's `types` maps semantic type -> (source tool, target
    tool) and its `roles` maps the same type -> (source role, target role) of the hand-off.
    `roles=False` joins on semantic types alone (the graph before roles, for comparison)."""
    classes = {cls.name: cls for cls in services}
    profiles = {name: profile(cls) for name, cls in classes.items()}
    g = nx.DiGraph()
    for name, prof in profiles.items():
        g.add_node(name, profile=prof)
    produced = {name: _producers(classes[name], p) for name, p in profiles.items()}
    consumed = {name: _consumers(classes[name], p) for name, p in profiles.items()}
    by_type: dict[str, list[tuple[str, str, str]]] = {}  # type -> [(service, role, tool)]
    for name, ports in consumed.items():
        for (t, role), tool in ports.items():
            by_type.setdefault(t, []).append((name, role, tool))
    for src, ports in produced.items():
        for (t, src_role), src_tool in ports.items():
            for dst, dst_role, dst_tool in by_type.get(t, []):
                if dst == src or (roles and not fits(src_role, dst_role, t)):
                    continue
                if not g.has_edge(src, dst):
                    g.add_edge(src, dst, types={}, roles={})
                if t not in g[src][dst]["types"]:  # the first fitting hand-off of a type names the edge
                    g[src][dst]["types"][t] = (src_tool, dst_tool)
                    g[src][dst]["roles"][t] = (src_role, dst_role)
    return g


def _producers(cls: type[Service], p: ServiceProfile) -> dict[Port, str]:
    """(type, role) -> a lookup that reveals it, for every joinable field of a looked-up collection."""
    joinable = p.produces()
    out: dict[Port, str] = {}
    for lk in p.lookups:
        for fld, t in sorted(p.field_sems.get(lk.collection, {}).items()):
            if t in joinable:
                out.setdefault((t, role_of(cls, lk.collection, fld, t)), lk.tool)
    return dict(sorted(out.items()))


def _consumers(cls: type[Service], p: ServiceProfile) -> dict[Port, str]:
    """(type, role) -> an action that writes it or a lookup keyed by it."""
    joinable = p.consumes()
    out: dict[Port, str] = {}
    for a in p.actions:
        for param, t in a.param_sems.items():
            if param in a.param_fields and t in joinable:
                out.setdefault((t, role_of(cls, a.collection, a.param_fields[param], t)), a.tool)
    for lk in p.lookups:
        t = p.field_sems.get(lk.collection, {}).get(lk.key_field, "")
        if t in joinable:
            out.setdefault((t, role_of(cls, lk.collection, lk.key_field, t)), lk.tool)
    return out


def edge_records(g: nx.DiGraph) -> list[dict[str, Any]]:
    """The graph as rows: (source service/tool, target service/tool, semantic type, roles)."""
    rows = []
    for src, dst, data in sorted(g.edges(data=True)):
        for t, (src_tool, dst_tool) in sorted(data["types"].items()):
            src_role, dst_role = data.get("roles", {}).get(t, ("", ""))
            rows.append({"source_service": src, "source_tool": src_tool, "target_service": dst,
                         "target_tool": dst_tool, "semantic_type": t, "source_role": src_role, "target_role": dst_role})
    return rows


def roles_used(g: nx.DiGraph, visits: list[str], types: list[str]) -> list[str]:
    """The hand-off of each transition of a walk (`src_role>dst_role`, "" for a generic side)."""
    out = []
    for a, b, t in zip(visits, visits[1:], types):
        src_role, dst_role = g[a][b].get("roles", {}).get(t, ("", "")) if g.has_edge(a, b) else ("", "")
        out.append(f"{src_role}>{dst_role}")
    return out
