"""Time normalisation for Chinese and English, against a reference time.

Public API
----------
``normalize_time(text, reference_time=None, *, languages=("zh", "en")) -> TimeValue``
    Normalise one time expression (an attribute value such as "昨晚", "2025-11-05 08:00",
    "1:56 pm on 8 May, 2023") to an absolute date / datetime / period.
``find_time_range(query, reference_time=None) -> (start, end, matched_text) | None``
    Find a time expression inside a longer sentence (a search query) and return the period
    it denotes, or None when the sentence holds no time expression.
``is_rolling_window(expression) -> bool``
    True when a time expression (the text ``find_time_range`` matched) is a rolling window
    ending now (过去三天, 最近几个月, "the past few months"), not a period with a name of its
    own (昨天, 上个月, "last month", "in June", "the summer").
``is_time_key(key) -> bool``
    True for attribute keys that hold a time (时间, 日期, 时候, time, date, when, datetime...).
``warm_up()``
    Optional: loads dateparser and its locale data (~0.3–0.4 s once) so that the first
    fallback call is fast.  The rules themselves need no warm-up.

Speed (measured on the test table after warm-up): ~0.02–0.07 ms per call on the rule path,
~0.3–1.5 ms when dateparser is consulted; find_time_range ~0.05–0.15 ms per query.

How it works
------------
A small lexer recognises time components (relative days, weeks, months, years, weekdays,
parts of day, clock times, absolute dates, "N units ago", rolling windows) for Chinese and
English; the components of one expression are then combined and resolved against the
reference time.  Only when the rules cannot consume the whole text does ``normalize_time``
fall back to dateparser (languages passed explicitly, parser cached per reference), and
dateparser's answer is accepted only when the text carries a real time hint (a digit, a
month or weekday name, a relative time word) and the result is within a sane range: bare
numbers ("5") and lone non-time words ("may", "a", "asdfgh") are never turned into dates.
Anything that cannot be parsed yields ``parsed=False`` with the original kept verbatim:
nothing is guessed.  ``find_time_range`` uses the rules only (no dateparser: it is slow on
long sentences and fires on ordinary words).

Conventions
-----------
* The reference time defaults to now in the local timezone; a naive reference is taken
  as UTC.  Every returned datetime is tz-aware in the reference's timezone (an explicit
  offset in the text, e.g. ``2025-11-05T08:00:00Z``, is converted to it).
* Weeks start on Monday.  ``week`` values use the ISO week as iso ("2025-W44").
* Relative days (今天/昨天/前天/大前天/明天/后天, today/yesterday/tomorrow, N天前,
  3 days ago) → granularity "day", iso "YYYY-MM-DD", start 00:00, end next midnight.
* 上周三 / 下周一 / 本周五 / 这周五 / 上上周二 = that weekday of the previous / next /
  current calendar week.  "last Friday" = the most recent Friday strictly before the
  reference day; "next Monday" (also "coming Monday") = the first Monday strictly after
  it; "this Friday" = Friday of the current calendar week.  A bare weekday (周三,
  "on Friday", "(Sat)") = the most recent such day on or before the reference day.
* 上周/last week, 这周/this week, 下周/next week, "the week before last" → the calendar
  week (granularity "week").  上个月/last month, 去年/last year likewise (month / year).
* N周前/N weeks ago → the calendar week containing (reference − N weeks); N个月前/N months
  ago → the calendar month containing (reference − N months); N年前 → that year.
  N小时前/N分钟前 → a datetime.  半个月前 ≈ the week 15 days back, 半年前 ≈ the month 6
  months back.
* Yearless dates and months (11月4日, May 4th, 3月, "November") prefer the past: the most
  recent occurrence on or before the reference day.  A bare day of month (5号) is in the
  current month, or the previous month when it would be in the future.  "last November"
  / "next May" / "this May" pick the previous / next / current-year occurrence.
  Explicit relative years or months are honoured as given (明年3月, 下个月5号).
* A clock time or part of day without a date is taken on the reference day (no past
  shifting).  A datetime's end is start + 1 minute, or + 1 hour when only the hour is
  known ("8点", "at 8am").  "noon"/"midnight" in English are clock times (12:00 / 00:00).
* Parts of day (kept in ``part_of_day``, with iso the date and start/end the part's
  hours): early_morning 凌晨 00–06, morning 早上/上午/this morning 06–12, noon 中午 12–14,
  afternoon 下午 12–18, evening 傍晚/this evening 17–21, night 晚上/夜间/昨晚/今晚/tonight/
  last night 18–06 (next day), late_night 深夜/半夜/午夜 22–04 (next day).  With a clock
  time, the part of day fixes am/pm (下午3点 = 15:00, 晚上10点半 = 22:30) and night hours
  0–5 or 12 fall on the next day (今晚12点 = tomorrow 00:00, 昨晚2点 = today 02:00); the
  result is a datetime and ``part_of_day`` is still recorded.
* Weekends (周末, 上周末, "the weekend", "last weekend"): Saturday 00:00 to Monday 00:00,
  granularity "day", iso an ISO interval "2025-11-01/2025-11-02".  A bare weekend is the
  most recent one (the current one when the reference day is Saturday or Sunday).
* Seasons (夏天, 去年夏天, 2024年冬天, "last summer", "fall 2023", "in the fall"), northern
  meteorological: spring Mar–May, summer Jun–Aug, autumn Sep–Nov, winter Dec–Feb (winter Y
  = Dec Y to Feb Y+1); granularity "month", iso an interval "2025-06/2025-08".  A bare
  season is the most recent one that has begun, "last summer" the most recent one that has
  ended, "next" the first one after the reference.  A lone "fall" is not a time.
* Rolling windows (过去三天, 最近一周, 近一个月, "the past week", "last 3 days"): from
  00:00 of (reference day − N units) to the end of the reference day, granularity "day",
  iso an interval.  Note that "last week" (calendar) differs from "the past week" (rolling).
  A window of a few (最近几个月, 过去几周, "the past few months") is taken as three units,
  of several ("the last several weeks") as five: a range read from a question only chooses
  where a search starts, and one somewhat too wide costs less than one too narrow.
* 最近 / recently / lately alone, 前几天 / a few days ago / the other day, 某个时候 /
  sometime, 以前 / when I was young: too vague to place → ``parsed=False`` and
  ``find_time_range`` returns None for them (recency is left to the retriever's time decay).
* A bare four-digit year ("2023") is accepted by ``normalize_time`` (an attribute value of
  just a year) but not by ``find_time_range`` ("I took 2023 photos"); there it needs a
  marker (2023年, "in 2023").
* ``find_time_range`` only fires on expressions that contain a date-like component; a
  lone clock time, part of day ("in the morning", 早上), "now", a bare day number (5号),
  an ambiguous word ("may", "march", "sat") or a duration ("一周三次", "in 3 days" is
  accepted only by ``normalize_time``) is ignored, so that habitual questions ("what do I
  eat in the morning") get no time filter.  Two expressions joined by a range word
  (到/至/~/-/to/until/through/and/和) are merged into one range ("从上周一到昨天",
  "between May 1 and May 5, 2023"); otherwise the first expression wins.
"""
from __future__ import annotations

