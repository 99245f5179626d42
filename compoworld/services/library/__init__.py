"""First-party business services, one module each; every `Service` subclass defined here is registered."""

from __future__ import annotations

import importlib
import pkgutil

from compoworld.services.service import Service


def _discover() -> list[type[Service]]:
    found: dict[str, type[Service]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Service) and obj.__module__ == module.__name__ and hasattr(obj, "name"):
                found[obj.name] = obj
    return [found[name] for name in sorted(found)]


SERVICES: list[type[Service]] = _discover()
