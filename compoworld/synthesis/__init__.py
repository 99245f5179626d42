"""Synthesis: MCP specifications -> executable, verified services.

`run_synth` (pipeline.py) loads specs (loader.py), infers what each tool does (infer.py), builds a
`Service` class from the plan (compiler.py, runtime.py), verifies every service (verify.py), checks
each tool against its specification (fidelity.py: a tool that fails is recompiled as a world-model
tool) and writes the cache that `load_compiled` (cache.py) reads. Importing this package registers the
"compiled" origin with the service registry. Imports are lazy so that loading the cache does not pull
in the compiler's dependencies.
"""

from __future__ import annotations

from typing import Any

from compoworld.services.registry import register_origin
from compoworld.services.service import Service

__all__ = ["SynthReport", "load_compiled", "load_specs", "run_synth", "verify_service"]


def __getattr__(name: str) -> Any:
    if name in ("run_synth", "SynthReport"):
        from compoworld.synthesis import pipeline

        return getattr(pipeline, name)
    if name == "load_compiled":
        from compoworld.synthesis.cache import load_compiled

        return load_compiled
    if name == "load_specs":
        from compoworld.synthesis.loader import load_specs

        return load_specs
    if name == "verify_service":
        from compoworld.synthesis.verify import verify_service

        return verify_service
    raise AttributeError(name)


def _compiled() -> dict[str, type[Service]]:
    from compoworld.synthesis.cache import load_compiled

    return load_compiled()


register_origin("compiled", _compiled)