import functools
import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

__all__ = ["TimeValue", "normalize_time", "find_time_range", "is_rolling_window", "is_time_key", "warm_up"]

log = logging.getLogger(__name__)

GRANULARITIES = ("datetime", "day", "week", "month", "year")


# --------------------------------------------------------------------------------------
# Result type
# --------------------------------------------------------------------------------------

_POD_ZH = {
    "early_morning": "凌晨", "morning": "早上", "noon": "中午", "afternoon": "下午",
    "evening": "傍晚", "night": "夜间", "late_night": "深夜",
}
_POD_HOURS = {  # part of day → (start hour, end hour); hours ≥ 24 are on the next day
    "early_morning": (0, 6), "morning": (6, 12), "noon": (12, 14), "afternoon": (12, 18),
    "evening": (17, 21), "night": (18, 30), "late_night": (22, 28),
}
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


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
            label = (_POD_ZH.get(self.part_of_day, self.part_of_day)
                     if _CJK_RE.search(self.original) else self.part_of_day.replace("_", " "))
            return f"{self.iso} {label}"
        return self.iso

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.display()


def _unparsed(text: str) -> TimeValue:
    return TimeValue(original=text)


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------

def _reference(reference_time: datetime | None) -> datetime:
    if reference_time is None:
        return datetime.now().astimezone()
    if reference_time.tzinfo is None or reference_time.utcoffset() is None:
        return reference_time.replace(tzinfo=timezone.utc)
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


def _norm_text(text: str) -> str:
    """NFKC + lower-case, character by character so indices stay aligned with ``text``."""
    if text.isascii():
        return text.lower()
    out = []
    for ch in text:
        c = unicodedata.normalize("NFKC", ch)
        if len(c) != 1:
            c = ch
        low = c.lower()
        out.append(low if len(low) == 1 else c)
    return "".join(out)


_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "a couple of": 2, "couple of": 2, "a couple": 2}


