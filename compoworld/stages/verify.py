"""Verify: the generated checks of every service of the run into `service_checks` (item: a service)."""

from __future__ import annotations

from typing import Any

from compoworld.canonical import content_hash
from compoworld.services.records import service_id
from compoworld.services.registry import all_services
from compoworld.services.service import Service
from compoworld.stages.base import Batch, BatchOutput, RunContext, Stage
from compoworld.stages.items import Named, named_part
from compoworld.synthesis.verify import verify_service


def check_rows(cls: type[Service]) -> list[dict[str, Any]]:
    verdict = verify_service(cls)
    sid = service_id(cls)
    rows = []
    for i, c in enumerate(verdict.checks):
        detail = f"{c.tool}: {c.detail}" if c.tool else c.detail
        rows.append({"check_id": "chk_" + content_hash([sid, i, c.tool, c.check]), "service_id": sid, "service": cls.name,
                     "check_name": c.check, "passed": c.status == "pass",
                     "detail": (f"[{c.status}] {detail}" if c.status != "pass" else detail) or None})
    return rows


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
