"""What every step of one search reads: the group, what is sought, the filters, the profile."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from ..config import RankingProfile

T = TypeVar("T")
Later = Callable[[], T]  # a read in flight: calling it waits for the answer


def _at(iso: str) -> datetime:
    moment = datetime.fromisoformat(iso)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Filters:
    """Seed filters (cypher/search_memories.cypher). Times are ISO strings, end exclusive: a memory
    is in the range when it happened in it, a turn when it was said in it or up to ``said_end``."""

    include_archived: bool = False
    types: list[str] | None = None
    start: str | None = None
    end: str | None = None
    subject: str | None = None
    said_end: str | None = None
    # only what was the current fact at some moment of [as_of, as_of_end] (a point when equal;
    # valid_from / valid_until, see cypher/search_memories.cypher); turns said by as_of_end
    as_of: str | None = None
    as_of_end: str | None = None

    def params(self) -> dict[str, Any]:
        said_end = self.end if self.said_end is None else self.said_end
        if self.as_of_end is not None and (said_end is None or _at(self.as_of_end) < _at(said_end)):
            said_end = (_at(self.as_of_end) + timedelta(microseconds=1)).isoformat()
        return {**vars(self), "said_end": said_end}

    @property
    def narrow(self) -> bool:
        """A time range or a subject: few of the nearest memories pass (the database filters first)."""
        return self.start is not None or self.end is not None or self.subject is not None


@dataclass(frozen=True)
class SearchContext:
    """One search of one group: ``query`` what it looks for (the query without what only scopes
    it), ``k`` direct matches per list, ``memories`` and ``episodes`` the group's counts (capped
    where the strategies change), ``embedding`` the query's vector on its way."""

    group_id: str
    query: str
    filters: Filters
    profile: RankingProfile
    embedding: Future[list[float]]
    k: int
    max_results: int
    memories: int
    episodes: int

    @property
    def with_episodes(self) -> bool:
        """A turn nothing was extracted from may be a result (no memory type asked for)."""
        return self.filters.types is None

    def vector(self) -> list[float]:
        """The query's vector (waits for it)."""
        return self.embedding.result()

    def params(self, embedding: list[float] | None) -> dict[str, Any]:
        """The parameters every search query takes: the group, the filters and ``embedding``
        (None: the caller computes the cosines itself)."""
        return {"group_id": self.group_id, "embedding": embedding, **self.filters.params()}