def _num(tok: str | None) -> int | None:
    """Arabic, Chinese (一…九十, 两, 二〇二五) or English (one…twelve, a, a couple of) number."""
    if tok is None:
        return None
    tok = re.sub(r"\s+", " ", tok.strip())
    if not tok:
        return None
    if tok.isascii() and tok.isdigit():
        return int(tok) if len(tok) <= 6 else None
    if tok in _EN_NUM:
        return _EN_NUM[tok]
    if "十" in tok:
        head, _, tail = tok.partition("十")
        if len(head) > 1 or len(tail) > 1:
            return None
        tens = _CN_DIGIT.get(head) if head else 1
        ones = _CN_DIGIT.get(tail) if tail else 0
        if not tens or ones is None:
            return None
        return tens * 10 + ones
    if len(tok) == 1:
        return _CN_DIGIT.get(tok)
    if len(tok) == 4 and all(c in _CN_DIGIT and c != "两" for c in tok):  # 二〇二五
        return int("".join(str(_CN_DIGIT[c]) for c in tok))
    return None


# --------------------------------------------------------------------------------------
# Components and the lexer
# --------------------------------------------------------------------------------------

STRONG, WEAK, VERYWEAK = 2, 1, 0


class _C(NamedTuple):
    kind: str
    val: Any
    strength: int = STRONG


class _Pat(NamedTuple):
    lang: str                      # "zh", "en" or "*" (language-neutral)
    first: str                     # which characters a match can start with: a=letter d=digit c=cjk p=punct
    rx: Any                        # the regex source here; compiled by _patterns_for (lazily: import stays cheap)
    handler: Callable[[re.Match[str]], list[_C] | None]


_PATTERNS: list[_Pat] = []


def _pat(lang: str, first: str, regex: str):
    def deco(fn):
        _PATTERNS.append(_Pat(lang, first, regex, fn))
        return fn
    return deco


def _alt(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True))


CN = "[零〇一二两三四五六七八九十]"
NUM = rf"(?:[0-9]+|{CN}+)"
WB = r"(?![a-z0-9])"          # English word end
_NOT_AFTER_PREFIX = r"(?<![以之从提然先])"   # 以前天气 / 然后天 / 以前年 are not 前天 / 后天 / 前年

# ---- Chinese -----------------------------------------------------------------------

_ZH_DAYPOD = {"大前晚": (-3, "night"), "前晚": (-2, "night"), "昨晚": (-1, "night"),
              "昨夜": (-1, "night"), "今晚": (0, "night"), "今夜": (0, "night"),
              "明晚": (1, "night"), "明夜": (1, "night"), "今早": (0, "morning"),
              "今晨": (0, "morning"), "明早": (1, "morning"), "昨早": (-1, "morning"),
              "昨晨": (-1, "morning")}


@_pat("zh", "c", rf"{_NOT_AFTER_PREFIX}({_alt(_ZH_DAYPOD)})(?:上|里|间)?")
def _zh_daypod(m):
    off, pod = _ZH_DAYPOD[m.group(1)]
    return [_C("day_rel", off), _C("pod", pod)]


_ZH_DAYREL = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨儿": -1, "今天": 0,
              "今日": 0, "今儿": 0, "明天": 1, "明日": 1, "明儿": 1, "后天": 2, "大后天": 3}


@_pat("zh", "c", rf"{_NOT_AFTER_PREFIX}({_alt(_ZH_DAYREL)})(?:个)?")
def _zh_dayrel(m):
    return [_C("day_rel", _ZH_DAYREL[m.group(1)])]


_ZH_REL = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_ZH_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
          "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6}
_WD_CHARS = "一二三四五六日天1-7"
# 这周一直… / 上周一起… / 一周三次 are not weekdays
_WD_ONE = rf"(?:一(?![直起共些样切般定下点次遍趟回个])|[二三四五六日天1-7](?![次个遍回趟]))"


@_pat("zh", "c", rf"(?<![一以])(上上|上|这|本|下下|下)(?:一)?(?:个)?(?:周|星期|礼拜)"
                 rf"(?![围边年岁期到全长刊报])(?:(末)|(?=({_WD_ONE}))[{_WD_CHARS}])?")
def _zh_week(m):
    off = _ZH_REL[m.group(1)]
    if m.group(2):
        return [_C("week", (off, "weekend"))]
    if m.group(3):
        return [_C("week", (off, _ZH_WD[m.group(3)]))]
    return [_C("week", (off, None))]


@_pat("zh", "c", rf"(?<![一二两三四五六七八九十0-9几每上下这本个])(?:周|星期|礼拜)(?=({_WD_ONE}))[{_WD_CHARS}]")
def _zh_weekday(m):
    return [_C("weekday", (_ZH_WD[m.group(1)], None))]


