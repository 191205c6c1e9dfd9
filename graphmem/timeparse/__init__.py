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

Where the parts live
--------------------
``lexer.py`` (components, the pattern registry, the tokens of a text), ``zh.py`` / ``en.py`` /
``numeric.py`` (the patterns of each language and the language-neutral numeric formats),
``resolve.py`` (components combined and placed against the reference time), ``fallback.py``
(dateparser and its guards), ``values.py`` (``TimeValue`` and calendar arithmetic),
``normalize.py`` (the public functions).

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

from .fallback import warm_up
from .normalize import (
    _parse,  # noqa: F401 - for the tests
    find_time_range,
    is_rolling_window,
    is_time_key,
    normalize_time,
)
from .stamps import days_between, parse_time
from .values import TimeValue

__all__ = [
    "TimeValue",
    "normalize_time",
    "find_time_range",
    "is_rolling_window",
    "is_time_key",
    "warm_up",
    "parse_time",
    "days_between",
]
