"""Where services are found: the first-party library, plus every origin a provider registers.

Services know nothing of the packages that produce services (synthesis depends on services, never
the reverse), so a provider registers its origin with `register_origin` when it is imported. The
providers are named, not imported, in `PROVIDER_MODULES`, and imported on the first look-up: any
caller finds compiled services without importing `compoworld.synthesis` itself.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Callable

from compoworld.services.service import Service

ServiceLoader = Callable[[], dict[str, type[Service]]]

PROVIDER_MODULES: tuple[str, ...] = ("compoworld.synthesis",)  # registers the "compiled" origin
_LOADERS: dict[str, ServiceLoader] = {}


def register_origin(origin: str, loader: ServiceLoader) -> None:
    """Make `all_services(origin)` and `get_service` find the services `loader` returns (called on
    every look-up: a loader answers from its own cache)."""
    _LOADERS[origin] = loader


@lru_cache(maxsize=1)
def library_services() -> dict[str, type[Service]]:
    from compoworld.services.library import SERVICES

    return {cls.name: cls for cls in SERVICES}


@lru_cache(maxsize=1)
def _import_providers() -> None:
    for module in PROVIDER_MODULES:
        importlib.import_module(module)


def _loaders() -> dict[str, ServiceLoader]:
    """Every origin, the library first."""
    _import_providers()
    return {"library": library_services, **_LOADERS}


def all_services(origin: str = "all") -> dict[str, type[Service]]:
    """The services of one origin ("library", "compiled", ...) or of every origin ("all")."""
    out: dict[str, type[Service]] = {}
    for name, loader in _loaders().items():
        if origin in ("all", name):
            out.update(loader())
    return out


def compiled_services() -> dict[str, type[Service]]:
    """Compiled services from the synthesis cache (empty until `compoworld synth` has run)."""
    return all_services("compiled")


def get_service(name: str) -> type[Service]:
    """A service by name; a library service wins over one of another origin with the same name."""
    for loader in _loaders().values():
        found = loader().get(name)
        if found is not None:
            return found
    raise KeyError(f"unknown service {name!r}")
