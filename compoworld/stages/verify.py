"""Verify: the generated checks of every service of the run into `service_checks` (item: a service)."""

from __future__ import annotations

from typing import Any

from compoworld.canonical import content_hash
from compoworld.services.records import service_id
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named, named_part
from compoworld.synthesis.cache import fidelity_checks
from compoworld.synthesis.verify import verify_service


def check_rows(cls: type[Service]) -> list[dict[str, Any]]:
    """One row per verification check, then (a compiled service) one row per fidelity check of its
    synth run, named `fidelity:<check>` (kind, keyed_lookup, target, ...): whether each tool does what
    its specification says, beside whether the service is consistent with its plan."""
    verdict = verify_service(cls)
    sid = service_id(cls)
    rows = []
    for i, c in enumerate(verdict.checks):
        rows.append(_row(sid, cls.name, i, c.tool, c.check, c.status, c.detail))
    for i, c in enumerate(fidelity_checks(cls)):
        name = "fidelity:" + str(c.get("check", "")).removeprefix("fidelity_")
        rows.append(_row(sid, cls.name, i, c.get("tool"), name, str(c.get("status", "fail")), str(c.get("detail") or "")))
    return rows


def _row(sid: str, service: str, i: int, tool: str | None, check: str, status: str, detail: str) -> dict[str, Any]:
    text = f"{tool}: {detail}" if tool else detail
    return {"check_id": "chk_" + content_hash([sid, i, tool, check]), "service_id": sid, "service": service,
            "check_name": check, "passed": status == "pass", "detail": (f"[{status}] {text}" if status != "pass" else text) or None}


class Verify(Stage):
    name = "verify"
    tables = ("service_checks",)
    item = Named

    def plan(self, ctx: RunContext) -> list[Batch]:
        return [Batch(f"service {n}", named_part("verify", n), [n]) for n in sorted(all_services(ctx.cfg.services_from))]

    def run(self, ctx: RunContext, batch: Batch, only: set[str] | None = None) -> BatchOutput:
        out = BatchOutput(self.name, {"service_checks": []})
        classes = all_services(ctx.cfg.services_from)
        for name in batch.items:  # one service per batch: one that cannot be verified fails alone
            try:
                out.tables["service_checks"] = check_rows(classes[name])
                out.succeeded.append(name)
            except Exception as exc:
                out.guard(Named(name=name), exc)
        return out


STAGE = Verify()
