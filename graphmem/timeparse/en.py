"""English time expressions: last night, last Friday, 3 days ago, the past few months, May 4th, 2023,
at 8pm, last summer …"""

from __future__ import annotations

import re

from .lexer import _C, STRONG, VERYWEAK, WB, WEAK, _ago, _alt, _pat, _window

_EN_DAYREL: dict[str, tuple[int, str | None]] = {
    "today": (0, None),
    "tonight": (0, "night"),
    "yesterday": (-1, None),
    "tomorrow": (1, None),
    "tmrw": (1, None),
    "tmr": (1, None),
    "the day before yesterday": (-2, None),
    "day before yesterday": (-2, None),
    "the day after tomorrow": (2, None),
    "day after tomorrow": (2, None),
    "last night": (-1, "night"),
    "the night before last": (-2, "night"),
    "this morning": (0, "morning"),
    "this afternoon": (0, "afternoon"),
    "this evening": (0, "evening"),
    "this noon": (0, "noon"),
    "this early morning": (0, "early_morning"),
}


@_pat("en", "a", rf"({_alt(_EN_DAYREL)}){WB}")
def _en_dayrel(m):
    off, pod = _EN_DAYREL[re.sub(r"\s+", " ", m.group(1))]
    out = [_C("day_rel", off)]
    if pod:
        out.append(_C("pod", pod))
    return out


@_pat("en", "a", rf"(right\s+now|just\s+now|now|at\s+the\s+moment|at\s+present){WB}")
def _en_now(m):
    return [_C("now", None, WEAK)]


@_pat("en", "a", rf"(?:(?:in|during)\s+the\s+|at\s+)?(early\s+morning|morning|afternoon|evening|night){WB}")
def _en_pod(m):
    word = re.sub(r"\s+", " ", m.group(1))
    return [_C("pod", "early_morning" if word == "early morning" else word, WEAK)]


@_pat("en", "a", rf"(?:at\s+)?(noon|midday|midnight){WB}")
def _en_noon(m):
    if m.group(1) == "midnight":
        return [_C("clock", (0, 0, 0, None, "minute"), WEAK)]
    return [_C("clock", (12, 0, 0, None, "minute"), WEAK), _C("pod", "noon", WEAK)]


_EN_WD_FULL = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_EN_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_WD_ALT = "|".join(_EN_WD_FULL) + "|" + _alt(_EN_WD_ABBR)


def _en_wd(word: str) -> tuple[int, bool]:
    word = word.rstrip(".")
    if word in _EN_WD_FULL:
        return _EN_WD_FULL.index(word), True
    return _EN_WD_ABBR[word], False


@_pat("en", "a", rf"(?:(last|this|next|coming|past|previous)\s+)?({_WD_ALT})\.?{WB}")
def _en_weekday(m):
    wd, full = _en_wd(m.group(2))
    mode = {"coming": "next", "past": "last", "previous": "last"}.get(m.group(1), m.group(1))
    return [_C("weekday", (wd, mode), STRONG if (full or mode) else WEAK)]


@_pat("en", "p", rf"\(\s*({_WD_ALT})\.?\s*\)")
def _en_paren_weekday(m):
    wd, _ = _en_wd(m.group(1))
    return [_C("weekday", (wd, None), WEAK)]


_EN_REL = {"last": -1, "previous": -1, "this": 0, "current": 0, "next": 1, "coming": 1}


@_pat("en", "a", rf"(last|previous|this|current|next|coming)\s+(week|month|year|weekend){WB}")
def _en_rel_period(m):
    off, unit = _EN_REL[m.group(1)], m.group(2)
    if unit == "week":
        return [_C("week", (off, None))]
    if unit == "weekend":
        return [_C("week", (off, "weekend"))]
    if unit == "month":
        return [_C("month_rel", off)]
    return [_C("year_rel", off)]


@_pat("en", "a", rf"the\s+(week|month|year)\s+(before\s+last|after\s+next){WB}")
def _en_rel_period2(m):
    off = -2 if m.group(2).startswith("before") else 2
    kind = {"week": "week", "month": "month_rel", "year": "year_rel"}[m.group(1)]
    return [_C(kind, (off, None) if kind == "week" else off)]


@_pat("en", "a", rf"(?:(?:over|on|at|during|for)\s+)?(?:this\s+past|the\s+past|the)\s+weekend{WB}")
def _en_the_weekend(m):
    return [_C("weekend", None)]


@_pat("en", "a", rf"weekend{WB}")
def _en_weekend_bare(m):
    return [_C("weekend", None, WEAK)]


_EN_COUNT = (
    r"[0-9]+|a\s+couple\s+of|couple\s+of|a\s+couple|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
)
_EN_UNIT = {
    "minute": "minute",
    "min": "minute",
    "hour": "hour",
    "hr": "hour",
    "day": "day",
    "week": "week",
    "month": "month",
    "year": "year",
}


@_pat("en", "ad", rf"({_EN_COUNT})\s+(minute|min|hour|hr|day|week|month|year)s?\s+(ago|from\s+now|later|hence){WB}")
def _en_ago(m):
    sign = -1 if m.group(3) == "ago" else 1
    return _ago(m.group(1), _EN_UNIT[m.group(2)], sign)


@_pat("en", "a", rf"in\s+({_EN_COUNT})\s+(minute|min|hour|hr|day|week|month|year)s?{WB}")
def _en_in(m):
    out = _ago(m.group(1), _EN_UNIT[m.group(2)], 1)
    return [c._replace(strength=WEAK) for c in out] if out else None


