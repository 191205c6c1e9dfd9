"""Where graphmem keeps its files for this user (XDG base directories). Standard library only:
the CLI's path to a running server reads it without loading the settings."""

from __future__ import annotations

import os
from pathlib import Path


def user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphmem"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphmem"
