"""The terminal: rich's consoles for standard output and for errors, one each per process (imported
when a command prints more than JSON: `graphmem search --json` never loads rich)."""

from __future__ import annotations

from rich.console import Console

console = Console()
err_console = Console(stderr=True)