@_pat("zh", "c", r"(?<![每上下这本个])周末")
def _zh_weekend(m):
    return [_C("weekend", None)]


@_pat("zh", "c", r"(?<![一以])(上上|上|这|本|下下|下)(?:一)?(?:个)?月(?:份)?(?![亮光球饼经薪票台])")
def _zh_month_rel(m):
    return [_C("month_rel", _ZH_REL[m.group(1)])]


_ZH_YEARREL = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2, "大后年": 3}


@_pat("zh", "c", rf"{_NOT_AFTER_PREFIX}({_alt(_ZH_YEARREL)})(?!级|龄|纪)")
def _zh_year_rel(m):
    return [_C("year_rel", _ZH_YEARREL[m.group(1)])]


@_pat("zh", "dc", r"(?<![0-9])((?:19|20)[0-9]{2}|[零〇一二三四五六七八九]{4})\s*年(?!代|级|龄|纪)")
def _zh_year(m):
    y = _num(m.group(1))
    return [_C("year", y)] if y and 1000 <= y <= 2999 else None


@_pat("zh", "dc", rf"({NUM})\s*月(?:份)?(?:(初|中旬|上旬|下旬|中|底|末))?")
def _zh_month(m):
    mo = _num(m.group(1))
    return [_C("month", (mo, None))] if mo and 1 <= mo <= 12 else None


@_pat("zh", "dc", rf"({NUM})\s*(?:日|号)(?![楼线房室院门车位码])")
def _zh_day(m):
    d = _num(m.group(1))
    return [_C("day", d, WEAK)] if d and 1 <= d <= 31 else None


_ZH_UNIT = {"小时": "hour", "钟头": "hour", "分钟": "minute", "天": "day", "日": "day",
            "周": "week", "星期": "week", "礼拜": "week", "月": "month", "年": "year"}


@_pat("zh", "dc", rf"({NUM}|半)\s*(?:个)?\s*(小时|钟头|分钟|天|日|周|星期|礼拜|月|年)\s*(以前|之前|前|以后|之后|后)")
def _zh_ago(m):
    sign = -1 if "前" in m.group(3) else 1
    return _ago(m.group(1), _ZH_UNIT[m.group(2)], sign)


@_pat("zh", "c", rf"(?:过去|最近|近)(?:的)?\s*({NUM}|半|几)\s*(?:个)?\s*(天|日|周|星期|礼拜|月|年)(?:里|内|中|来|以来)?")
def _zh_window(m):
    return _window(m.group(1), _ZH_UNIT[m.group(2)])


_ZH_POD = {"凌晨": "early_morning", "拂晓": "early_morning", "早上": "morning",
           "早晨": "morning", "清晨": "morning", "上午": "morning", "早间": "morning",
           "中午": "noon", "正午": "noon", "午间": "noon", "下午": "afternoon",
           "午后": "afternoon", "傍晚": "evening", "黄昏": "evening", "晚上": "night",
           "夜里": "night", "夜间": "night", "夜晚": "night", "晚间": "night",
           "半夜": "late_night", "深夜": "late_night", "午夜": "late_night"}


@_pat("zh", "c", rf"({_alt(_ZH_POD)})")
def _zh_pod(m):
    return [_C("pod", _ZH_POD[m.group(1)], WEAK)]


@_pat("zh", "dc", rf"({NUM})\s*(?:点|时)(?:钟)?(?![儿点])(?:\s*(半|一刻|三刻|整)|\s*({NUM})\s*(?:分)?)?")
def _zh_clock(m):
    h = _num(m.group(1))
    if h is None or h > 24:
        return None
    extra, mi = m.group(2), 0
    if extra == "半":
        mi = 30
    elif extra == "一刻":
        mi = 15
    elif extra == "三刻":
        mi = 45
    elif m.group(3):
        mi = _num(m.group(3))
        if mi is None or mi >= 60:
            return None
    precision = "minute" if (extra and extra != "整") or m.group(3) else "hour"
    return [_C("clock", (h, mi, 0, None, precision), WEAK)]


@_pat("zh", "c", r"(现在|此刻|刚才|刚刚|目前)")
def _zh_now(m):
    return [_C("now", None, WEAK)]


# ---- Language-neutral numeric formats -----------------------------------------------

@_pat("*", "d", r"((?:19|20)[0-9]{2})([-/.])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])"
                r"(?:(?:t|\s+)([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?"
                r"\s*(z|[+-][0-9]{2}(?::?[0-9]{2})?)?(?![0-9]))?")
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
            tz = timezone.utc
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


# ---- English ------------------------------------------------------------------------

