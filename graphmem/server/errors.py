"""Server-specific refinements of graphmem's errors."""

from __future__ import annotations

from ..errors import ServerError


class MissingToolError(ServerError):
    """Java or Maven, needed to fetch and run the local server, is missing or too old."""


class PortInUseError(ServerError):
    """The Bolt port is taken by another process."""


__all__ = ["ServerError", "MissingToolError", "PortInUseError"]
