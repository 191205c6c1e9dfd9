"""Resolution: the components of one expression combined and placed against the reference time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any, NamedTuple

from .lexer import _C, VERYWEAK
from .values import _POD_HOURS, TimeValue, _add_months, _at, _aware, _monday, _shift_months

# a season's first month (three months each); a year's start, middle and end are read as seasons too
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12, "early": 1, "mid": 5, "late": 10}


class _Res(NamedTuple):
    iso: str
    start: datetime
    end: datetime
    granularity: str
    part_of_day: str | None


_SOURCE_OF = {
    "date": "date",
    "datetime": "datetime",
    "now": "now",
    "year": "cal",
    "year_rel": "cal",
    "month": "cal",
    "month_rel": "cal",
    "day": "cal",
    "ym": "cal",
    "season": "cal",
    "day_rel": "day_rel",
    "week": "week",
    "weekend": "weekend",
    "ago": "ago",
    "window": "window",
}


def _resolve(comps: Sequence[_C], ref: datetime) -> _Res | None:
    """Combine the components of one expression; None when they conflict or are invalid."""
    try:
        return _resolve_unsafe(comps, ref)
    except (ValueError, OverflowError):
        return None


def _resolve_unsafe(comps: Sequence[_C], ref: datetime) -> _Res | None:
    slots: dict[str, Any] = {}
    for c in comps:
        if c.kind in slots:
            return None
        slots[c.kind] = c.val
    if not slots:
        return None
    if len(comps) == 1 and comps[0].strength == VERYWEAK:
        return None
    tz = ref.tzinfo
    assert tz is not None
    today = ref.date()
    sources = {_SOURCE_OF[k] for k in slots if k in _SOURCE_OF}
    if len(sources) > 1:
        return None
    source = next(iter(sources), None)
    clock = slots.get("clock")
    pod = slots.get("pod")
    weekday = slots.get("weekday")

    # base: ("day", d) | ("week", monday) | ("month", y, m) | ("year", y)
    #       | ("span", start_day, end_day_exclusive) | ("dt", datetime, precision)
    base: tuple | None = None
    if source is None:
        if weekday is not None:
            wd, mode = weekday
            if mode == "last":
                delta = (today.weekday() - wd) % 7 or 7
                base = ("day", today - timedelta(days=delta))
            elif mode == "next":
                delta = (wd - today.weekday()) % 7 or 7
                base = ("day", today + timedelta(days=delta))
            elif mode == "this":
                base = ("day", _monday(today) + timedelta(days=wd))
            else:
                base = ("day", today - timedelta(days=(today.weekday() - wd) % 7))
            weekday = None
        elif clock is not None or pod is not None:
            base = ("day", today)
        else:
            return None
    elif source == "date":
        base = ("day", slots["date"])
    elif source == "datetime":
        dt = slots["datetime"]
        dt = _aware(tz, dt) if dt.tzinfo is None else dt.astimezone(tz)
        base = ("dt", dt, "minute")
    elif source == "now":
        base = ("dt", ref.replace(second=0, microsecond=0), "minute")
    elif source == "day_rel":
        base = ("day", today + timedelta(days=slots["day_rel"]))
    elif source == "week":
        off, wd = slots["week"]
        monday = _monday(today) + timedelta(days=7 * off)
        if wd is None and weekday is not None:
            wd, weekday = weekday[0], None
        if wd is None:
            base = ("week", monday)
        elif wd == "weekend":
            base = ("span", monday + timedelta(days=5), monday + timedelta(days=7))
        else:
            base = ("day", monday + timedelta(days=wd))
    elif source == "weekend":
        sat = _monday(today) + timedelta(days=5)
        if today.weekday() < 5:
            sat -= timedelta(days=7)
        base = ("span", sat, sat + timedelta(days=2))
    elif source == "ago":
        n, unit, sign = slots["ago"]
        if unit == "minute":
            base = ("dt", (ref + sign * timedelta(minutes=n)).replace(second=0, microsecond=0), "minute")
        elif unit == "hour":
            base = ("dt", (ref + sign * timedelta(hours=n)).replace(second=0, microsecond=0), "hour")
        elif unit == "day":
            base = ("day", today + sign * timedelta(days=n))
        elif unit == "day_week":
            base = ("week", _monday(today + sign * timedelta(days=n)))
        elif unit == "week":
            base = ("week", _monday(today + sign * timedelta(days=7 * n)))
        elif unit == "month":
            y, mo = _add_months(today.year, today.month, sign * n)
            base = ("month", y, mo)
        else:
            base = ("year", today.year + sign * n)
    elif source == "window":
        n, unit = slots["window"]
        if unit == "day":
            first = today - timedelta(days=n)
        elif unit == "week":
            first = today - timedelta(days=7 * n)
        elif unit == "month":
            first = _shift_months(today, -n)
        else:
            first = _shift_months(today, -12 * n)
        base = ("span", first, today + timedelta(days=1))
    else:  # calendar: year / month / day parts
        base = _resolve_calendar(slots, today)
        if base is None:
            return None

    # a weekday beside a concrete day ("Tuesday, May 9, 2023", "2023/05/20 (Sat)") is ignored
    if weekday is not None and base[0] not in ("day", "dt"):
        return None

    if clock is not None or pod is not None:
        if base[0] == "dt":
            return None
        if base[0] != "day":
            return None
        day = base[1]
        if clock is not None:
            h, mi, s, ampm, precision = clock
            if ampm:
                if not 1 <= h <= 12:
                    return None
                h = (h % 12) + (12 if ampm == "p" else 0)
            elif pod in ("afternoon", "evening") and h < 12:
                h += 12
            elif pod == "noon" and h < 5:
                h += 12
            elif pod in ("night", "late_night") and 6 <= h < 12:
                h += 12
            if pod in ("night", "late_night") and (h < 6 or h == 12 and not ampm):
                h = 24 if h == 12 else h + 24
            if h > 30 or mi > 59 or s > 59:
                return None
            start = _at(tz, day, h, mi, s)
            end = start + (timedelta(hours=1) if precision == "hour" else timedelta(minutes=1))
            return _Res(start.isoformat(timespec="seconds"), start, end, "datetime", pod)
        if pod is not None:  # a part of the day without a clock time: its hours
            h0, h1 = _POD_HOURS[pod]
            return _Res(day.isoformat(), _at(tz, day, h0), _at(tz, day, h1), "day", pod)

    kind = base[0]
    if kind == "day":
        d = base[1]
        return _Res(d.isoformat(), _at(tz, d), _at(tz, d + timedelta(days=1)), "day", None)
    if kind == "dt":
        start, precision = base[1], base[2]
        end = start + (timedelta(hours=1) if precision == "hour" else timedelta(minutes=1))
        return _Res(start.isoformat(timespec="seconds"), start, end, "datetime", None)
    if kind == "week":
        monday = base[1]
        iy, iw, _ = monday.isocalendar()
        return _Res(f"{iy:04d}-W{iw:02d}", _at(tz, monday), _at(tz, monday + timedelta(days=7)), "week", None)
    if kind == "month":
        y, mo = base[1], base[2]
        ny, nm = _add_months(y, mo, 1)
        return _Res(f"{y:04d}-{mo:02d}", _at(tz, date(y, mo, 1)), _at(tz, date(ny, nm, 1)), "month", None)
    if kind == "year":
        y = base[1]
        return _Res(f"{y:04d}", _at(tz, date(y, 1, 1)), _at(tz, date(y + 1, 1, 1)), "year", None)
    if kind == "months":
        y, mo, n = base[1], base[2], base[3]
        ly, lm = _add_months(y, mo, n - 1)
        ey, em = _add_months(y, mo, n)
        return _Res(
            f"{y:04d}-{mo:02d}/{ly:04d}-{lm:02d}", _at(tz, date(y, mo, 1)), _at(tz, date(ey, em, 1)), "month", None
        )
    if kind == "span":
        first, end_excl = base[1], base[2]
        iso = f"{first.isoformat()}/{(end_excl - timedelta(days=1)).isoformat()}"
        return _Res(iso, _at(tz, first), _at(tz, end_excl), "day", None)
    return None


def _season(name: str, mode: str | None, year: int | None, today: date) -> tuple:
    """("months", first_y, first_m, n=3) for a season; winter Y = Dec Y – Feb Y+1."""
    sm = _SEASON_START[name]
    if year is None:
        occ = [(date(y, sm, 1), date(*_add_months(y, sm, 3), 1)) for y in range(today.year - 2, today.year + 2)]
        if mode == "last":
            start = max(s for s, e in occ if e <= today)
        elif mode == "next":
            start = min(s for s, e in occ if s > today)
        elif mode == "this":
            start = next(
                s for s, e in occ if s.year == (today.year - 1 if sm == 12 and today.month <= 2 else today.year)
            )
        else:  # bare: the most recent one that has begun
            start = max(s for s, e in occ if s <= today)
        year = start.year
    return ("months", year, sm, 3)


def _resolve_calendar(slots: dict[str, Any], today: date) -> tuple | None:
    if "season" in slots:
        if any(k in slots for k in ("month", "month_rel", "day", "ym")):
            return None
        name, season_mode = slots["season"]
        season_year = slots.get("year")
        if "year_rel" in slots:
            if season_year is not None:
                return None
            season_year = today.year + slots["year_rel"]
        return _season(name, season_mode, season_year, today)
    y: int | None = slots.get("year")
    mo: int | None = None
    mode: str | None = None
    if "ym" in slots:
        if y is not None or "month" in slots or "year_rel" in slots:
            return None
        y, mo = slots["ym"]
    if "year_rel" in slots:
        if y is not None:
            return None
        y = today.year + slots["year_rel"]
    if "month" in slots:
        mo, mode = slots["month"]
    if "month_rel" in slots:
        if y is not None or mo is not None:
            return None
        y, mo = _add_months(today.year, today.month, slots["month_rel"])
    d: int | None = slots.get("day")

    if y is None and mo is None:
        if d is None:
            return None
        y, mo = today.year, today.month
        if d > today.day:
            y, mo = _add_months(y, mo, -1)
        return ("day", date(y, mo, d))
    if y is None:
        assert mo is not None
        if d is not None:
            this_year = date(today.year, mo, d) if _valid(today.year, mo, d) else None
            if mode == "this":
                y = today.year
            elif mode == "next":
                y = today.year if this_year and this_year > today else today.year + 1
            elif mode == "last":
                y = today.year if this_year and this_year < today else today.year - 1
            else:
                y = today.year if this_year and this_year <= today else today.year - 1
        else:
            if mode == "this":
                y = today.year
            elif mode == "next":
                y = today.year if mo > today.month else today.year + 1
            elif mode == "last":
                y = today.year if mo < today.month else today.year - 1
            else:
                y = today.year if mo <= today.month else today.year - 1
    if mo is None:
        if d is not None:
            return None
        return ("year", y)
    if d is None:
        return ("month", y, mo)
    return ("day", date(y, mo, d))


def _valid(y: int, m: int, d: int) -> bool:
    try:
        date(y, m, d)
        return True
    except ValueError:
        return False


def _to_value(original: str, r: _Res) -> TimeValue:
    return TimeValue(
        original=original,
        iso=r.iso,
        start=r.start,
        end=r.end,
        granularity=r.granularity,
        part_of_day=r.part_of_day,
        parsed=True,
    )