_EN_DAYREL: dict[str, tuple[int, str | None]] = {
    "today": (0, None), "tonight": (0, "night"), "yesterday": (-1, None),
    "tomorrow": (1, None), "tmrw": (1, None), "tmr": (1, None),
    "the day before yesterday": (-2, None), "day before yesterday": (-2, None),
    "the day after tomorrow": (2, None), "day after tomorrow": (2, None),
    "last night": (-1, "night"), "the night before last": (-2, "night"),
    "this morning": (0, "morning"), "this afternoon": (0, "afternoon"),
    "this evening": (0, "evening"), "this noon": (0, "noon"),
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
_EN_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
               "fri": 4, "sat": 5, "sun": 6}
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


_EN_COUNT = r"[0-9]+|a\s+couple\s+of|couple\s+of|a\s+couple|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_EN_UNIT = {"minute": "minute", "min": "minute", "hour": "hour", "hr": "hour", "day": "day",
            "week": "week", "month": "month", "year": "year"}


@_pat("en", "ad", rf"({_EN_COUNT})\s+(minute|min|hour|hr|day|week|month|year)s?\s+(ago|from\s+now|later|hence){WB}")
def _en_ago(m):
    sign = -1 if m.group(3) == "ago" else 1
    return _ago(m.group(1), _EN_UNIT[m.group(2)], sign)


@_pat("en", "a", rf"in\s+({_EN_COUNT})\s+(minute|min|hour|hr|day|week|month|year)s?{WB}")
def _en_in(m):
    out = _ago(m.group(1), _EN_UNIT[m.group(2)], 1)
    return [c._replace(strength=WEAK) for c in out] if out else None


@_pat("en", "a", rf"(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?:past|last)\s+({_EN_COUNT}|few|several)\s+(day|week|month|year)s?{WB}")
def _en_window(m):
    return _window(m.group(1), _EN_UNIT[m.group(2)])


@_pat("en", "a", rf"(?:(?:in|over|during|within|for)\s+)?the\s+(?:past|last)\s+(day|week|month|year){WB}")
def _en_window1(m):
    return _window("1", m.group(1))


_EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
              "september", "october", "november", "december"]
_EN_MON_ABBR = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
                "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
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


@_pat("en", "a", rf"(?:(in|during|since|until|till|by|early|late|mid|last|this|next)[\s-]+)?({_MON_ALT})\.?(?![a-z])"
                 r"(?!\s*,?\s*[0-9])")   # "May 4" / "May 2023" belong to the date patterns
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


@_pat("en", "adp", r"(?:(?:at|around|about|by)\s+|@\s*)?([0-9]{1,2})(?::([0-9]{2}))?\s*o['’]?clock(?![a-z])"
                  r"|(?:at|around|about|by)\s+([0-9]{1,2})(?::([0-9]{2}))?(?![0-9a-z:])")
def _en_clock_at(m):
    h = int(m.group(1) or m.group(3))
    mins = m.group(2) or m.group(4)
    mi = int(mins or 0)
    if h > 24 or mi > 59:
        return None
    return [_C("clock", (h, mi, 0, None, "minute" if mins else "hour"), WEAK)]


_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}
_ZH_SEASON = {"春天": "spring", "春季": "spring", "夏天": "summer", "夏季": "summer",
              "秋天": "autumn", "秋季": "autumn", "冬天": "winter", "冬季": "winter"}


@_pat("zh", "c", rf"({_alt(_ZH_SEASON)})")
def _zh_season(m):
    return [_C("season", (_ZH_SEASON[m.group(1)], None))]


@_pat("en", "a", rf"(?:(last|this|next|in|during|over|the|of)\s+)?(?:(?:the|this|past)\s+)?(spring|summer|autumn|fall|winter)"
                 rf"(?:\s+(?:of\s+)?{_YEAR})?{WB}")
def _en_season(m):
    name = "autumn" if m.group(2) == "fall" else m.group(2)
    mode = m.group(1) if m.group(1) in ("last", "this", "next") else None
    strong = bool(m.group(1)) or m.group(3) is not None
    out = [_C("season", (name, mode), STRONG if strong else (VERYWEAK if m.group(2) == "fall" else WEAK))]
    if m.group(3):
        out.append(_C("year", int(m.group(3))))
    return out


# ---- shared component builders ------------------------------------------------------

def _ago(count: str, unit: str, sign: int) -> list[_C] | None:
    if count == "半":
        half = {"hour": ("minute", 30), "month": ("day", 15), "year": ("month", 6)}
        if unit not in half:
            return None
        unit2, n = half[unit]
        if unit2 == "day":   # 半个月前 ≈ the week 15 days back
            return [_C("ago", (15, "day_week", sign))]
        return [_C("ago", (n, unit2, sign))]
    n = _num(count)
    if n is None or n > 100000:
        return None
    return [_C("ago", (n, unit, sign))]


