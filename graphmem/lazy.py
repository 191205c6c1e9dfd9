"""A package's names imported on first use (PEP 562): importing the package, or one light module
of it, does not import its heavy ones (a search reads ``ingest.people`` without the pipeline,
``store.driver`` probes a port without the server's launcher)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def exports(package: str, homes: dict[str, str]) -> Callable[[str], Any]:
    """The package's ``__getattr__``: ``homes`` maps each name to the submodule that defines it."""

    def __getattr__(name: str) -> Any:
        if name in homes:
            return getattr(import_module(f".{homes[name]}", package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
