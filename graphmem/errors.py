"""Named failures. Every message says what went wrong and what to do about it."""

from __future__ import annotations


class GraphmemError(Exception):
    """Base of every error graphmem raises on purpose."""


class ConfigError(GraphmemError):
    """A setting is missing or malformed."""


class MissingExtraError(GraphmemError, ImportError):
    """An optional dependency is not installed; the message names the ``pip install`` that adds it."""

    def __init__(self, feature: str, extra: str, module: str | None = None):
        top = (module or "").split(".")[0] or "an optional package"
        super().__init__(f"{feature} needs {top}, which is not installed: pip install 'graphmem[{extra}]'")
        self.extra = extra
        self.name = module


class ValidationError(GraphmemError, ValueError):
    """A call's arguments are invalid; nothing was written.

    ``field`` names the offending argument, ``allowed`` lists what would be accepted
    (when the set is small), ``errors`` holds every problem found.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        allowed: list[str] | None = None,
        errors: list[dict] | None = None,
    ):
        super().__init__(message)
        self.field = field
        self.allowed = allowed
        self.errors = errors or [{"field": field, "message": message, "allowed": allowed}]

    def to_dict(self) -> dict:
        return {
            "error": "ValidationError",
            "message": str(self),
            "field": self.field,
            "allowed": self.allowed,
            "errors": self.errors,
        }


class NotFoundError(GraphmemError, LookupError):
    """The memory, node or job asked for does not exist in this group."""


class AmbiguousMatchError(GraphmemError):
    """A description matched several memories (or none well enough).

    ``candidates`` lists the best matches as dicts with ``id``, ``text`` and ``score``.
    """

    def __init__(self, message: str, candidates: list[dict] | None = None):
        super().__init__(message)
        self.candidates = candidates or []

    def to_dict(self) -> dict:
        return {"error": type(self).__name__, "message": str(self), "candidates": self.candidates}


class NoMatchError(AmbiguousMatchError):
    """A description matched no memory closely enough; the best candidates are listed."""


class Neo4jUnavailableError(GraphmemError):
    """The Neo4j server cannot be reached or refused the credentials."""


class Neo4jAuthError(Neo4jUnavailableError):
    """Neo4j refused the credentials (or, after repeated failures, every login for a while)."""


class Neo4jPermissionError(Neo4jUnavailableError):
    """The Neo4j user lacks a privilege the call needs (or the database is read-only)."""


class Neo4jDatabaseNotFoundError(Neo4jUnavailableError):
    """The configured database (``neo4j.database``) does not exist on the server."""


class WriteOutcomeUnknownError(Neo4jUnavailableError):
    """The connection was lost while a write was committing: it may or may not have been applied.

    Retrying with the same ``request_id`` applies it exactly once (the first result is returned
    if it had been applied)."""


class SchemaMismatchError(GraphmemError):
    """The database was initialised for another embedding model or schema version."""


class ServerError(GraphmemError):
    """The local Neo4j server could not be fetched, started or stopped."""


class ExtractionError(GraphmemError):
    """An extractor (LLM or rules) failed on an episode; the episode is kept and retried."""


class ImportFormatError(GraphmemError):
    """A file given to `graphmem import` is not a graphmem export this version can read."""


class ConsolidationLockedError(GraphmemError):
    """Another consolidation run holds the group's lock."""


class UnauthorizedError(GraphmemError):
    """The HTTP API needs a bearer token and the request carried none, or one it does not know."""


class ForbiddenError(GraphmemError):
    """The request's token may not do this: another group than its own, or an administrator's call."""