# how many units "a few" and "several" make in a rolling window (not in "a few days ago": a point
# that vague is left unplaced)
_WINDOW_FEW = {"几": 3, "few": 3, "several": 5}


def _window(count: str, unit: str) -> list[_C] | None:
    if count in _WINDOW_FEW:
        return [_C("window", (_WINDOW_FEW[count], unit))]
    if count == "半":
        if unit == "month":
            return [_C("window", (15, "day"))]
        if unit == "year":
            return [_C("window", (6, "month"))]
        return None
    n = _num(count)
    if not n or n > 100000 or unit not in ("day", "week", "month", "year"):
        return None
    return [_C("window", (n, unit))]


# ---- fillers, separators, connectives -----------------------------------------------

_FILLER_EN = re.compile(r"(?:on|in|at|of|the|during|around|about|approximately|approx\.?|roughly|circa|ca\.|by|from|since|between|sometime\s+on)(?![a-z0-9])"
                        r"|(?:early|late|mid)(?:-|(?![a-z0-9]))")
_FILLER_ZH = re.compile(r"(?:的|在|于|从|自|大概|大约|约莫|约|差不多|左右|前后)")
_CONN = re.compile(r"(?:到|至|~|-|–|—|和|与|跟)|(?:to|until|till|through|thru|and)(?![a-z0-9])")
_BREAK = set("。!！?？;；\n\r")
_SEP = set(" \t,，、.:：()（）[]【】\"'“”‘’/·")


class _Tok(NamedTuple):
    kind: str          # comp | filler | sep | conn | break | junk
    start: int
    end: int
    comps: list[_C] | None = None


def _is_ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _char_class(ch: str) -> str:
    if ch.isascii():
        if ch.isdigit():
            return "d"
        if ch.isalpha():
            return "a"
        return "p"
    return "c"


@functools.lru_cache(maxsize=16)
def _patterns_for(langs: tuple[str, ...]) -> dict[str, list[_Pat]]:
    table: dict[str, list[_Pat]] = {"a": [], "d": [], "c": [], "p": []}
    for p in _PATTERNS:
        if p.lang != "*" and p.lang not in langs:
            continue
        compiled = p._replace(rx=_compiled(p.rx))
        for cls in p.first:
            table[cls].append(compiled)
    return table


@functools.lru_cache(maxsize=None)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _tokens(s: str, langs: tuple[str, ...], stop_on_junk: bool) -> Iterator[_Tok]:
    table = _patterns_for(langs)
    use_en = "en" in langs
    use_zh = "zh" in langs
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch.isspace() and ch not in _BREAK:
            i += 1
            continue
        if not (_is_ascii_alnum(ch) and i > 0 and _is_ascii_alnum(s[i - 1])):
            found = None
            cands = []
            for p in table[_char_class(ch)]:
                m = p.rx.match(s, i)
                if m and m.end() > i:
                    cands.append((m.end(), -len(cands), m, p))
            if cands:
                cands.sort(reverse=True)
                for end, _, m, p in cands:
                    comps = p.handler(m)
                    if comps:
                        found = _Tok("comp", i, end, comps)
                        break
            if found:
                yield found
                i = found.end
                continue
        if ch in _BREAK:
            yield _Tok("break", i, i + 1)
            i += 1
            continue
        m = _CONN.match(s, i)
        if m and (not ch.isascii() or not ch.isalpha() or i == 0 or not _is_ascii_alnum(s[i - 1])):
            if ch.isalpha() and ch.isascii() and not use_en:
                m = None
            if m:
                yield _Tok("conn", i, m.end())
                i = m.end()
                continue
        if ch in _SEP:
            yield _Tok("sep", i, i + 1)
            i += 1
            continue
        if use_en and ch.isascii() and ch.isalpha() and (i == 0 or not _is_ascii_alnum(s[i - 1])):
            m = _FILLER_EN.match(s, i)
            if m:
                yield _Tok("filler", i, m.end())
                i = m.end()
                continue
        if use_zh and not ch.isascii():
            m = _FILLER_ZH.match(s, i)
            if m:
                yield _Tok("filler", i, m.end())
                i = m.end()
                continue
        j = i + 1
        if _is_ascii_alnum(ch):
            while j < n and _is_ascii_alnum(s[j]):
                j += 1
        yield _Tok("junk", i, j)
        if stop_on_junk:
            return
        i = j


# --------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------

class _Res(NamedTuple):
    iso: str
    start: datetime
    end: datetime
    granularity: str
    part_of_day: str | None


