"""Where services are found: the first-party library, plus compiled services from the synthesis cache."""

from __future__ import annotations

from functools import lru_cache

from compoworld.services.service import Service


@lru_cache(maxsize=1)
def library_services() -> dict[str, type[Service]]:
    from compoworld.services.library import SERVICES

    return {cls.name: cls for cls in SERVICES}


def compiled_services() -> dict[str, type[Service]]:
    """Compiled services from the synthesis cache (empty until `compoworld synth` has run)."""
    try:
        from compoworld.synthesis.cache import load_compiled
    except ImportError:
        return {}
    return load_compiled()


def all_services(origin: str = "all") -> dict[str, type[Service]]:
    out: dict[str, type[Service]] = {}
    if origin in ("all", "library"):
        out.update(library_services())
    if origin in ("all", "compiled"):
        out.update(compiled_services())
    return out


def get_service(name: str) -> type[Service]:
    lib = library_services()
    if name in lib:
        return lib[name]
    compiled = compiled_services()
    if name in compiled:
        return compiled[name]
    raise KeyError(f"unknown service {name!r}")
