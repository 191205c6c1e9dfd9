"""Language-neutral numeric formats: 2025-11-05, 2025/11/05 08:00, 2025-11, 8:30 (pm)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from .lexer import _C, WEAK, _pat


@_pat(
    "*",
    "d",
    r"((?:19|20)[0-9]{2})([-/.])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])"
    r"(?:(?:t|\s+)([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?"
    r"\s*(z|[+-][0-9]{2}(?::?[0-9]{2})?)?(?![0-9]))?",
)
def _iso(m):
    y, mo, d = int(m.group(1)), int(m.group(3)), int(m.group(4))
    try:
        day = date(y, mo, d)
    except ValueError:
        return None
    if m.group(5) is None:
        return [_C("date", day)]
    h, mi, s = int(m.group(5)), int(m.group(6)), int(m.group(7) or 0)
    if h > 23 or mi > 59 or s > 59:
        return None
    tzs = m.group(8)
    tz = None
    if tzs:
        if tzs == "z":
            tz = UTC
        else:
            digits = tzs[1:].replace(":", "")
            hh, mm = int(digits[:2]), int(digits[2:4] or 0)
            if hh > 23 or mm > 59:
                return None
            off = timedelta(hours=hh, minutes=mm)
            tz = timezone(off if tzs[0] == "+" else -off)
    return [_C("datetime", datetime(y, mo, d, h, mi, s, tzinfo=tz))]


@_pat("*", "d", r"((?:19|20)[0-9]{2})[-/.]([0-9]{1,2})(?![0-9/.-])")
def _ym(m):
    mo = int(m.group(2))
    return [_C("ym", (int(m.group(1)), mo), WEAK)] if 1 <= mo <= 12 else None


@_pat("*", "d", r"([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?(?![0-9])(?:\s*(a\.?m\.?|p\.?m\.?)(?![a-z]))?")
def _clock_colon(m):
    h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    ampm = (m.group(4) or "")[:1] or None
    if h > 24 or mi > 59 or s > 59 or (ampm and not 1 <= h <= 12):
        return None
    return [_C("clock", (h, mi, s, ampm, "minute"), WEAK)]
