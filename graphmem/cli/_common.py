"""What every command shares: settings from --config, one-line errors, JSON output."""

from __future__ import annotations

import inspect
import re
import sys
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from ..errors import GraphmemError
from ._console import console as console
from ._console import err_console as err_console
from ._plain import count as count
from ._plain import embedder_loading as embedder_loading
from ._plain import fail
from ._plain import load as load
from ._plain import print_json as print_json
from ._plain import run_command as run_command
from ._plain import server_graph as server_graph
from ._plain import suggested as suggested
from .options import CONFIG, typer_param

if TYPE_CHECKING:
    from ..embed import Embedder


# a line that starts a list item or is indented: its paragraph is kept as written
_LAID_OUT = re.compile(r"^(\s|[-*•\b]|\d+[.)] )")


def prose(text: str | None) -> str | None:
    """A docstring as ``--help`` prints it best: the line breaks inside each paragraph joined (typer
    keeps them, so that lines broke mid-way at the terminal's width); a paragraph holding a list
    or indented lines stays as written."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(
        p if any(_LAID_OUT.match(ln) for ln in p.splitlines()) else " ".join(p.split("\n")) for p in paragraphs
    )


def prose_help(command: Any) -> Any:
    """``prose`` on the help of a click command and every command under it, and brackets that rich
    would take for its markup kept as text (``[http]``, ``-[type]->``); the command."""
    from rich.markup import escape

    text = prose(command.help)
    command.help = escape(text) if text else text
    for param in getattr(command, "params", []):
        if getattr(param, "help", None):
            param.help = escape(param.help)
    for sub in getattr(command, "commands", {}).values():
        prose_help(sub)
    return command


def run_app(app: typer.Typer) -> None:
    """Run the app; a GraphmemError becomes one red line and exit code 1, never a traceback."""
    try:
        command = prose_help(typer.main.get_command(app))
        code = command(standalone_mode=False)  # a command's typer.Exit(code) comes back as its code
        if isinstance(code, int) and code:
            sys.exit(code)
    except GraphmemError as exc:
        fail(exc)
    except (typer.Exit, SystemExit) as exc:
        code = getattr(exc, "exit_code", None)
        sys.exit(code if code is not None else getattr(exc, "code", 0))
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(1)
    except Exception as exc:  # click usage errors (typer may carry its own copy of click: duck-typed)
        show, code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(code, int):
            show()
            sys.exit(code)
        raise


def progress_bar(console: Console = console, *, transient: bool = False, disable: bool = False) -> Any:
    """A rich progress bar: what, a bar, done/total, time elapsed (``disable``: shows nothing)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=transient,
        disable=disable,
    )


ConfigOption = typer_param(CONFIG)


class _LazyEmbedder:
    """Loads the embedding model (seconds) only when a command first needs it: `show` never does."""

    def __init__(self, settings: Any):
        self._settings = settings
        self._inner: Embedder | None = None

    def __getattr__(self, name: str) -> Any:
        if self._inner is None:
            from ..embed import get_embedder

            e = self._settings.embedding
            self._inner = get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)
        return getattr(self._inner, name)


def open_graph(config: str | None = None):
    """A MemoryGraph on the configured Neo4j; the embedding model loads on first use."""
    from ..graph import MemoryGraph

    settings = load(config)
    return MemoryGraph(settings, embedder=_LazyEmbedder(settings))


def open_graph_or_server(config: str | None = None) -> Any:
    """A running server (see server_graph), else a MemoryGraph on the configured Neo4j."""
    remote = server_graph(config)
    return remote if remote is not None else open_graph(config)
