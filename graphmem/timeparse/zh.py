"""Chinese time expressions: 昨晚, 上周三, 3天前, 过去三个月, 下午3点, 去年夏天 …"""

from __future__ import annotations

from .lexer import _C, NUM, WEAK, _ago, _alt, _num, _pat, _window

_NOT_AFTER_PREFIX = r"(?<![以之从提然先])"  # 以前天气 / 然后天 / 以前年 are not 前天 / 后天 / 前年


_ZH_DAYPOD = {
    "大前晚": (-3, "night"),
    "前晚": (-2, "night"),
    "昨晚": (-1, "night"),
    "昨夜": (-1, "night"),
    "今晚": (0, "night"),
    "今夜": (0, "night"),
    "明晚": (1, "night"),
    "明夜": (1, "night"),
    "今早": (0, "morning"),
    "今晨": (0, "morning"),
    "明早": (1, "morning"),
    "昨早": (-1, "morning"),
    "昨晨": (-1, "morning"),
}


@_pat("zh", "c", rf"{_NOT_AFTER_PREFIX}({_alt(_ZH_DAYPOD)})(?:上|里|间)?")
def _zh_daypod(m):
    off, pod = _ZH_DAYPOD[m.group(1)]
    return [_C("day_rel", off), _C("pod", pod)]


_ZH_DAYREL = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨儿": -1,
    "今天": 0,
    "今日": 0,
    "今儿": 0,
    "明天": 1,
    "明日": 1,
    "明儿": 1,
    "后天": 2,
    "大后天": 3,
}


@_pat("zh", "c", rf"{_NOT_AFTER_PREFIX}({_alt(_ZH_DAYREL)})(?:个)?")
def _zh_dayrel(m):
    return [_C("day_rel", _ZH_DAYREL[m.group(1)])]


_ZH_REL = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_ZH_WD = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_WD_CHARS = "一二三四五六日天1-7"
# 这周一直… / 上周一起… / 一周三次 are not weekdays
_WD_ONE = r"(?:一(?![直起共些样切般定下点次遍趟回个])|[二三四五六日天1-7](?![次个遍回趟]))"


@_pat(
    "zh",
    "c",
    rf"(?<![一以])(上上|上|这|本|下下|下)(?:一)?(?:个)?(?:周|星期|礼拜)"
    rf"(?![围边年岁期到全长刊报])(?:(末)|(?=({_WD_ONE}))[{_WD_CHARS}])?",
)
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


_ZH_UNIT = {
    "小时": "hour",
    "钟头": "hour",
    "分钟": "minute",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


@_pat("zh", "dc", rf"({NUM}|半)\s*(?:个)?\s*(小时|钟头|分钟|天|日|周|星期|礼拜|月|年)\s*(以前|之前|前|以后|之后|后)")
def _zh_ago(m):
    sign = -1 if "前" in m.group(3) else 1
    return _ago(m.group(1), _ZH_UNIT[m.group(2)], sign)


@_pat(
    "zh", "c", rf"(?:过去|最近|近)(?:的)?\s*({NUM}|半|几)\s*(?:个)?\s*(天|日|周|星期|礼拜|月|年)(?:里|内|中|来|以来)?"
)
def _zh_window(m):
    return _window(m.group(1), _ZH_UNIT[m.group(2)])


_ZH_POD = {
    "凌晨": "early_morning",
    "拂晓": "early_morning",
    "早上": "morning",
    "早晨": "morning",
    "清晨": "morning",
    "上午": "morning",
    "早间": "morning",
    "中午": "noon",
    "正午": "noon",
    "午间": "noon",
    "下午": "afternoon",
    "午后": "afternoon",
    "傍晚": "evening",
    "黄昏": "evening",
    "晚上": "night",
    "夜里": "night",
    "夜间": "night",
    "夜晚": "night",
    "晚间": "night",
    "半夜": "late_night",
    "深夜": "late_night",
    "午夜": "late_night",
}


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


_ZH_SEASON = {
    "春天": "spring",
    "春季": "spring",
    "夏天": "summer",
    "夏季": "summer",
    "秋天": "autumn",
    "秋季": "autumn",
    "冬天": "winter",
    "冬季": "winter",
}


_ZH_PART_OF_YEAR = {"初": "early", "中": "mid", "底": "late", "末": "late"}


# 去年年底, 2025年初, 前年年中: three months of that year (only right after a year)
@_pat("zh", "c", r"(?:(?<=[0-9]{4}年)|(?<=去年|今年|前年|明年|后年))年?(初|中|底|末)(?![秋旬午国学间心文期考])")
def _zh_part_of_year(m):
    return [_C("season", (_ZH_PART_OF_YEAR[m.group(1)], None))]


@_pat("zh", "c", rf"({_alt(_ZH_SEASON)})")
def _zh_season(m):
    return [_C("season", (_ZH_SEASON[m.group(1)], None))]
