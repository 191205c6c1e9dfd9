"""Arguments and options declared without typer, for the commands a running `graphmem serve`
answers at once (`graphmem search`, `graphmem stats`).

Importing typer costs a new process more CPU than the whole search it sends to a server, so these
commands declare their parameters with the two small records below; graphmem/cli/fast.py reads
them straight from the signature, and ``typed`` hands typer the same declarations as its own
``typer.Argument`` / ``typer.Option`` when the whole app is built (--help, anything unusual).
Standard library only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class ArgumentInfo:
    """A positional argument: ``typer.Argument(default, help=...)``."""

    def __init__(self, default: Any, help: str | None):
        self.default, self.help = default, help


class OptionInfo:
    """An option: ``typer.Option(default, *decls, help=..., min=..., max=...)``."""

    def __init__(self, default: Any, decls: tuple[str, ...], help: str | None, min: int | None, max: int | None):
        self.default, self.decls, self.help, self.min, self.max = default, decls, help, min, max


# Any, as typer's own: a parameter declared ``group: str = Option("default", ...)`` type-checks
def Argument(default: Any = ..., *, help: str | None = None) -> Any:  # noqa: N802 - typer's name
    return ArgumentInfo(default, help)


def Option(  # noqa: N802 - typer's name
    default: Any, *decls: str, help: str | None = None, min: int | None = None, max: int | None = None
) -> Any:
    return OptionInfo(default, decls, help, min, max)


CONFIG = Option(None, "--config", "-c", help="Path to graphmem.toml (default: ./graphmem.toml or $GRAPHMEM_CONFIG).")


def typer_param(declared: ArgumentInfo | OptionInfo) -> Any:
    """The typer declaration of ``declared``."""
    import typer

    if isinstance(declared, ArgumentInfo):
        return typer.Argument(declared.default, help=declared.help)
    return typer.Option(declared.default, *declared.decls, help=declared.help, min=declared.min, max=declared.max)


def typed(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` as typer reads a command: the same function, its Argument and Option defaults
    given to typer as typer's own."""
    import inspect

    signature = inspect.signature(command, eval_str=True)
    parameters = [
        p.replace(default=typer_param(p.default)) if isinstance(p.default, (ArgumentInfo, OptionInfo)) else p
        for p in signature.parameters.values()
    ]

    @functools.wraps(command)
    def run(**kwargs: Any) -> Any:
        return command(**kwargs)

    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return run
