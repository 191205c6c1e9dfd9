"""The `graphmem` command line: a thin typer layer over the library."""

from __future__ import annotations


def main() -> None:
    """The `graphmem` command: a plain search runs at once (graphmem/cli/fast.py), the rest through
    the typer app."""
    import sys

    from .fast import answered

    if answered(sys.argv[1:]):
        return
    from .app import main as run

    run()
