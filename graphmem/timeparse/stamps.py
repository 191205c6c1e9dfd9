"""Stored timestamps (ISO 8601 strings, as the database keeps them) read back as times."""

from __future__ import annotations

from datetime import UTC, datetime


def parse_time(value: str | None) -> datetime | None:
    """A stored ISO timestamp as an aware datetime (a naive one is UTC); None when empty or unreadable."""
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def days_between(earlier: datetime | None, later: datetime) -> float | None:
    """Days from ``earlier`` to ``later`` (never below 0); None when ``earlier`` is unknown."""
    return None if earlier is None else max(0.0, (later - earlier).total_seconds() / 86400.0)
