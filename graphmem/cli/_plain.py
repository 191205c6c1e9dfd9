"""What the commands share that needs neither typer nor rich: settings from --config, the server
or the model a command uses, one-line errors, JSON output. `graphmem search` sent to a running
server imports only this (graphmem/cli/fast.py); rich is imported only to print an error."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from ..errors import GraphmemError

if TYPE_CHECKING:
    from ..embed import Embedder


def fail(exc: GraphmemError) -> None:
    """The error as one red line on stderr, exit code 1."""
    from rich.markup import escape

    from ._console import err_console

    err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
    sys.exit(1)


def run_command(command: Any, kwargs: dict[str, Any]) -> None:
    """Call a command function with its arguments already read (graphmem/cli/fast.py), answering
    errors and Ctrl-C as run_app does."""
    try:
        command(**kwargs)
    except GraphmemError as exc:
        fail(exc)
    except KeyboardInterrupt:
        sys.stderr.write("aborted\n")
        sys.exit(1)


def load(config: str | None = None):
    from ..config import load_settings

    return load_settings(config)


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun that goes with it: "1 episode", "0 episodes", "2,500 memories"."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def suggested(*words: str, group: str | None = None, config: str | None = None) -> str:
    """A graphmem command to suggest, carrying the --group and --config the user gave, quoted for a
    shell: ``suggested("extract", "--retry", group="alice")`` → "graphmem extract --retry --group alice"."""
    import shlex

    given = [*(["--group", group] if group else []), *(["--config", config] if config else [])]
    return shlex.join(["graphmem", *words, *given])


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def embedder_loading(settings: Any, texts: list[str] | None = None) -> Embedder:
    """The configured embedding model, its files read in the background from now on: a command
    that will embed calls this before importing the rest of graphmem, so onnxruntime builds the
    models' sessions (which lets the interpreter go on) while the imports run. ``texts``: the
    only texts the command embeds (a search's query), so only the models they need load."""
    from ..embed import get_embedder

    e = settings.embedding
    return get_embedder(e.model, e.device, e.batch_size, e.backend, e.precision, warm_for=texts)


def server_graph(config: str | None = None) -> Any:
    """The running `graphmem serve` for this database (or the configured http.url) as a graph the
    search/add/show/stats/ingest commands call, or None: then they work directly. Reads no
    settings model and loads nothing (graphmem/http/client.py)."""
    from ..http.client import server_graph as find

    return find(config)
