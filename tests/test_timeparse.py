"""Tests for graphmem.timeparse: pure functions, no database.

Reference time: Wednesday 2025-11-05 10:00 +08:00.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.timeparse import TimeValue, _parse, find_time_range, is_rolling_window, is_time_key, normalize_time

CST = timezone(timedelta(hours=8))
REF = datetime(2025, 11, 5, 10, 0, tzinfo=CST)  # a Wednesday


def dt(y, mo, d, h=0, mi=0):
    return datetime(y, mo, d, h, mi, tzinfo=CST)


# (text, iso, granularity, part_of_day)
CASES = [
    # --- Chinese: relative days
    ("今天", "2025-11-05", "day", None),
    ("昨天", "2025-11-04", "day", None),
    ("前天", "2025-11-03", "day", None),
    ("明天", "2025-11-06", "day", None),
    ("后天", "2025-11-07", "day", None),
    ("大前天", "2025-11-02", "day", None),
    ("大后天", "2025-11-08", "day", None),
    ("昨晚", "2025-11-04", "day", "night"),
    ("今晚", "2025-11-05", "day", "night"),
    ("今早", "2025-11-05", "day", "morning"),
    ("今天早上", "2025-11-05", "day", "morning"),
    ("昨天下午", "2025-11-04", "day", "afternoon"),
    ("中午", "2025-11-05", "day", "noon"),
    ("傍晚", "2025-11-05", "day", "evening"),
    # --- Chinese: clock times
    ("今天早上8点", "2025-11-05T08:00:00+08:00", "datetime", "morning"),
    ("早上8点", "2025-11-05T08:00:00+08:00", "datetime", "morning"),
    ("晚上10点半", "2025-11-05T22:30:00+08:00", "datetime", "night"),
    ("下午3点", "2025-11-05T15:00:00+08:00", "datetime", "afternoon"),
    ("下午三点一刻", "2025-11-05T15:15:00+08:00", "datetime", "afternoon"),
    ("中午1点", "2025-11-05T13:00:00+08:00", "datetime", "noon"),
    ("凌晨2点", "2025-11-05T02:00:00+08:00", "datetime", "early_morning"),
    ("昨晚11点", "2025-11-04T23:00:00+08:00", "datetime", "night"),
    ("昨晚2点", "2025-11-05T02:00:00+08:00", "datetime", "night"),
    ("今晚12点", "2025-11-06T00:00:00+08:00", "datetime", "night"),
    ("十点半", "2025-11-05T10:30:00+08:00", "datetime", None),
    ("8点10分", "2025-11-05T08:10:00+08:00", "datetime", None),
    ("3小时前", "2025-11-05T07:00:00+08:00", "datetime", None),
    # --- Chinese: weeks
    ("上周三", "2025-10-29", "day", None),
    ("下周一", "2025-11-10", "day", None),
    ("本周五", "2025-11-07", "day", None),
    ("这周五", "2025-11-07", "day", None),
    ("上上周二", "2025-10-21", "day", None),
    ("上周日", "2025-11-02", "day", None),
    ("上个星期三", "2025-10-29", "day", None),
    ("周一", "2025-11-03", "day", None),
    ("星期天", "2025-11-02", "day", None),
    ("上周三晚上", "2025-10-29", "day", "night"),
    ("上周", "2025-W44", "week", None),
    ("这周", "2025-W45", "week", None),
    ("下周", "2025-W46", "week", None),
    ("周末", "2025-11-01/2025-11-02", "day", None),
    ("上周末", "2025-11-01/2025-11-02", "day", None),
    ("这个周末", "2025-11-08/2025-11-09", "day", None),
    # --- Chinese: months, years, absolute dates
    ("上个月", "2025-10", "month", None),
    ("这个月", "2025-11", "month", None),
    ("下个月5号", "2025-12-05", "day", None),
    ("去年", "2024", "year", None),
    ("今年", "2025", "year", None),
    ("前年", "2023", "year", None),
    ("今年3月", "2025-03", "month", None),
    ("去年11月", "2024-11", "month", None),
    ("去年11月4日", "2024-11-04", "day", None),
    ("3月", "2025-03", "month", None),
    ("12月", "2024-12", "month", None),
    ("2025年11月4日", "2025-11-04", "day", None),
    ("2025年11月4日下午3点", "2025-11-04T15:00:00+08:00", "datetime", "afternoon"),
    ("二〇二五年十一月四日", "2025-11-04", "day", None),
    ("11月4日", "2025-11-04", "day", None),
    ("11月4号", "2025-11-04", "day", None),
    ("12月25日", "2024-12-25", "day", None),
    ("6号", "2025-10-06", "day", None),
    ("2024年", "2024", "year", None),
    ("2024年夏天", "2024-06/2024-08", "month", None),
    ("去年夏天", "2024-06/2024-08", "month", None),
    ("去年年底", "2024-10/2024-12", "month", None),
    ("2024年初", "2024-01/2024-03", "month", None),
    ("前年年中", "2023-05/2023-07", "month", None),
    # --- Chinese: counts
    ("3天前", "2025-11-02", "day", None),
    ("三天前", "2025-11-02", "day", None),
    ("十天前", "2025-10-26", "day", None),
    ("两周前", "2025-W43", "week", None),
    ("一个星期前", "2025-W44", "week", None),
    ("一个月前", "2025-10", "month", None),
    ("三个月前", "2025-08", "month", None),
    ("两年前", "2023", "year", None),
    ("三天后", "2025-11-08", "day", None),
    ("过去三天", "2025-11-02/2025-11-05", "day", None),
    ("最近几个月", "2025-08-05/2025-11-05", "day", None),  # a few: three
    ("过去几天", "2025-11-02/2025-11-05", "day", None),
    # --- numeric formats
    ("2025-11-04", "2025-11-04", "day", None),
    ("2025/11/04", "2025-11-04", "day", None),
    ("2025-11-05 08:00", "2025-11-05T08:00:00+08:00", "datetime", None),
    ("2025-11-05T08:00:00Z", "2025-11-05T16:00:00+08:00", "datetime", None),
    ("2025-11-05T08:00:00+08:00", "2025-11-05T08:00:00+08:00", "datetime", None),
    ("２０２５年１１月４日", "2025-11-04", "day", None),  # full-width digits
    ("2023", "2023", "year", None),
    # --- English: relative days
    ("yesterday", "2025-11-04", "day", None),
    ("today", "2025-11-05", "day", None),
    ("Tomorrow", "2025-11-06", "day", None),
    ("the day before yesterday", "2025-11-03", "day", None),
    ("last night", "2025-11-04", "day", "night"),
    ("tonight", "2025-11-05", "day", "night"),
    ("this morning", "2025-11-05", "day", "morning"),
    ("this afternoon", "2025-11-05", "day", "afternoon"),
    ("yesterday evening", "2025-11-04", "day", "evening"),
    ("this morning at 8", "2025-11-05T08:00:00+08:00", "datetime", "morning"),
    ("at 8am", "2025-11-05T08:00:00+08:00", "datetime", None),
    ("3pm yesterday", "2025-11-04T15:00:00+08:00", "datetime", None),
    ("yesterday at 3:30 pm", "2025-11-04T15:30:00+08:00", "datetime", None),
    ("yesterday at noon", "2025-11-04T12:00:00+08:00", "datetime", "noon"),
    ("2 hours ago", "2025-11-05T08:00:00+08:00", "datetime", None),
    # --- English: weekdays and weeks
    ("last Friday", "2025-10-31", "day", None),
    ("last Wednesday", "2025-10-29", "day", None),
    ("last Monday", "2025-11-03", "day", None),
    ("next Monday", "2025-11-10", "day", None),
    ("next Wednesday", "2025-11-12", "day", None),
    ("this Friday", "2025-11-07", "day", None),
    ("on Friday", "2025-10-31", "day", None),
    ("Wednesday", "2025-11-05", "day", None),
    ("last week", "2025-W44", "week", None),
    ("this week", "2025-W45", "week", None),
    ("next week", "2025-W46", "week", None),
    ("the week before last", "2025-W43", "week", None),
    ("the weekend", "2025-11-01/2025-11-02", "day", None),
    ("last weekend", "2025-11-01/2025-11-02", "day", None),
    ("next weekend", "2025-11-15/2025-11-16", "day", None),
    ("the past week", "2025-10-29/2025-11-05", "day", None),
    ("last 3 days", "2025-11-02/2025-11-05", "day", None),
    ("the past few months", "2025-08-05/2025-11-05", "day", None),
    ("over the last several weeks", "2025-10-01/2025-11-05", "day", None),  # several: five
    # --- English: months, years, counts
    ("last month", "2025-10", "month", None),
    ("last year", "2024", "year", None),
    ("this year", "2025", "year", None),
    ("in November 2024", "2024-11", "month", None),
    ("November", "2025-11", "month", None),
    ("December", "2024-12", "month", None),
    ("last November", "2024-11", "month", None),
    ("in May", "2025-05", "month", None),
    ("in 2023", "2023", "year", None),
    ("last summer", "2025-06/2025-08", "month", None),
    ("at the end of last year", "2024-10/2024-12", "month", None),
    ("the start of 2024", "2024-01/2024-03", "month", None),
    ("in the middle of 2023", "2023-05/2023-07", "month", None),
    ("fall 2023", "2023-09/2023-11", "month", None),
    ("3 days ago", "2025-11-02", "day", None),
    ("two weeks ago", "2025-W43", "week", None),
    ("a month ago", "2025-10", "month", None),
    ("a couple of days ago", "2025-11-03", "day", None),
    ("a year ago", "2024", "year", None),
    ("in 3 days", "2025-11-08", "day", None),
    # --- English: absolute dates (incl. LoCoMo / LongMemEval session formats)
    ("on 4 May 2023", "2023-05-04", "day", None),
    ("May 4th", "2025-05-04", "day", None),
    ("4th of May", "2025-05-04", "day", None),
    ("Nov 4", "2025-11-04", "day", None),
    ("2023-05-04", "2023-05-04", "day", None),
    ("8 May, 2023", "2023-05-08", "day", None),
    ("May 8, 2023", "2023-05-08", "day", None),
    ("Tuesday, May 9, 2023", "2023-05-09", "day", None),
    ("1:56 pm on 8 May, 2023", "2023-05-08T13:56:00+08:00", "datetime", None),
    ("10:37 am on 27 June, 2023", "2023-06-27T10:37:00+08:00", "datetime", None),
    ("2023/05/20 (Sat) 02:21", "2023-05-20T02:21:00+08:00", "datetime", None),
    ("2023/05/30 (Tue) 23:40", "2023-05-30T23:40:00+08:00", "datetime", None),
]


@pytest.mark.parametrize(("text", "iso", "granularity", "part_of_day"), CASES, ids=[c[0] for c in CASES])
def test_normalize_table(text, iso, granularity, part_of_day):
    tv = normalize_time(text, REF)
    assert tv.parsed, text
    assert tv.original == text
    assert tv.iso == iso
    assert tv.granularity == granularity
    assert tv.part_of_day == part_of_day
    assert tv.start is not None and tv.end is not None
    assert tv.start < tv.end
    assert tv.start.tzinfo is not None and tv.start.utcoffset() == timedelta(hours=8)
    assert tv.end.utcoffset() == timedelta(hours=8)


def test_table_is_large_enough():
    zh = sum(1 for c in CASES if any("\u4e00" <= ch <= "\u9fff" for ch in c[0]))
    assert len(CASES) >= 40 and zh >= 20 and len(CASES) - zh >= 20


# ---- periods: start / end ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("昨天", dt(2025, 11, 4), dt(2025, 11, 5)),
        ("yesterday", dt(2025, 11, 4), dt(2025, 11, 5)),
        ("昨晚", dt(2025, 11, 4, 18), dt(2025, 11, 5, 6)),
        ("今天早上", dt(2025, 11, 5, 6), dt(2025, 11, 5, 12)),
        ("下午", dt(2025, 11, 5, 12), dt(2025, 11, 5, 18)),
        ("今天早上8点", dt(2025, 11, 5, 8), dt(2025, 11, 5, 9)),  # only the hour known
        ("2025-11-05 08:00", dt(2025, 11, 5, 8), dt(2025, 11, 5, 8, 1)),  # minute known
        ("晚上10点半", dt(2025, 11, 5, 22, 30), dt(2025, 11, 5, 22, 31)),
        ("上周", dt(2025, 10, 27), dt(2025, 11, 3)),
        ("last week", dt(2025, 10, 27), dt(2025, 11, 3)),
        ("上个月", dt(2025, 10, 1), dt(2025, 11, 1)),
        ("December", dt(2024, 12, 1), dt(2025, 1, 1)),
        ("去年", dt(2024, 1, 1), dt(2025, 1, 1)),
        ("周末", dt(2025, 11, 1), dt(2025, 11, 3)),
        ("过去三天", dt(2025, 11, 2), dt(2025, 11, 6)),
        ("last summer", dt(2025, 6, 1), dt(2025, 9, 1)),
    ],
)
def test_period_bounds(text, start, end):
    tv = normalize_time(text, REF)
    assert (tv.start, tv.end) == (start, end)


def test_weekend_on_a_weekend_day_is_the_current_one():
    sunday = datetime(2025, 11, 9, 12, tzinfo=CST)
    assert normalize_time("周末", sunday).iso == "2025-11-08/2025-11-09"
    assert normalize_time("the weekend", sunday).iso == "2025-11-08/2025-11-09"


def test_last_weekday_is_strictly_before_and_next_strictly_after():
    friday = datetime(2025, 11, 7, 9, tzinfo=CST)
    assert normalize_time("last Friday", friday).iso == "2025-10-31"
    assert normalize_time("next Friday", friday).iso == "2025-11-14"
    assert normalize_time("Friday", friday).iso == "2025-11-07"
    assert normalize_time("上周五", friday).iso == "2025-10-31"


def test_yearless_dates_prefer_the_past():
    assert normalize_time("11月5日", REF).iso == "2025-11-05"  # today is not the future
    assert normalize_time("11月6日", REF).iso == "2024-11-06"
    assert normalize_time("May 4th", REF).iso == "2025-05-04"
    assert normalize_time("明年3月", REF).iso == "2026-03"  # explicit years win


def test_display():
    assert normalize_time("昨晚", REF).display() == "2025-11-04 夜间"
    assert normalize_time("last night", REF).display() == "2025-11-04 night"
    assert normalize_time("今天早上8点", REF).display() == "2025-11-05 08:00"
    assert normalize_time("昨天", REF).display() == "2025-11-04"
    assert normalize_time("上周", REF).display() == "2025-10-27/2025-11-02"
    assert normalize_time("上个月", REF).display() == "2025-10"
    assert normalize_time("某个时候", REF).display() == "某个时候"


# ---- unparseable ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "某个时候",
        "sometime",
        "when I was young",
        "",
        "   ",
        "\n\t",
        "asdfgh",
        "may",
        "March",
        "5",
        "42",
        "3.14",
        "a",
        "the",
        "最近",
        "recently",
        "以前",
        "前几天",
        "a few days ago",
        "the other day",
        "明天见",
        "2025-13-45",
        "2025年13月",
        "32号",
        "25点",
        "99999999 days ago",
        "昨天今天",
        "yesterday tomorrow",
        "下午茶",
        "hello world",
        "fall",
    ],
)
def test_unparseable_is_flagged_and_kept(text):
    tv = normalize_time(text, REF)
    assert tv == TimeValue(original=text)
    assert not tv.parsed and tv.iso is None and tv.start is None and tv.end is None
    assert tv.granularity is None and tv.part_of_day is None
    assert tv.display() == text


def test_non_string_input_does_not_raise():
    assert normalize_time(None, REF).parsed is False  # type: ignore[arg-type]


def test_dateparser_fallback_handles_other_formats():
    tv = normalize_time("11/4", REF)
    assert tv.parsed and tv.iso == "2025-11-04" and tv.granularity == "day"
    assert tv.start.tzinfo is not None


def test_languages_restrict_the_rules():
    assert normalize_time("昨天", REF, languages=("en",)).parsed is False
    assert normalize_time("yesterday", REF, languages=("en",)).iso == "2025-11-04"
    assert normalize_time("昨天", REF, languages=("zh",)).iso == "2025-11-04"


# ---- timezones ------------------------------------------------------------------------


def test_reference_timezone_is_kept():
    ny = datetime(2025, 11, 5, 10, tzinfo=ZoneInfo("America/New_York"))
    tv = normalize_time("今天早上8点", ny)
    assert tv.iso == "2025-11-05T08:00:00-05:00"
    assert tv.start.tzinfo is ny.tzinfo
    tv = normalize_time("yesterday", ny)
    assert tv.start == datetime(2025, 11, 4, tzinfo=ZoneInfo("America/New_York"))
    assert tv.end.utcoffset() == timedelta(hours=-5)


def test_naive_reference_is_utc():
    tv = normalize_time("今天早上8点", datetime(2025, 11, 5, 10))
    assert tv.iso == "2025-11-05T08:00:00+00:00"
    assert tv.start.utcoffset() == timedelta(0)


def test_explicit_offset_is_converted_to_the_reference_tz():
    tv = normalize_time("2025-11-05T08:00:00+00:00", REF)
    assert tv.start == datetime(2025, 11, 5, 8, tzinfo=UTC)
    assert tv.iso == "2025-11-05T16:00:00+08:00"


def test_default_reference_is_now_and_aware():
    tv = normalize_time("今天")
    assert tv.parsed and tv.start.tzinfo is not None and tv.end.tzinfo is not None
    now = datetime.now().astimezone()
    assert tv.start <= now < tv.end
    found = find_time_range("what did I do yesterday")
    assert found is not None and found[0].tzinfo is not None


def test_dst_day_is_tz_aware():
    ny = datetime(2025, 11, 3, 12, tzinfo=ZoneInfo("America/New_York"))  # DST ended 2025-11-02
    tv = normalize_time("今天", ny)
    assert tv.start.utcoffset() == timedelta(hours=-5)
    tv = normalize_time("昨天", ny)  # 2025-11-02 00:00 is still EDT, its end is EST
    assert tv.start.utcoffset() == timedelta(hours=-4)
    assert tv.end.utcoffset() == timedelta(hours=-5)
    assert tv.end.timestamp() - tv.start.timestamp() == 25 * 3600


# ---- find_time_range -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "start", "end", "matched"),
    [
        ("我昨天吃了什么？", dt(2025, 11, 4), dt(2025, 11, 5), "昨天"),
        ("我为什么今天不开心？", dt(2025, 11, 5), dt(2025, 11, 6), "今天"),
        ("去年11月我去了哪里", dt(2024, 11, 1), dt(2024, 12, 1), "去年11月"),
        ("上周三下午我和谁开会了", dt(2025, 10, 29, 12), dt(2025, 10, 29, 18), "上周三下午"),
        ("昨晚为什么没睡好", dt(2025, 11, 4, 18), dt(2025, 11, 5, 6), "昨晚"),
        ("我过去三天做了什么", dt(2025, 11, 2), dt(2025, 11, 6), "过去三天"),
        ("我最近几个月买了哪些家具", dt(2025, 8, 5), dt(2025, 11, 6), "最近几个月"),
        (
            "How many pieces of furniture did I buy in the past few months?",
            dt(2025, 8, 5),
            dt(2025, 11, 6),
            "in the past few months",
        ),
        ("从上周一到昨天我做了什么", dt(2025, 10, 27), dt(2025, 11, 5), "上周一到昨天"),
        ("这周一直很忙吗", dt(2025, 11, 3), dt(2025, 11, 10), "这周"),
        ("两周前我买了什么", dt(2025, 10, 20), dt(2025, 10, 27), "两周前"),
        ("yesterday", dt(2025, 11, 4), dt(2025, 11, 5), "yesterday"),
        ("what did I do last week?", dt(2025, 10, 27), dt(2025, 11, 3), "last week"),
        ("What did I eat this morning?", dt(2025, 11, 5, 6), dt(2025, 11, 5, 12), "this morning"),
        ("What did I do on Friday?", dt(2025, 10, 31), dt(2025, 11, 1), "Friday"),
        ("what happened 3 days ago", dt(2025, 11, 2), dt(2025, 11, 3), "3 days ago"),
        ("Where did I go in November 2024?", dt(2024, 11, 1), dt(2024, 12, 1), "November 2024"),
        ("Did I go hiking last weekend?", dt(2025, 11, 1), dt(2025, 11, 3), "last weekend"),
        ("between May 1 and May 5, 2023 what did I read", dt(2023, 5, 1), dt(2023, 5, 6), "May 1 and May 5, 2023"),
        ("what did I do in 2023", dt(2023, 1, 1), dt(2024, 1, 1), "in 2023"),
        ("what did I eat yesterday and what will I eat tomorrow", dt(2025, 11, 4), dt(2025, 11, 5), "yesterday"),
    ],
)
def test_find_time_range_positive(query, start, end, matched):
    found = find_time_range(query, REF)
    assert found is not None, query
    assert found == (start, end, matched)
    assert found[2] in query


@pytest.mark.parametrize(
    "query",
    [
        "我为什么不开心",
        "what is my favourite food",
        "小明是谁",
        "May I ask what you ate?",
        "我有一点累",
        "我一周三次健身",
        "以前天气很好",
        "我住在5号楼",
        "看一下周围",
        "我最近在忙什么",
        "what do I usually eat in the morning",
        "I have 2023 photos",
        "I sat down",
        "the sun is hot",
        "然后天气变好了",
        "我以前晚上经常失眠",
        "I fall asleep easily",
        "",
        "   ",
        "when did I meet Anna",
        "我每天8点起床",
        "what time is it now",
    ],
)
def test_find_time_range_negative(query):
    assert find_time_range(query, REF) is None


@pytest.mark.parametrize(
    ("query", "rolling"),
    [
        ("我过去三天做了什么", True),
        ("我最近几个月买了哪些家具", True),
        ("近一周我睡得好吗", True),
        ("How many pieces of furniture did I buy in the past few months?", True),
        ("what did I read in the last 3 days", True),
        ("how did I sleep over the past week", True),
        ("我昨天吃了什么？", False),
        ("上个月我去了哪里", False),
        ("去年夏天我去了哪里", False),
        ("What certification did I complete last month?", False),
        ("When did I go camping in June?", False),
        ("What are my plans for the summer?", False),
        ("Did I go hiking last weekend?", False),
        ("what happened 3 days ago", False),
    ],
)
def test_a_rolling_window_is_told_from_a_named_period(query, rolling):
    found = find_time_range(query, REF)
    assert found is not None, query
    assert is_rolling_window(found[2]) is rolling


@pytest.mark.parametrize("text", ["", "   ", "the past", "最近", "recently", "a few days ago", None])
def test_no_time_or_a_vague_one_is_not_a_rolling_window(text):
    assert is_rolling_window(text) is False


def test_find_time_range_is_tz_aware_in_reference_tz():
    ny = datetime(2025, 11, 5, 10, tzinfo=ZoneInfo("America/New_York"))
    start, end, _ = find_time_range("我昨天吃了什么", ny)
    assert start == datetime(2025, 11, 4, tzinfo=ZoneInfo("America/New_York"))
    assert end.utcoffset() == timedelta(hours=-5)
    start, end, _ = find_time_range("what did I do yesterday", datetime(2025, 11, 5, 10))
    assert start.utcoffset() == timedelta(0)


# ---- is_time_key -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "时间",
        "日期",
        "时候",
        "time",
        "Time",
        "DATE",
        "when",
        "When",
        "datetime",
        "DateTime",
        "发生时间",
        "start_time",
        "event_date",
        "timestamp",
    ],
)
def test_is_time_key_true(key):
    assert is_time_key(key)


@pytest.mark.parametrize(
    "key", ["地点", "原因", "place", "timezone", "update", "duration", "时长", "mood", "time_spent", "", "  "]
)
def test_is_time_key_false(key):
    assert not is_time_key(key)


# ---- property tests -------------------------------------------------------------------------

_ALPHABET = st.sampled_from(
    list("今昨明前后天晚早上下午周星期月年号日点半一二两三十0123456789 :-/.,()abcdefghijklmnopqrstuvwxyz")
    + ["yesterday", "last", "ago", "may", "pm", "week", "summer", "上周", "下午", "的"]
)
_TEXT = st.one_of(st.text(max_size=60), st.lists(_ALPHABET, max_size=12).map("".join))
_REFS = st.datetimes(
    min_value=datetime(1950, 1, 1),
    max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from([UTC, CST, ZoneInfo("America/New_York")]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, ref=_REFS)
def test_normalize_never_raises(text, ref):
    tv = normalize_time(text, ref)
    assert tv.original == text
    if tv.parsed:
        assert tv.iso and tv.start is not None and tv.end is not None and tv.start < tv.end
        assert tv.start.tzinfo is not None and tv.granularity in ("datetime", "day", "week", "month", "year")
    else:
        assert tv.iso is None and tv.start is None and tv.end is None
    find_time_range(text, ref)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT)
def test_rules_never_raise_without_safety_net(text):
    _parse(text, REF, ("zh", "en"))  # the inner parser, without normalize_time's try/except


def test_a_years_start_middle_and_end_need_a_year_before_them():
    """年初 / 年底 / "the end of" are three months of the year said with them; without one (一年中,
    中秋, the end of last month) they are not a part of a year."""
    assert find_time_range("去年年底我开什么车", REF)[:2] == (dt(2024, 10, 1), dt(2025, 1, 1))
    assert find_time_range("What car did I drive at the end of 2024?", REF)[:2] == (dt(2024, 10, 1), dt(2025, 1, 1))
    assert find_time_range("一年中最冷的时候是哪天", REF) is None
    assert find_time_range("今年中秋节我在哪", REF)[:2] == (dt(2025, 1, 1), dt(2026, 1, 1))
    assert find_time_range("by the end of last month", REF)[:2] == (dt(2025, 10, 1), dt(2025, 11, 1))
