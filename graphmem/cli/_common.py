"""What every command shares: settings from --config, one-line errors, JSON output."""

from __future__ import annotations

import inspect
import json
import re
import sys
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from ..errors import GraphmemError

if TYPE_CHECKING:
    from ..embed import Embedder

console = Console()
err_console = Console(stderr=True)


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
        _fail(exc)
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


def _fail(exc: GraphmemError) -> None:
    from rich.markup import escape

    err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
    sys.exit(1)


def run_command(command: Any, kwargs: dict[str, Any]) -> None:
    """Call a command function with its arguments already read (graphmem/cli/fast.py), answering
    errors and Ctrl-C as run_app does."""
    try:
        command(**kwargs)
    except GraphmemError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        err_console.print("aborted")
        sys.exit(1)


def load(config: str | None = None):
    from ..config import load_settings

    return load_settings(config)


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun that goes with it: "1 episode", "0 episodes", "2,500 memories"."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


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


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


ConfigOption = typer.Option(
    None, "--config", "-c", help="Path to graphmem.toml (default: ./graphmem.toml or $GRAPHMEM_CONFIG)."
)


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


def embedder_loading(settings: Any) -> Embedder:
    """The configured embedding model, its files read in the background from now on: a command
    that will embed calls this before importing the rest of graphmem, so onnxruntime builds the
    models' sessions (which lets the interpreter go on) while the imports run."""
    from ..embed import get_embedder

    e = settings.embedding
    return get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision)


def open_graph(config: str | None = None):
    """A MemoryGraph on the configured Neo4j; the embedding model loads on first use."""
    from ..graph import MemoryGraph

    settings = load(config)
    return MemoryGraph(settings, embedder=_LazyEmbedder(settings))


def server_graph(config: str | None = None) -> Any:
    """The running `graphmem serve` for this database (or the configured http.url) as a graph the
    search/add/show/stats/ingest commands call, or None: then they work directly. Reads no
    settings model and loads nothing (graphmem/http/client.py)."""
    from ..http.client import server_graph as find

    return find(config)


def open_graph_or_server(config: str | None = None) -> Any:
    """A running server (see server_graph), else a MemoryGraph on the configured Neo4j."""
    remote = server_graph(config)
    return remote if remote is not None else open_graph(config)
