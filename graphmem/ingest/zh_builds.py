"""Chinese: what each pattern of ``rules_zh`` builds from its match — the reading it names (``lexicon/readings.py``:
kind, slot, confidence) with its object and time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .phrases import Found, clean, read_as
from .zh_subjects import _NOT_NAME, _NOT_THINKING, _ONE, ZH_LEAD, Subject, _object, noun_head, tag

# --- predicates ----------------------------------------------------------------------------
# 从2019年起 / 去年开始 (the time read out before) / 从小 / 从去年开始: since when what follows has held
_SINCE = re.compile(
    r"^(?:[从自](?P<when>[^，,。！？在住]{0,8}?))?(?:起|开始|以来)(?:就|一直|便|都)*|^从小(?:就|一直|便|都)*"
)

_CHANGES = {"搬到", "入职", "考上", "换工作", "辞职", "毕业于", "不再住在", "转学", "转学到"}


def _slot(topic: str, reading: str, ends: bool = False) -> Callable:
    """A slot's reading (residence, employer, job, school) in ``topic``'s words; a change when timed."""

    def make(m: re.Match, timed: bool) -> list[Found]:
        obj = m.groupdict().get("obj")
        obj = _object(obj) if obj else None
        if obj is None and not ends:
            return []
        if obj and (obj[0] in _NOT_NAME or obj in ("哪", "哪里", "哪儿")):
            return []
        mtype = "EVENT" if timed and (ends or topic in _CHANGES) else "FACT"
        return [read_as(reading, mtype, topic, obj, ends=ends)]

    return make


def _organisation(said: str) -> str | None:
    """Where someone works or studies as said (一家银行 → 银行); None for a pronoun, home or "this one"."""
    obj = clean(_ONE.sub("", said), True, 30)
    return None if not obj or obj[0] in _NOT_NAME or obj.startswith(("家", "这", "那")) else obj


# 以前在亚马逊干了十年 / 曾在银行上班 / 在华为工作过两年: where someone worked, a fact of the past
# that sets no slot (it must not supersede where they work now). 干 counts only with a duration
# or alone: 以前在厨房干了很多活 is no job.
def _worked_at(m: re.Match) -> list[Found]:
    obj = _organisation(m.group("obj") or m.groupdict().get("obj2") or "")
    if not obj:
        return []
    attributes = {"时长": m.group("time")} if m.group("time") else None
    return [Found("FACT", "曾工作于", obj, 0.6, attributes, kind="work")]


def _allergic(m: re.Match, timed: bool = False) -> list[Found]:
    """对花生过敏 → 过敏 花生; 不过敏 and 有点过敏 (no what) state nothing."""
    obj = None if m.group("neg") else _object(m.group("obj"))
    if not obj or re.fullmatch(r"(?:有点|有些|很|特别|严重|非常|比较|容易|经常|也|又|还|都)+", obj):
        return []
    return [Found("FACT", "过敏", obj, 0.8, kind="fact")]


def _learning(m: re.Match, timed: bool = False) -> list[Found]:
    """What someone is learning, practising or preparing for, with how long when said; only when
    said as going on (在学 / 正在练 / 开始学) or with how long (学西班牙语半年了): 学做饭 alone may be a wish."""
    said = m.group(0)
    if not (said.startswith(("在", "正在", "一直在", "开始")) or m.group("time")):
        return []
    obj = _object(m.group("obj"))
    if not obj or obj[0] in _NOT_NAME or obj.startswith(("了", "过", "着", "的", "到")):
        return []
    attributes = {"时长": m.group("time")} if m.group("time") else None
    return [Found("FACT", "在" + m.group("verb"), obj, 0.6, attributes, kind="fact")]


def _practised(m: re.Match, timed: bool = False) -> list[Found]:
    """学了三年钢琴了 → 在学 钢琴 (时长 三年); 弹了十年吉他 → 弹过 吉他: the verb and what, how long."""
    obj = _object(m.group("obj"))
    if not obj or obj[0] in _NOT_NAME or obj[0] in "就才又都也还便没不" or obj in ("时间", "工作", "东西", "功课"):
        return []
    verb = m.group("verb")
    if not m.group("now"):
        topic = verb + "过"  # 弹了十年吉他: a span that ended
    else:
        topic = "在" + verb if verb.startswith(("学", "练")) else verb
    return [Found("FACT", topic, obj, 0.6, {"时长": m.group("time")}, kind="fact")]


def _work_span(m: re.Match) -> list[Found]:
    """在亚马逊干了十年了 (了 at the end: the span runs up to now): the employer now, for that long;
    在亚马逊干了十年 (了 after the verb alone: a span that ended): where someone worked."""
    if not m.group("now"):
        return _worked_at(m)
    obj = _organisation(m.group("obj"))
    if not obj:
        return []
    return [Found("FACT", "工作于", obj, 0.7, {"时长": m.group("time")}, kind="work", slot="employer")]


def _lived_span(m: re.Match, timed: bool = False) -> list[Found]:
    obj = _object(m.group("obj"))
    if not obj or obj[0] in _NOT_NAME:
        return []
    return [Found("FACT", "住在", obj, 0.7, {"时长": m.group("time")}, kind="residence", slot="residence")]


def _plays(m: re.Match, timed: bool = False) -> list[Found]:
    verb, obj = m.group("verb") or m.group("verb2"), m.group("obj") or m.group("obj2")
    if obj[0] in _NOT_NAME or obj[0] in "了过着得完好":
        return []
    return [Found("FACT", ("会" if m.group("can") else "") + verb, obj, 0.6, kind="fact")]


def _teaches(m: re.Match, timed: bool = False) -> list[Found]:
    """在中学教数学 → 工作于 中学, 教 数学; 教书 is the job, not a subject."""
    what = m.group("what")
    found = (
        []
        if what in ("书", "学") or what[0] in _NOT_NAME or what[0] in "了过着得"
        else [Found("FACT", "教", what, 0.6, kind="fact")]
    )
    place = _organisation(m.group("obj")) if m.groupdict().get("obj") else None
    if place:
        found.append(read_as("employer", "FACT", "工作于", place))
    return found


def _work_place(m: re.Match, timed: bool) -> list[Found]:
    obj = _organisation(m.group("obj"))
    if not obj:
        return []
    out = [read_as("employer", "FACT", "工作于", obj)]
    job = m.groupdict().get("job")
    if job:
        job = clean(job, True, 20)
        if job:
            out.append(Found("FACT", "职业是", job, 0.6, kind="work", slot="job"))
    return out


def _school(m: re.Match, timed: bool) -> list[Found]:
    obj = _organisation(m.group("obj"))
    if not obj:
        return []
    return [read_as("school", "FACT", "就读于", obj)]


_PREF_VERBS = {
    "喜欢": ("喜欢", 1),
    "喜爱": ("喜欢", 1),
    "爱": ("爱", 1),
    "热爱": ("爱", 1),
    "迷上了": ("喜欢", 1),
    "爱上了": ("喜欢", 1),
    "讨厌": ("讨厌", -1),
    "恨": ("讨厌", -1),
    "受不了": ("讨厌", -1),
    "怕": ("怕", -1),
    "害怕": ("怕", -1),
    "不喜欢": ("不喜欢", -1),
    "不爱": ("不喜欢", -1),
}

# Verbs a liking may carry: 爱喝 / 喜欢吃 / 不再喝 take their object as what is drunk or eaten.
_HABIT = "吃|喝|看|听|玩|打|弹|跑|穿|抽|养|追|唱|逛|踢|骑|做"

_MEAT = {"肉", "荤", "荤菜", "肉食", "大鱼大肉"}

# A habit verb and the one character after it that make one word for the activity itself.
_ACTIVITIES = {"跑步", "唱歌", "逛街", "做饭", "做菜", "打牌", "打球", "玩牌", "看戏"}


def _preference(m: re.Match, timed: bool) -> list[Found]:
    neg, verb, habit = m.group("neg"), m.group("verb"), m.group("habit") or ""
    obj = clean(m.group("obj"), True, 30)
    if not obj or obj[0] in _NOT_NAME or obj in ("的", "了") or obj.startswith(("的", "什么", "哪")):
        return []
    topic, sign = _PREF_VERBS[verb]
    if topic == "怕" and (len(obj) > 6 or re.match(r"^(?:来不及|会|被|要|不|没|万一|是|自己|麻烦你|打扰)", obj)):
        return []  # 我怕来不及 / 我怕会下雨: a worry, not a fear of something
    if habit and habit + obj in _ACTIVITIES:  # 喜欢跑步: running is what is liked, not 步
        habit, obj = "", habit + obj
    if neg:
        if sign < 0:  # 并不讨厌: no stance to keep
            return []
        topic = "不再喜欢" if neg in ("不再", "再也不") else "不喜欢"
    # 爱吃肉 says what someone eats as well as what they like: 我开始吃素了 replaces it
    diet = "diet" if sign > 0 and not neg and habit == "吃" and obj in _MEAT else None
    return [Found("OPINION", topic + habit, obj, 0.6, kind="preference", slot=diet)]


def _diet(m: re.Match, timed: bool) -> list[Found]:
    """吃素 / 是素食者 / 吃肉: what someone eats, a slot (a newer diet replaces the older)."""
    meat = m.group("meat")
    obj = "肉" if meat else "素"
    changed = bool(m.group("change") or m.group("change2"))
    return [read_as("diet", "EVENT" if timed and changed else "FACT", "吃", obj)]


def _favourite(m: re.Match, timed: bool = False) -> list[Found]:
    what, obj = clean(m.group("what"), True, 20), clean(m.group("obj"), True, 30)
    return [read_as("like", "OPINION", f"最喜欢的{what}", obj)] if what and obj else []


def _stopped(m: re.Match, timed: bool) -> list[Found]:
    obj = clean(m.group("obj"), True, 30)
    if not obj or obj[0] in _NOT_NAME:
        return []
    verb = m.group("verb")
    return [read_as("stop", "OPINION", "不再" + verb, obj)]


def _quit_habit(m: re.Match, timed: bool) -> list[Found]:
    obj = clean(m.group("obj"), True, 20)
    return [read_as("stop", "OPINION", "戒了", obj)] if obj else []


# 我以前抽烟，后来戒了: the habit a bare 戒了 ends, said in the clause before
_USED_TO_QUIT = re.compile(
    rf"(?:以前|之前|过去|原来|曾经)(?:常|经常|每天|天天|一直|也|很爱|爱)?(?P<what>(?:{_HABIT})[^，,。！？；;!?]{{1,8}}?)[，,]"
    rf"(?P<mid>(?:后来|但是|但|可是|不过|现在|去年|前年|今年|上个月|上周|已经|早就|终于)*)(?:戒掉|戒)了"
)

# 比起咖啡，我更喜欢茶: the liking said, the thing it is weighed against left out
_RATHER = re.compile(
    r"^(?P<lead>[^，,。]{0,6}?)比起(?P<other>[^，,。]{1,10}?)[，,]?(?P<who>我|他|她)?(?=更|还是更|倒是更)"
)

_ME_AFTER = re.compile(r"^我(?P<when>[\u4e00-\u9fff]{1,6}?(?:以后|之后|后))(?=在)")


def said_plainly(sentence: str) -> str:
    """The sentence said the way the clause rules read it: 我以前抽烟，后来戒了 → 我后来戒了抽烟 (the habit
    quit said in the clause that quits it); 比起咖啡我更喜欢茶 → 我更喜欢茶."""
    after = _ME_AFTER.match(sentence)
    if after is not None:  # 我毕业后在银行上班 → 毕业后我在银行上班: when, then where the speaker is
        sentence = f"{after.group('when')}我{sentence[after.end('when') :]}"
    rather = _RATHER.match(sentence)
    if rather is not None:
        sentence = f"{rather.group('lead')}{rather.group('who') or '我'}{sentence[rather.end() :]}"
    m = _USED_TO_QUIT.search(sentence)
    if m is None:
        return sentence
    what = re.sub(r"^(?:喝|吃|抽)(?:很多|好多|不少)", lambda w: w.group(0)[0], m.group("what"))
    when = re.sub(r"后来|但是|但|可是|不过|终于|已经|早就", "", m.group("mid"))  # the time it was quit, if said
    return sentence[: m.start()] + f"{when}戒了{what}" + sentence[m.end() :]


_NOT_POSSESSED = re.compile(
    r"^(?:点|些|空|事|时|没有|人|一天|一次|意思|道理|问题|机会|可能|必要|兴趣|关系|用|名|钱了|压力|感觉|想法|计划|安排|约)"
)

_AND = re.compile(r"(和|、|以及|还有)")  # the joints of a list of things: 一只猫和一只狗


def _things(rest: str) -> str | None:
    """The things a possession names: one noun phrase, or a list of them kept whole (一只猫和一只狗
    → 猫和狗), as an English "a cat and a dog" is; the last may be followed by what is done with it."""
    parts = _AND.split(rest)
    if len(parts) > 1:
        said = [_ONE.sub("", p.strip(" ，,。！？!?")) for p in parts[::2]]
        heads = [noun_head(p) for p in parts[::2]]
        people = any(tag(str(h))[0][1].startswith("nr") for h in heads[1:] if h)  # 买了本书和小雯一起看
        if all(heads) and heads[:-1] == said[:-1] and not people:  # every item but the last a whole noun phrase
            return str(heads[0]) + "".join(j + str(h) for j, h in zip(parts[1::2], heads[1:], strict=True))
    return _object(rest)


def _possession(m: re.Match, timed: bool) -> list[Found]:
    verb, rest = m.group("verb"), m.group("obj")
    if verb == "有" and (_NOT_POSSESSED.match(rest) or not re.match(r"^(?:[一两二三四五六七八九十几]|\d)", rest)):
        return []
    if verb != "有":  # 买了个新手机 / 养了只猫: a measure word said without 一
        rest = re.sub(r"^(?:个|只|台|辆|套|件|部|条|匹|盆)(?!人)(?=[\u4e00-\u9fffA-Za-z]{1,})", "", rest)
    obj = _things(rest) if verb != "有" else clean(_ONE.sub("", rest), True, 30)
    if not obj or obj[0] in _NOT_NAME:
        return []
    topic = {"拥有": "有", "买了": "买了", "买": "买了", "养了": "养了", "领养了": "领养了", "养": "养了"}.get(
        verb, verb
    )
    mtype = "EVENT" if timed and topic != "有" else "FACT"
    return [read_as("possession", mtype, topic, obj)]


def _plan(m: re.Match, timed: bool) -> list[Found]:
    verb, what = m.group("verb"), clean(m.group("obj"), True, 30)
    weighing = re.match(r"^(?:想|考虑)(?:要不要|该不该|是不是该|是否要?|要不)", verb + (what or ""))
    if weighing:  # 在想要不要去北京工作: weighing it up, a plan of sorts
        verb, what = "考虑", (verb + (what or ""))[weighing.end() :]
    if not what or what[0] in _NOT_NAME or (verb == "想" and re.match(r"^(?:家|你|他|她|念|起|到|通|明白|不通)", what)):
        return []  # 想家, 想你, 想起: missing someone, remembering, not meaning to do anything
    if verb in ("要", "会", "将") and not (timed or re.match(r"^(?:去|来|回|搬|换|参加|开始|买)", what)):
        return []
    topic = "想" if verb.startswith(("想", "希望", "盼")) else "打算"
    return [read_as("plan", "EVENT" if timed else "FACT", topic, what)]


def _identity(m: re.Match, timed: bool) -> list[Found]:
    obj = clean(m.group("obj"), True, 30)
    if (
        not obj
        or obj[0] in _NOT_NAME
        or obj.endswith("的")
        or re.match(r"^(?:说|觉得|想|不|没|在|因为|从|为了|这样|那样|真的)", obj)
    ):
        return []
    return [Found("FACT", "是", obj, 0.5, kind="fact")]


def _named(m: re.Match, timed: bool) -> list[Found]:
    obj = m.group("obj")
    if obj[0] in _NOT_NAME or obj in ("醒", "车", "外卖") or obj.startswith(("了", "过", "着")):
        return []
    return [Found("FACT", "叫", obj, 0.8, kind="fact")]


def _origin(m: re.Match, timed: bool) -> list[Found]:
    obj = _object(m.group("obj"))
    return [Found("FACT", "来自", obj, 0.6, kind="fact")] if obj else []


_P = r"[^，,。！？；;!?\n]"

_PAST_WORK = re.compile(
    rf"^(?:(?:以前|之前|原来|曾经|过去|早年|曾)(?:也|一直|都)?在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职|实习|打工|干)(?:了|过)?"
    rf"|在(?P<obj2>{_P}{{1,20}}?)(?:工作|上班|任职|实习|打工|干)过)"
    r"(?P<time>(?:[一二两三四五六七八九十几半\d]+多?(?:年|个月|个多月|周|天)多?)?)(?:了|的时间)?$"
)

_SPAN = r"[一二两三四五六七八九十几半\d]+多?(?:年|个月|个多月|周|天)多?"

# 以前住在北京 / 之前在杭州住过两年: where someone lived before, a fact of the past (as _PAST_WORK)
_PAST_HOME = re.compile(
    rf"^(?:以前|之前|曾经|从前|原来|过去|早年|曾)(?:也|一直|都)?"
    rf"(?:(?:住在|住|生活在)(?P<obj>{_P}{{1,12}}?)|在(?P<obj2>{_P}{{1,12}}?)(?:住|生活))(?:了|过)?(?P<time>{_SPAN})?$"
)

_NO_HOME = "院|校|酒店|宾馆|旅馆|民宿|了|过|在"  # after 住: a stay (住院, 住酒店), not a home

_STAY = r"(?:酒店|宾馆|旅馆|民宿|客栈|医院|青旅|帐篷)$"


def _lived_before(m: re.Match, timed: bool = False) -> list[Found]:
    obj = _object(m.group("obj") or m.groupdict().get("obj2") or "")
    span = m.group("time") or ""
    if not obj or obj[0] in _NOT_NAME or span.endswith(("天", "周")) or re.search(_STAY, obj):
        return []  # 在酒店住了两天: a stay, not a home
    attributes = {"时长": span} if span else None
    return [Found("FACT", "曾住在", obj, 0.6, attributes, kind="residence")]


_WORK_SPAN = re.compile(
    rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职|打工|干)(?P<done>了)?(?P<time>{_SPAN})(?P<now>了)?$"
)

# A single-valued attribute of someone (我的手机号是…; 新号码是… after 我换号了, of whom the clause
# before spoke): its topic is the attribute, whose words are the consolidator's slot words
# (lexicon.topics.SLOTS), so a later value replaces it. Each attribute says what its value looks like.
_ATTRIBUTE_VALUE = {
    "手机号码": r"\+?[\d -]{5,}",
    "手机号": r"\+?[\d -]{5,}",
    "电话号码": r"\+?[\d -]{5,}",
    "联系电话": r"\+?[\d -]{5,}",
    "电话": r"\+?[\d -]{5,}",
    "号码": r"\+?[\d -]{5,}",
    "电子邮箱": r"\S+@\S+",
    "邮箱地址": r"\S+@\S+",
    "邮箱": r"\S+@\S+",
    "生日": rf"{_P}*[\d一二三四五六七八九十]+月{_P}*",
}

_ATTRIBUTE = re.compile(
    rf"^(?P<own>我的|我)?(?:新的|新|现在的|目前的|最新的)?(?P<attr>{'|'.join(_ATTRIBUTE_VALUE)})"
    rf"(?:现在|已经|也)?(?:是|换成了|换成|改成了|改成|改为|变成了|变成)(?P<obj>{_P}+?)(?:了|啦)?$"
)


def attribute(clause: str, carried: Subject | None) -> Found | None:
    """我的手机号是13800001111 → 我 手机号 13800001111; None when the clause says no attribute."""
    m = _ATTRIBUTE.match(ZH_LEAD.sub("", clause).strip())
    if not m or not re.fullmatch(_ATTRIBUTE_VALUE[m.group("attr")], m.group("obj").strip()):
        return None
    whose = None if m.group("own") or carried is None else carried.name
    return Found("FACT", m.group("attr"), m.group("obj").strip(), 0.7, subject=whose, kind="fact")


def _admitted(m: re.Match, timed: bool) -> list[Found]:
    obj = _object(m.group("by") or m.group("obj") or "")
    if not obj or obj[0] in _NOT_NAME:
        return []
    return [read_as("school", "EVENT" if timed else "FACT", "考上", obj)]
