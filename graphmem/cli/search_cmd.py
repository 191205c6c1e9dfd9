"""(to be filled)"""
from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    pass