_SOURCE_OF = {"date": "date", "datetime": "datetime", "now": "now", "year": "cal",
              "year_rel": "cal", "month": "cal", "month_rel": "cal", "day": "cal", "ym": "cal",
              "season": "cal",
              "day_rel": "day_rel", "week": "week", "weekend": "weekend", "ago": "ago",
              "window": "window"}


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
        return _Res(f"{y:04d}-{mo:02d}/{ly:04d}-{lm:02d}", _at(tz, date(y, mo, 1)), _at(tz, date(ey, em, 1)),
                    "month", None)
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
            start = next(s for s, e in occ if s.year == (today.year - 1 if sm == 12 and today.month <= 2 else today.year))
        else:  # bare: the most recent one that has begun
            start = max(s for s, e in occ if s <= today)
        year = start.year
    return ("months", year, sm, 3)


def _resolve_calendar(slots: dict[str, Any], today: date) -> tuple | None:
    if "season" in slots:
        if any(k in slots for k in ("month", "month_rel", "day", "ym")):
            return None
        name, mode = slots["season"]
        y = slots.get("year")
        if "year_rel" in slots:
            if y is not None:
                return None
            y = today.year + slots["year_rel"]
        return _season(name, mode, y, today)
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
    return TimeValue(original=original, iso=r.iso, start=r.start, end=r.end,
                     granularity=r.granularity, part_of_day=r.part_of_day, parsed=True)


# --------------------------------------------------------------------------------------
# dateparser fallback
# --------------------------------------------------------------------------------------

_DP_SETTINGS_BASE = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False,
                     "RETURN_TIME_AS_PERIOD": True}


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
    r"morning|afternoon|evening|night|noon|midnight)(?![a-z])")
_BARE_NUMBER_RE = re.compile(r"[\s0-9.,:+\-]*")


def _dateparser_fallback(text: str, norm: str, ref: datetime, languages: tuple[str, ...]) -> _Res | None:
    stripped = norm.strip()
    if not stripped or len(stripped) > 80:
        return None
    if _BARE_NUMBER_RE.fullmatch(stripped):          # "5", "2023.5", "12:00:00:00"...
        return None
    if re.fullmatch(r"[a-z]+\.?", stripped):          # one English word: the rules know them all
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
        return _Res(f"{day.year:04d}-{day.month:02d}", _at(tz, date(day.year, day.month, 1)),
                    _at(tz, date(ny, nm, 1)), "month", None)
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


# --------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------

def _langs(languages: Iterable[str]) -> tuple[str, ...]:
    out = []
    for lang in languages:
        code = str(lang).lower()
        base = code.split("-")[0].split("_")[0]
        if base in ("zh", "en") and base not in out:
            out.append(base)
    return tuple(out)


def _parse(text: str, ref: datetime, languages: tuple[str, ...]) -> _Res | None:
    """Rules first; dateparser only when the rules cannot read the whole text."""
    norm = _norm_text(text)
    if not norm.strip():
        return None
    rule_langs = _langs(languages)
    comps: list[_C] = []
    complete = True
    for tok in _tokens(norm, rule_langs, stop_on_junk=True):
        if tok.kind == "comp":
            assert tok.comps is not None
            comps.extend(tok.comps)
        elif tok.kind in ("junk", "conn", "break"):
            complete = False
            break
    if complete and comps:
        return _resolve(comps, ref)        # the rules read it all: their answer (or none) stands
    if complete:
        return None                        # only fillers / punctuation
    try:
        return _dateparser_fallback(text, norm, ref, tuple(languages))
    except (ValueError, OverflowError):   # e.g. a period running past year 9999
        return None


