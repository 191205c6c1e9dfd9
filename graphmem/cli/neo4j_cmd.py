"""(to be filled)"""
from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)
