"""The `graphmem` command line: a thin typer layer over the library."""