def normalize_time(text: str, reference_time: datetime | None = None, *,
                   languages: Sequence[str] = ("zh", "en")) -> TimeValue:
    """Normalise a time expression against ``reference_time`` (see the module docstring).

    Never raises on any string: what cannot be read comes back with ``parsed=False`` and
    the original text kept verbatim.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    try:
        ref = _reference(reference_time)
        res = _parse(text, ref, tuple(languages))
    except Exception:  # a safety net: a time attribute must never break a write
        log.warning("time normalisation failed for %r", text, exc_info=True)
        return _unparsed(text)
    return _to_value(text, res) if res is not None else _unparsed(text)


def _scan(query: str, ref: datetime, langs: tuple[str, ...]) -> list[tuple[_Res, int, int, bool]]:
    """All time expressions in ``query``: (result, start, end, joined_to_previous_by_a_range_word)."""
    norm = _norm_text(query)
    groups: list[tuple[list[_C], int, int, bool]] = []
    cur: list[_C] = []
    cur_start = cur_end = 0
    pending_conn = False     # a connective seen since the last group closed
    conn_ok = False          # the gap since the last group holds only connective/fillers
    gap_clean = True

    def close():
        nonlocal cur, pending_conn, gap_clean
        if cur:
            groups.append((cur, cur_start, cur_end, conn_ok))
            cur = []
            pending_conn = False
            gap_clean = True

    for tok in _tokens(norm, langs, stop_on_junk=False):
        if tok.kind == "comp":
            assert tok.comps is not None
            if not cur:
                cur_start = tok.start
                conn_ok = bool(groups) and pending_conn and gap_clean
            cur.extend(tok.comps)
            cur_end = tok.end
        elif tok.kind in ("filler", "sep"):
            continue
        elif tok.kind == "conn":
            close()
            pending_conn = True
        else:  # junk or break
            close()
            gap_clean = False
            pending_conn = False
    close()

    # "between May 1 and May 5, 2023" / "5月1日到5月5日": the later year applies to the earlier part
    for k in range(len(groups) - 1, 0, -1):
        later, earlier = groups[k], groups[k - 1]
        if not later[3]:
            continue
        kinds_e = {c.kind for c in earlier[0]}
        year_l = [c for c in later[0] if c.kind in ("year", "year_rel")]
        if year_l and "month" in kinds_e and not kinds_e & {"year", "year_rel", "ym", "date"}:
            groups[k - 1] = (earlier[0] + year_l[:1], earlier[1], earlier[2], earlier[3])

    found: list[tuple[_Res, int, int, bool]] = []
    prev_ok = False
    for comps, start, end, joined in groups:
        res = None
        if any(c.strength == STRONG for c in comps):
            res = _resolve(comps, ref)
            if res is None:   # conflicting parts: fall back to the longest prefix that resolves
                for k in range(len(comps) - 1, 0, -1):
                    if any(c.strength == STRONG for c in comps[:k]):
                        res = _resolve(comps[:k], ref)
                        if res is not None:
                            break
        if res is not None:
            found.append((res, start, end, joined and prev_ok))
        prev_ok = res is not None
    return found


def find_time_range(query: str, reference_time: datetime | None = None) -> tuple[datetime, datetime, str] | None:
    """The period named by the first time expression in a search query, or None.

    Returns ``(start, end, matched_text)`` with tz-aware datetimes (end exclusive) and the
    matched part of ``query``; expressions joined by a range word are merged.
    """
    if not isinstance(query, str) or not query.strip():
        return None
    try:
        ref = _reference(reference_time)
        found = _scan(query, ref, ("zh", "en"))
    except Exception:
        log.warning("time range detection failed for %r", query, exc_info=True)
        return None
    if not found:
        return None
    res, start_i, end_i, _ = found[0]
    lo, hi = res.start, res.end
    for nxt, _s, e, joined in found[1:]:
        if not joined:
            break
        lo, hi = min(lo, nxt.start), max(hi, nxt.end)
        end_i = e
    return lo, hi, query[start_i:end_i]


def is_rolling_window(expression: str) -> bool:
    """True when ``expression`` holds a rolling window ending now: 过去三天, 最近几个月, 近一周,
    "the past few months", "in the last 3 days". False for a period with a name of its own
    (昨天, 上个月, 去年夏天, "last month", "last weekend", "in June") and for anything else.

    A window's words say how far back to look and nothing about what happened: a turn that says
    "in the past six months" shares them with a question about "the past few months" whatever
    either is about. A named period is often how the thing itself is named ("my plans for the
    summer", "camping in June")."""
    if not isinstance(expression, str) or not expression.strip():
        return False
    return any(tok.kind == "comp" and any(c.kind == "window" for c in tok.comps or ())
               for tok in _tokens(_norm_text(expression), ("zh", "en"), stop_on_junk=False))


_TIME_KEYS_ZH = ("时间", "日期", "时候", "时刻")
_TIME_KEYS_EN = {"time", "date", "when", "datetime", "date_time", "timestamp"}


def is_time_key(key: str) -> bool:
    """True for attribute keys holding a time: 时间/日期/时候/时刻 (also as a suffix, e.g.
    发生时间), time/date/when/datetime/timestamp in any case (also as a suffix, e.g. start_time)."""
    if not isinstance(key, str):
        return False
    k = _norm_text(key).strip()
    if not k:
        return False
    if any(k == z or k.endswith(z) for z in _TIME_KEYS_ZH):
        return True
    k = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", unicodedata.normalize("NFKC", key).strip()).lower()
    k = re.sub(r"[\s\-.]+", "_", k)
    if k in _TIME_KEYS_EN:
        return True
    return any(k.endswith("_" + t) for t in ("time", "date", "datetime", "timestamp"))