@_pat(
    "en",
    "a",
    rf"(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?:past|last)\s+({_EN_COUNT}|few|several)\s+(day|week|month|year)s?{WB}",
)
def _en_window(m):
    return _window(m.group(1), _EN_UNIT[m.group(2)])


@_pat("en", "a", rf"(?:(?:in|over|during|within|for)\s+)?the\s+(?:past|last)\s+(day|week|month|year){WB}")
def _en_window1(m):
    return _window("1", m.group(1))


_EN_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_EN_MON_ABBR = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MON_ALT = "|".join(_EN_MONTHS) + "|" + _alt(_EN_MON_ABBR)


def _en_month(word: str) -> tuple[int, bool]:
    """Month number and whether the word is unambiguous on its own."""
    word = word.rstrip(".")
    if word in _EN_MONTHS:
        return _EN_MONTHS.index(word) + 1, word not in ("may", "march")
    return _EN_MON_ABBR[word], False


_YEAR = r"((?:19|20)[0-9]{2})(?![0-9])"
_DAYNUM = r"([0-9]{1,2})(?:st|nd|rd|th)?(?![0-9a-z:])"


def _md(y: str | None, mon: str, d: str | None) -> list[_C] | None:
    mo, _ = _en_month(mon)
    out: list[_C] = [_C("month", (mo, None))]
    if d is not None:
        dd = int(d)
        if not 1 <= dd <= 31:
            return None
        out.append(_C("day", dd))
    if y is not None:
        out.append(_C("year", int(y)))
    return out


@_pat("en", "a", rf"({_MON_ALT})\.?\s+{_DAYNUM}(?:\s*,?\s*{_YEAR})?")
def _en_mon_day(m):
    return _md(m.group(3), m.group(1), m.group(2))


@_pat("en", "d", rf"{_DAYNUM}\s+(?:of\s+)?({_MON_ALT})\.?(?![a-z])(?:\s*,?\s*{_YEAR})?")
def _en_day_mon(m):
    return _md(m.group(3), m.group(2), m.group(1))


@_pat("en", "a", rf"({_MON_ALT})\.?\s*,?\s+{_YEAR}")
def _en_mon_year(m):
    return _md(m.group(2), m.group(1), None)


@_pat(
    "en",
    "a",
    rf"(?:(in|during|since|until|till|by|early|late|mid|last|this|next)[\s-]+)?({_MON_ALT})\.?(?![a-z])"
    r"(?!\s*,?\s*[0-9])",
)  # "May 4" / "May 2023" belong to the date patterns
def _en_month_bare(m):
    mo, unambiguous = _en_month(m.group(2))
    prefix = m.group(1)
    mode = prefix if prefix in ("last", "this", "next") else None
    strength = STRONG if prefix else (WEAK if unambiguous else VERYWEAK)
    return [_C("month", (mo, mode), strength)]


@_pat("en", "a", rf"(?:in|during|since|of|year)\s+{_YEAR}")
def _en_year(m):
    return [_C("year", int(m.group(1)))]


@_pat("*", "d", _YEAR)
def _bare_year(m):
    return [_C("year", int(m.group(1)), WEAK)]


_AMPM = r"(a\.?m\.?|p\.?m\.?)(?![a-z])"


@_pat("en", "adp", rf"(?:(?:at|around|about|by)\s+|@\s*)?([0-9]{{1,2}})(?::([0-9]{{2}}))?\s*{_AMPM}")
def _en_clock_ampm(m):
    h, mi = int(m.group(1)), int(m.group(2) or 0)
    if not 1 <= h <= 12 or mi > 59:
        return None
    return [_C("clock", (h, mi, 0, m.group(3)[0], "minute" if m.group(2) else "hour"), WEAK)]


@_pat(
    "en",
    "adp",
    r"(?:(?:at|around|about|by)\s+|@\s*)?([0-9]{1,2})(?::([0-9]{2}))?\s*o['’]?clock(?![a-z])"
    r"|(?:at|around|about|by)\s+([0-9]{1,2})(?::([0-9]{2}))?(?![0-9a-z:])",
)
def _en_clock_at(m):
    h = int(m.group(1) or m.group(3))
    mins = m.group(2) or m.group(4)
    mi = int(mins or 0)
    if h > 24 or mi > 59:
        return None
    return [_C("clock", (h, mi, 0, None, "minute" if mins else "hour"), WEAK)]


_PART_OF_YEAR = {"start": "early", "beginning": "early", "middle": "mid", "end": "late"}


@_pat(
    "en",
    "a",
    r"(?:(?:at|in|by|around|towards?)\s+)?the\s+(start|beginning|middle|end)\s+of"
    r"(?=\s+(?:(?:last|this|next)\s+year(?![a-z0-9])|(?:19|20)[0-9]{2}(?![0-9])))",
)
def _en_part_of_year(m):
    """the start / the end of last year, the middle of 2024: three months of that year."""
    return [_C("season", (_PART_OF_YEAR[m.group(1)], None))]


@_pat(
    "en",
    "a",
    rf"(?:(last|this|next|in|during|over|the|of)\s+)?(?:(?:the|this|past)\s+)?(spring|summer|autumn|fall|winter)"
    rf"(?:\s+(?:of\s+)?{_YEAR})?{WB}",
)
def _en_season(m):
    name = "autumn" if m.group(2) == "fall" else m.group(2)
    mode = m.group(1) if m.group(1) in ("last", "this", "next") else None
    strong = bool(m.group(1)) or m.group(3) is not None
    out = [_C("season", (name, mode), STRONG if strong else (VERYWEAK if m.group(2) == "fall" else WEAK))]
    if m.group(3):
        out.append(_C("year", int(m.group(3))))
    return out
