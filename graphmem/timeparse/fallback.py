"""The dateparser fallback, for what the rules cannot read whole, and its guards: a real time hint,
a sane range, every number of an absolute expression in the answer."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from .resolve import _Res
from .values import _add_months, _at, _aware, _monday

log = logging.getLogger(__name__)

_DP_SETTINGS_BASE = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False, "RETURN_TIME_AS_PERIOD": True}


@functools.lru_cache(maxsize=128)
def _dateparser(languages: tuple[str, ...], relative_base: datetime):
    from dateparser.date import DateDataParser  # slow import (~80 ms): only when needed

    settings = dict(_DP_SETTINGS_BASE, RELATIVE_BASE=relative_base)
    return DateDataParser(languages=list(languages), settings=settings)


_HINT_RE = re.compile(
    r"[0-9]|[年月日号周天点时分秒晚早午]|(?<![a-z])(?:jan|feb|apr|jun|jul|aug|sep|oct|nov|dec|"
    r"january|february|april|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|"
    r"tonight|ago|week|weeks|month|months|year|years|day|days|hour|hours|minute|minutes|"
    r"morning|afternoon|evening|night|noon|midnight)(?![a-z])"
)
_BARE_NUMBER_RE = re.compile(r"[\s0-9.,:+\-]*")


def _dateparser_fallback(text: str, norm: str, ref: datetime, languages: tuple[str, ...]) -> _Res | None:
    stripped = norm.strip()
    if not stripped or len(stripped) > 80:
        return None
    if _BARE_NUMBER_RE.fullmatch(stripped):  # "5", "2023.5", "12:00:00:00"...
        return None
    if re.fullmatch(r"[a-z]+\.?", stripped):  # one English word: the rules know them all
        return None
    if not _HINT_RE.search(stripped):
        return None
    naive_ref = ref.replace(tzinfo=None, microsecond=0)
    try:
        data = _dateparser(languages, naive_ref).get_date_data(text)
    except Exception:  # dateparser raises assorted errors on odd input
        return None
    dt, period = data.date_obj, data.period
    if dt is None:
        return None
    tz = ref.tzinfo
    assert tz is not None
    if dt.tzinfo is not None:
        dt = dt.astimezone(tz).replace(tzinfo=None)
    if not ref.year - 200 <= dt.year <= ref.year + 100:
        return None
    if not _numbers_consistent(stripped, dt):
        return None
    day = dt.date()
    if period == "time":
        start = _aware(tz, dt.replace(microsecond=0))
        return _Res(start.isoformat(timespec="seconds"), start, start + timedelta(minutes=1), "datetime", None)
    if period == "week":
        monday = _monday(day)
        iy, iw, _ = monday.isocalendar()
        return _Res(f"{iy:04d}-W{iw:02d}", _at(tz, monday), _at(tz, monday + timedelta(days=7)), "week", None)
    if period == "month":
        ny, nm = _add_months(day.year, day.month, 1)
        return _Res(
            f"{day.year:04d}-{day.month:02d}",
            _at(tz, date(day.year, day.month, 1)),
            _at(tz, date(ny, nm, 1)),
            "month",
            None,
        )
    if period == "year":
        return _Res(f"{day.year:04d}", _at(tz, date(day.year, 1, 1)), _at(tz, date(day.year + 1, 1, 1)), "year", None)
    return _Res(day.isoformat(), _at(tz, day), _at(tz, day + timedelta(days=1)), "day", None)


_RELATIVE_RE = re.compile(r"[前后内]|(?<![a-z])(?:ago|from|in|later|before|after|next|last|past|within)(?![a-z])")


def _numbers_consistent(text: str, dt: datetime) -> bool:
    """Every number in an absolute expression must show up in dateparser's answer.

    Guards against dateparser "repairing" invalid input ("2025年13月" → 2025-03-01).
    """
    if _RELATIVE_RE.search(text):
        return True
    fields = {dt.year, dt.year % 100, dt.month, dt.day, dt.hour, dt.hour % 12 or 12, dt.minute, dt.second}
    return all(int(n) in fields for n in re.findall(r"[0-9]+", text) if len(n) <= 6)


def warm_up(languages: Sequence[str] = ("zh", "en")) -> None:
    """Load dateparser and its locale data now rather than on the first fallback call."""
    ref = datetime(2000, 1, 1)
    try:
        p = _dateparser(tuple(languages), ref)
        p.get_date_data("2000-01-01")
        p.get_date_data("昨天")
        p.get_date_data("yesterday")
    except Exception:  # pragma: no cover
        log.debug("dateparser warm-up failed", exc_info=True)
