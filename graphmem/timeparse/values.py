"""The result of a normalisation (``TimeValue``) and the calendar arithmetic the resolvers share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from ..lang import HAN

GRANULARITIES = ("datetime", "day", "week", "month", "year")

_POD_ZH = {
    "early_morning": "凌晨",
    "morning": "早上",
    "noon": "中午",
    "afternoon": "下午",
    "evening": "傍晚",
    "night": "夜间",
    "late_night": "深夜",
}
_POD_HOURS = {  # part of day → (start hour, end hour); hours ≥ 24 are on the next day
    "early_morning": (0, 6),
    "morning": (6, 12),
    "noon": (12, 14),
    "afternoon": (12, 18),
    "evening": (17, 21),
    "night": (18, 30),
    "late_night": (22, 28),
}


@dataclass(frozen=True)
class TimeValue:
    """A normalised time expression (see the module docstring for the conventions)."""

    original: str
    iso: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    granularity: str | None = None
    part_of_day: str | None = None
    parsed: bool = False

    def display(self) -> str:
        """A readable value: "2025-11-04 夜间", "2025-11-05 08:00", "2025-10", "2025-10-27/2025-11-02".

        The original text when it could not be parsed.
        """
        if not self.parsed or self.iso is None:
            return self.original
        if self.granularity == "datetime" and self.start is not None:
            fmt = "%Y-%m-%d %H:%M:%S" if self.start.second else "%Y-%m-%d %H:%M"
            return self.start.strftime(fmt)
        if self.granularity == "week" and self.start is not None and self.end is not None:
            return f"{self.start.date().isoformat()}/{(self.end.date() - timedelta(days=1)).isoformat()}"
        if self.part_of_day:
            label = (
                _POD_ZH.get(self.part_of_day, self.part_of_day)
                if HAN.search(self.original)
                else self.part_of_day.replace("_", " ")
            )
            return f"{self.iso} {label}"
        return self.iso

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.display()


def _unparsed(text: str) -> TimeValue:
    return TimeValue(original=text)


def _reference(reference_time: datetime | None) -> datetime:
    if reference_time is None:
        return datetime.now().astimezone()
    if reference_time.tzinfo is None or reference_time.utcoffset() is None:
        return reference_time.replace(tzinfo=UTC)
    return reference_time


def _aware(tz: tzinfo, naive: datetime) -> datetime:
    localize = getattr(tz, "localize", None)  # pytz zones
    if callable(localize):
        return localize(naive)
    return naive.replace(tzinfo=tz)


def _at(tz: tzinfo, day: date, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    """tz-aware datetime at ``hour`` on ``day``; hours ≥ 24 roll over to the next days."""
    extra, hour = divmod(hour, 24)
    day = day + timedelta(days=extra)
    return _aware(tz, datetime(day.year, day.month, day.day, hour, minute, second))


def _add_months(y: int, m: int, k: int) -> tuple[int, int]:
    idx = y * 12 + (m - 1) + k
    return idx // 12, idx % 12 + 1


def _shift_months(d: date, k: int) -> date:
    y, m = _add_months(d.year, d.month, k)
    for day in (d.day, 30, 29, 28):
        try:
            return date(y, m, min(d.day, day))
        except ValueError:
            continue
    raise ValueError("bad month shift")


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())
