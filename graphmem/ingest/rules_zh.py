"""Chinese patterns: what a clause says of its subject (``predicates``), tried in order, the first that
reads it wins, each with what it builds (the reading it names, ``lexicon/readings.py``, with its object and
time); and a timed clause kept whole as an event (``event``).

Function words carry the reading: 住在 / 搬到 / 在…工作 / 不再 / 打算 are a closed set, and what stands
between them is the open part (a place, a company, a thing). Where the open part ends before an open-class
word (在星巴克|见了小雯, 一辆|新自行车), jieba's words and tags decide (``zh_subjects.tag``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lexicon import word_map
from ..lexicon.readings import words_of
from ..lexicon.roles import ATTRIBUTE_WORDS, ZH_ROLE_WORDS, roles_in
from ..lexicon.topics import ZH_WORKPLACES
from .phrases import Found, clean, patterns, read_as, relation
from .zh_subjects import _ADV, _JOB_END, _NAME, _NOT_NAME, FORMERLY, ZH_LEAD, Subject, of_places, tag
from .zh_things import ONE, PLACE_KINDS, is_maker, noun_head, object_of, that_one, thing_name, things

# What a guess, a supposition, a thought or a question opens with (可能…, 如果…, 觉得…, 为什么…)
GUESSES = "可能|也许|大概|应该|要是|如果|觉得|认为|以为|听说|猜|感觉|知道|记得|怎么|为什么"
# A clause that only says what used to be, guesses, wishes or asks states no current fact.
_NOT_FACT = re.compile(rf"^(?:{FORMERLY}|希望(?!能|可以|能够)|{GUESSES})")

# --- predicates ----------------------------------------------------------------------------
# 从2019年起 / 去年开始 (the time read out before) / 从小 / 从去年开始: since when what follows has held
_SINCE = re.compile(r"^(?:(?:[从自](?P<when>[^，,。！？在住]{0,8}?))?(?:起|开始|以来)|从小)(?:就|一直|便|都)*")

_DEGREES = "博士|硕士|学士|本科|专科|大专|研究生|高中|初中|中专|小学"
# the slots' topics that say a change of a value (the ends are changes too)
_CHANGES = {"搬到", "入职", "转学到", "考上"}


def _said(m: re.Match, key: str = "地点", group: str = "place") -> dict[str, str] | None:
    """``key`` (地点 where, 时长 how long) as the pattern's ``group`` said it; None when it said none."""
    return {key: m[group]} if m.groupdict().get(group) else None


def _open_part(text: str | None, limit: int = 30) -> str | None:
    """An open part cleaned to what a memory keeps; None when nothing is left or it opens with a pronoun."""
    obj = clean(text, True, limit)
    return obj if obj and obj[0] not in _NOT_NAME else None


def _organisation(said: str) -> str | None:
    """Where someone works or studies as said (一家银行 → 银行, 深圳那边 → 深圳); None for a pronoun, home or
    "this one"."""
    obj = _open_part(re.sub(r"(?<=.)(?:那块儿|那块|那边|那儿|一带)$", "", ONE.sub("", said)))
    return obj if obj and obj[0] != "家" else None


def _reading(
    topic: str,
    reading: str = "",
    mtype: str = "FACT",
    of: Callable = object_of,
    kind: str = "fact",
    ends: bool = False,
    confidence: float = 0.6,
    refuse: str = "",
) -> Callable:
    """A reading of the pattern's ``obj`` (or ``obj2``) as ``of`` cleans it (``str``: as said), with how long when
    said: ``reading``'s (``lexicon/readings.py``), else a fact of ``kind`` with its ``confidence``; its topic
    ``topic`` and the verb said, if any (不再 + 喝). None when nothing is left or what is left opens with a pronoun
    or "this", "that" (no name) or matches ``refuse``, unless the reading ``ends`` a slot (辞职了: whichever it
    was); an event when timed if it ``ends`` the slot or is a change (``_CHANGES``)."""

    def make(m: re.Match, timed: bool) -> list[Found]:
        obj = of(raw) if (raw := m.groupdict().get("obj") or m.groupdict().get("obj2")) else None
        if (obj is None and not ends) or (obj and (obj[0] in _NOT_NAME or (refuse and re.match(refuse, obj)))):
            return []
        said, span = topic + (m.groupdict().get("verb") or ""), _said(m, "时长", "time")
        typed = "EVENT" if timed and (ends or topic in _CHANGES) else mtype
        if not reading:
            return [Found(typed, said, obj, confidence, span, kind=kind)]
        return [read_as(reading, typed, said, obj, span, ends=ends)]

    return make


def _allergic(m: re.Match, timed: bool = False) -> list[Found]:
    """对花生过敏 → 过敏 花生; 不过敏 and 有点过敏 (no what) state nothing."""
    obj = None if m.group("neg") else object_of(m.group("obj"))
    if not obj or re.fullmatch(r"(?:有点|有些|很|特别|严重|非常|比较|容易|经常|也|又|还|都)+", obj):
        return []
    return [Found("FACT", "过敏", obj, 0.8, kind="fact")]


def _practised(m: re.Match, timed: bool = False) -> list[Found]:
    """学了三年钢琴了 → 在学 钢琴 (时长 三年); 弹了十年吉他 → 弹过 吉他: the verb and what, how long."""
    obj = object_of(m.group("obj"))
    if not obj or obj[0] in _NOT_NAME or obj[0] in "就才又都也还便没不" or obj in ("时间", "工作", "东西", "功课"):
        return []
    verb = m.group("verb")
    topic = verb + "过"  # 弹了十年吉他: a span that ended
    if m.group("now"):  # 学了三年钢琴了: up to now
        topic = "在" + verb if verb.startswith(("学", "练")) else verb
    return [Found("FACT", topic, obj, 0.6, {"时长": m.group("time")}, kind="fact")]


def _work_place(m: re.Match, timed: bool) -> list[Found]:
    """在银行当柜员 → 工作于 银行, 职业是 柜员 (the job when said)."""
    obj, job = _organisation(m.group("obj")), clean(m.groupdict().get("job"), True, 20)
    if not obj:
        return []
    jobs = [Found("FACT", "职业是", job, 0.6, kind="work", slot="job")] if job else []
    return [read_as("employer", "FACT", "工作于", obj), *jobs]


def _teaches(m: re.Match, timed: bool = False) -> list[Found]:
    """在中学教数学 → 工作于 中学, 教 数学; 教书 is the job, not a subject."""
    what = m.group("what")
    subject = what not in ("书", "学") and what[0] not in _NOT_NAME and what[0] not in "了过着得"
    found = [Found("FACT", "教", what, 0.6, kind="fact")] if subject else []
    return (found + _work_place(m, timed)) if m.groupdict().get("obj") else found


_LIKING = word_map(
    "喜欢: 喜欢|喜爱|钟爱|偏爱|迷上了|爱上了|中意, 爱好: 爱好, 爱: 爱|热爱, 讨厌: 讨厌|恨|受不了, 怕: 怕|害怕, 不喜欢: 不喜欢|不爱"
)

# what a liking's object may end with to say it is a hobby (攀岩作为他的兴趣爱好)
_AS_A_HOBBY = re.compile(r"(?<=.)作为(?:他|她|我|自己)?的?(?:兴趣)?爱好$")

# The liking verbs as one alternation, the longest first (不喜欢 before 喜欢, 热爱 before 爱)
_LIKING_VERBS = "|".join(sorted(_LIKING, key=len, reverse=True))

# the kinds of workplace a name ends in (lexicon.topics.ZH_WORKPLACES)
WORKPLACES = "|".join(ZH_WORKPLACES)
# Verbs a liking may carry: 爱喝 / 喜欢吃 / 不再喝 take their object as what is drunk or eaten.
_HABIT = "吃|喝|看|听|玩|打|弹|跑|穿|抽|养|追|唱|逛|踢|骑|做"

_MEAT = {"肉", "荤", "荤菜", "肉食", "大鱼大肉"}

# A habit verb and the one character after it that make one word for the activity itself.
_ACTIVITIES = {"跑步", "唱歌", "逛街", "做饭", "做菜", "打牌", "打球", "玩牌", "看戏"}


def _preference(m: re.Match, timed: bool) -> list[Found]:
    neg, verb, habit = m.group("neg"), m.group("verb"), m.group("habit") or ""
    obj = _open_part(m.group("obj")[:-1] if m["quite"] and m["obj"].endswith("的") else m["obj"])  # 挺喜欢…的
    if not obj or obj == "了" or obj.startswith("什么"):
        return []
    if verb == "爱好" and tag(obj)[0][1] == "d":
        return []  # 跟我的编程爱好简直绝配: a hobby spoken of, not what it is
    obj = thing_name(that_one(obj) or obj)  # LG的那个双门冰箱(的): one name; 华为Mate60这款手机: the phone named
    topic = _LIKING[verb]
    if hobby := _AS_A_HOBBY.search(obj):  # 喜欢攀岩作为他的兴趣爱好: a hobby, said so
        obj, topic = obj[: hobby.start()], "爱好"
    sign = 1 if topic in ("喜欢", "爱", "爱好") else -1
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
    changed = m.group("change") or m.group("change2")
    return [read_as("diet", "EVENT" if timed and changed else "FACT", "吃", "肉" if m.group("meat") else "素")]


def _favourite(m: re.Match, timed: bool = False) -> list[Found]:
    what, obj = clean(m.group("what"), True, 20), clean(m.group("obj"), True, 30)
    return [read_as("like", "OPINION", f"最喜欢的{what}", thing_name(obj))] if what and obj else []


# 我以前抽烟，后来戒了: the habit a bare 戒了 ends, said in the clause before
_USED_TO_QUIT = re.compile(
    rf"(?:{FORMERLY})(?:常|经常|每天|天天|一直|也|很爱|爱)?(?P<what>(?:{_HABIT})[^，,。！？；;!?]{{1,8}}?)[，,]"
    rf"(?P<mid>(?:后来|但是|但|可是|不过|现在|去年|前年|今年|上个月|上周|已经|早就|终于)*)(?:戒掉|戒)了"
)

# 比起咖啡，我更喜欢茶: the liking said, the thing it is weighed against left out
_RATHER = re.compile(r"^(?P<lead>[^，,。]{0,6}?)比起[^，,。]{1,10}?[，,]?(?P<who>[我他她])?(?=更|还是更|倒是更)")

# 我毕业后在银行上班 → 毕业后我在银行上班: when, then where the speaker is
_ME_AFTER = re.compile(r"^我(?P<when>[\u4e00-\u9fff]{1,6}?(?:以后|之后|后))(?=在)")
# 外婆去年走了, 我家的狗上周走了: of a grandparent or a pet, 走了 with nowhere after it is a death (of anyone
# else as often "left": 我妈昨天走了 may be a visit that ended)
_GONE = re.compile(
    r"(?P<who>爷爷|奶奶|外公|外婆|姥姥|姥爷|祖父|祖母|狗狗|狗|猫咪|猫)(?P<when>[^，,。！？!?走]{0,8}?)(?:已经)?走了(?=$|[，,。！？!?])"
)


# 我家里用的是…, 我家的洗衣机是…, 我手里这部手机是…: what the speaker's household has or the speaker holds, used
_AT_HAND = re.compile(
    rf"^我(?:家里|家|手里|手头)(?:用的|拿的|的(?!{ZH_ROLE_WORDS})|(?:这|那)(?:部|款|台|个))(?=[^，,。！？]{{0,6}}?是)"
)


# 我的手机是小米12, 我手机用的(是)华为Mate60: the model of a thing the speaker has, a name with a Latin letter in it
# or a number after it (我的梦想是当医生, 我的工资是5000, 我的座位是12号: no model)
_MY_MODEL = re.compile(
    r"^我的?(?P<what>[^，,。！？的是]{1,6}?)(?:用的是|用的(?![^，,。！？]*是)|是)"
    r"(?=[^，,。！？]*[A-Za-z]|[\u4e00-\u9fff]{1,8}\d+[A-Za-z0-9]*[。！!]?$)"
)


def said_plainly(sentence: str) -> str:
    """The sentence said the way the clause rules read it (each rewrite's example is at its pattern):
    我以前抽烟，后来戒了 → 我后来戒了抽烟, the habit quit said in the clause that quits it."""
    sentence = _AT_HAND.sub("我用的", sentence)
    model = _MY_MODEL.match(sentence)  # a thing: not 我的身高是170厘米, 我下属是做AI研发的, 我的下属邮箱地址是…
    if model and not roles_in(model["what"]) and not any(w in model["what"] for w in ATTRIBUTE_WORDS):
        sentence = f"我用的{model['what']}是{sentence[model.end() :]}"
    sentence = _GONE.sub(r"\g<who>\g<when>去世了", sentence)
    sentence = _ME_AFTER.sub(r"\g<when>我", sentence)
    sentence = _RATHER.sub(lambda r: r["lead"] + (r["who"] or "我"), sentence)
    m = _USED_TO_QUIT.search(sentence)
    if m is None:
        return sentence
    what = re.sub(r"^(喝|吃|抽)(?:很多|好多|不少)", r"\1", m.group("what"))
    when = re.sub(r"后来|但是|但|可是|不过|终于|已经|早就", "", m.group("mid"))  # the time it was quit, if said
    return sentence[: m.start()] + f"{when}戒了{what}" + sentence[m.end() :]


def _possession(m: re.Match, timed: bool) -> list[Found]:
    verb, rest = m.group("verb"), m.group("obj")
    if verb == "有" and not re.match(r"^(?!一天|一次)[一两二三四五六七八九十几\d]", rest):
        return []  # 有点累, 有一次: 有 says a thing is had only with how many (有两只猫)
    if verb != "有":  # 买了个新手机 / 养了只猫: a measure word said without 一
        rest = re.sub(r"^(?:个|只|台|辆|套|件|部|条|匹|盆)(?!人)(?=[\u4e00-\u9fffA-Za-z]{1,})", "", rest)
    obj = things(rest) if verb != "有" else clean(ONE.sub("", rest), True, 30)
    if not obj or obj[0] in _NOT_NAME:
        return []
    topic = "有" if verb == "拥有" else verb
    return [read_as("possession", "EVENT" if timed and topic != "有" else "FACT", topic, thing_name(obj))]


def _parted(m: re.Match, timed: bool) -> list[Found]:
    """我把车卖了, 卖掉了我的旧电脑, 把猫送人了: a thing parted with, which ends the speaker's having it."""
    said = re.sub(r"^(?:我们家|我家|我们|我)的?", "", m.group("obj") or m.group("obj2"))  # 我的宝马: the speaker's
    if not (obj := _open_part(ONE.sub("", said))):
        return []
    topic = "送人" if "送" in m.group(0) else "卖掉"
    return [read_as("parting", "EVENT" if timed else "FACT", topic, thing_name(obj))]


def _plan(m: re.Match, timed: bool) -> list[Found]:
    verb, what = m.group("verb"), clean(m.group("obj"), True, 30)
    weighing = re.match(r"^(?:想|考虑)(?:要不要|该不该|是不是该|是否要?|要不)", verb + (what or ""))
    if weighing:  # 在想要不要去北京工作: weighing it up, a plan of sorts
        verb, what = "考虑", (verb + (what or ""))[weighing.end() :]
    if not what or what[0] in _NOT_NAME or (verb == "想" and re.match(r"^(?:家|念|起|到|通|明白|不通)", what)):
        return []  # 想家, 想你, 想起: missing someone, remembering, not meaning to do anything
    if re.match(r"^(?:了|过)(?!解)", what):
        return []  # 准备了晚饭, 想过: done or thought of before, not meant to be done
    if verb in ("要", "会", "将") and not (timed or re.match(r"^(?:去|来|回|搬|换|参加|开始|买)", what)):
        return []
    topic = "想" if verb.startswith(("想", "希望", "盼")) else "打算"
    # 打算参加 · 新兴产业峰会: the event itself, the node its size, place and time share
    if attend := re.match(r"^(?:去)?参加(?=\S{2})", what):
        topic, what = topic + "参加", what[attend.end() :]
    return [read_as("plan", "EVENT" if timed else "FACT", topic, what)]


_P = r"[^，,。！？；;!?\n]"

# 在 and where (a workplace, a school; a home in at most 12 characters); 在考虑…, 在想…: thinking about it (a plan),
# not a place it is done at (在考虑回学校读书), 在找新工作: looking for one
_NOT_THINKING = "(?!考虑|想|犹豫|打算|准备|计划|纠结|琢磨|找|寻找|物色)"
_AT, _AT_HOME = (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,{n}}}?)" for n in (20, 12))

# 是…的 around where someone works, lives or studies: what is inside, said with weight
_FOCUS = re.compile(r"^是(?P<said>在[^，,。！？]{2,24}?(?:工作|上班|住|生活|读书|上学))的[。！!]?$")

_SPAN = r"[一二两三四五六七八九十几半\d]+多?(?:年|个月|个多月|周|天)多?"  # how long: 三年, 两个多月, 半年多

# what someone learns, practises or prepares for: 学吉他, 练瑜伽, 准备考研
_LEARNS = rf"(?P<verb>学习|练习|学|练|准备)(?!校|院|生|堂|期|习惯)(?P<obj>{_P}{{1,12}}?)"

_WORKED = "(?:工作|上班|任职|实习|打工|干)"
# 以前在银行上班 / 在华为工作过两年 / 在亚马逊干了十年 (了 after the verb alone: a span that ended): where someone
# worked, a fact of the past that sets no slot (it must not supersede where they work now). 干 counts only with a
# duration or alone: 以前在厨房干了很多活 is no job.
_PAST_WORK = re.compile(
    rf"^(?:(?:{FORMERLY})(?:也|一直|都)?在(?P<obj>{_P}{{1,20}}?){_WORKED}(?:了|过)?"
    rf"|在(?P<obj2>{_P}{{1,20}}?){_WORKED}(?:过|了(?={_SPAN}$)))(?P<time>(?:{_SPAN})?)(?:了|的时间)?$"
)
_WORKED_AT = _reading("曾工作于", of=_organisation, kind="work")

# 以前住在北京 / 之前在杭州住过两年: where someone lived before, a fact of the past (as _PAST_WORK)
_PAST_HOME = re.compile(
    rf"^(?:{FORMERLY})(?:也|一直|都)?"
    rf"(?:(?:住在|住|生活在)(?P<obj>{_P}{{1,12}}?)|在(?P<obj2>{_P}{{1,12}}?)(?:住|生活))(?:了|过)?(?P<time>{_SPAN})?$"
)

_LIVED = _reading("曾住在", kind="residence", refuse=r".*(?:酒店|宾馆|旅馆|民宿|客栈|医院|青旅|帐篷)$")


def _lived_before(m: re.Match, timed: bool = False) -> list[Found]:
    """A home before; 在酒店住了两天, a hotel or days or weeks: a stay, not a home."""
    return [] if (m["time"] or "").endswith(("天", "周")) else _LIVED(m, timed)


# A single-valued attribute of someone (我的手机号是…; 新号码是… after 我换号了, of whom the clause
# before spoke): its topic is the attribute, whose words are the consolidator's slot words
# (lexicon.topics.SLOTS), so a later value replaces it. Each attribute says what its value looks like.
_ATTRIBUTE_VALUE = {  # the phone's and the email's words of the table, the longest first
    **{w: r"\+?[\d -]{5,}" for w in sorted(words_of("phone", "zh"), key=len, reverse=True)},
    **{w: r"\S+@\S+" for w in sorted(words_of("email", "zh"), key=len, reverse=True)},
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


# 老家在山东青岛 / 的家乡是成都的 / 籍贯是在河北 / 老家在广州那边呢: where someone is from, said of their hometown
_HOMETOWN = re.compile(
    rf"^的?(?P<attr>老家|家乡|籍贯)(?:是在|是|在)(?P<obj>{_P}{{1,20}}?)(?:那边|那儿|一带)?(?:的|人)?(?:呢|啊|呀)?$"
)


def hometown(clause: str) -> Found | None:
    """A hometown said with 是 or 在, under its word (我叔叔老家在山东青岛的 → 老家是 山东青岛); None when none is said."""
    m = _HOMETOWN.match(clause)
    obj = object_of(m.group("obj")) if m else None
    return Found("FACT", m.group("attr") + "是", obj, 0.6, kind="fact") if m and obj else None


_NOT_THE_ONE = r"^(?:什么|太|很|挺|特别|非常|真|超|好|让|有点|比较)"


def _the_one(m: re.Match, timed: bool) -> list[Found]:
    """ "The N I V is Y" (我用的手机是华为Mate60) says the speaker Vs Y: where they live, what they use, where they went."""
    verb, said = m.group("verb"), m.group("obj").strip()
    if (said_attr := attribute("我的" + m.group("what") + "是" + said, None)) is not None:
        return [said_attr]  # 我用的邮箱是…: the e-mail address, not a thing used
    said = re.sub(r"^个(?=.{2})", "", ONE.sub("", said))  # 是一家肿瘤医院, 是个民俗文化村: the hospital, the village
    if speciality := re.fullmatch(r"专门(?:看|治)(?P<what>[^的]{1,4})的", said):  # 专门看骨科的: a 骨科医院
        said = speciality["what"] + m["what"]
    said = re.sub(rf"^家(?=.{{2,}}(?:{PLACE_KINDS}|公司|银行|店)$)", "", said)  # 是家肿瘤医院 (not 家乐福)
    said = re.sub(r"(?<=.)(?:牌子|牌)的", "的", said)  # LG牌的双门冰箱: LG的
    maker = re.fullmatch(r"(?P<brand>[^的]{1,12}?)的(?:(?P<kind>[^的]{1,6}?)款)?", said)
    if maker and m["what"] and is_maker(maker["brand"]):  # 洗衣机是西门子的, 冰箱是LG牌的双门款: the maker's thing
        said = maker["brand"] + (maker["kind"] or "") + m["what"]
    obj = clean(said, True, 30) if verb in ("喜欢", "爱") else object_of(said)  # 喜欢的事就是去听音乐会: a deed
    if not obj or obj[0] in _NOT_NAME or said.endswith("的") or re.match(_NOT_THE_ONE, obj):
        return []  # 是专门看骨科的, 真是太让人满意了: what it is like, not which one
    if verb == "住":
        return [read_as("residence", "FACT", "住在", obj)]
    obj = thing_name(obj)
    if verb in ("喜欢", "爱"):
        return [read_as("like", "FACT", "喜欢", obj)]
    if verb in ("用", "穿", "戴", "开", "买"):
        return [read_as("possession", "EVENT" if timed and verb == "买" else "FACT", verb, obj)]
    return [Found("EVENT" if timed else "FACT", verb, obj, 0.5, kind="event")]


def _fact(topic: str, confidence: float = 0.6, kind: str = "fact", change: bool = False) -> Callable:
    """A reading a pattern says whole: ``topic`` and what it matched as ``obj``, if any; an event when timed for a
    ``change`` (got, married)."""
    return lambda m, t: [
        Found("EVENT" if t and change else "FACT", topic, m.groupdict().get("obj"), confidence, kind=kind)
    ]


def _if(test: Callable[[str], object], make: Callable) -> Callable:
    """``make``'s reading when what the pattern's ``obj`` said passes ``test``, else none."""
    return lambda m, t: make(m, t) if test(m.group("obj")) else []


# the readings several patterns make
_HOME, _LEFT_HOME = _reading("住在", "residence"), _reading("不再住在", "residence", ends=True)
_JOINED, _QUIT, _JOB = _reading("入职", "employer"), _reading("辞职", "employer", ends=True), _reading("职业是", "job")
_STUDIES, _GRADUATED = _reading("就读于", "school", of=_organisation), _reading("毕业于", "school", ends=True)
_STOPPED, _ORIGIN = _reading("不再", "stop", "OPINION", _open_part), _reading("来自")
_LEARNING, _PLAYS = _reading("在", refuse="[了过着到]"), _reading("", of=str, refuse="[了过着得完好]")

_RULES = patterns(
    # 在亚马逊干了十年了 (了 at the end: the span runs up to now): the employer now, for that long
    (rf"{_AT}{_WORKED}了?(?P<time>{_SPAN})了$", _reading("工作于", "employer", of=_organisation)),
    # 我住的那个小区叫世纪花园, 我去参观的公园是人民公园: the one the speaker lives in, uses, went to, named
    (
        r"^(?:常|经常|最常|平时|平常)?(?:去|来)?(?P<verb>住|用|穿|戴|开|买|喜欢|爱|去|逛|路过|经过|参观)(?:了|过)?的(?:那|这|一)?(?:个|家|款|台|双|辆|所|座)?"
        rf"(?P<what>{_P}{{0,6}}?)[，,]?(?:就是|是|叫做|叫|名叫)(?P<obj>{_P}{{2,30}})$",
        _the_one,
    ),
    # 把车卖了 / 卖掉了我的旧电脑 / 把猫送人了 (to no one named: 卖给了陈阿姨 names whom, read elsewhere)
    (rf"^把(?P<obj>{_P}{{1,12}}?)(?:卖了|(?:卖掉|送人|转手)了?)$|^卖(?:了|掉了?)(?P<obj2>{_P}{{1,12}}?)了?$", _parted),
    # changes of residence and of work or school: the slot they set
    (rf"^(?:搬到|搬去|搬家到|搬回到|搬回|搬进了|搬进|搬来)了?(?P<obj>{_P}+)", _reading("搬到", "residence")),
    # 不住在北京了 / 不在北京住了: no longer lives there
    (rf"^(?:(?:不再|不)住在(?P<obj>{_P}+?)了?|不在(?P<obj2>{_P}{{1,12}}?)(?:住|生活|待)了)$", _LEFT_HOME),
    # 搬出了那套公寓 / 搬离北京: the home left (a "that one" is no name: the home ends all the same)
    (rf"^搬(?:出去|出|离)了?(?:[那这][套个间栋]?)?(?:公寓|房子|出租屋|宿舍|家|(?P<obj>{_P}*?))了?$", _LEFT_HOME),
    (rf"^(?:住在|家在|居住在|生活在|定居在|定居于|定居)(?P<obj>{_P}+)", _HOME),
    # 在北京住了五年了 (了 at the end: up to now): where someone lives, for that long when said
    (rf"{_AT_HOME}(?:住|生活|定居|安家)(?:了|着|下来了?|了?(?P<time>{_SPAN})了)?$", _HOME),
    # 住上海 / 住上海五年了: 住 with no 在 (住院, 住校, 住酒店: a stay, not a home; 住着: how it is to live in)
    (rf"^住(?!院|校|酒店|宾馆|旅馆|民宿|了|过|着|在)(?P<obj>{_P}{{2,12}}?)(?:(?P<time>{_SPAN})了)?$", _HOME),
    # 在北京住了五年 / 在北京住过 / 以前住在北京: a home before (no 了 at the end: the span ended),
    # which sets no slot: where someone lives now is said otherwise
    (rf"{_AT_HOME}(?:住|生活|待)(?:过|了)(?P<time>{_SPAN})?$", _lived_before),
    (rf"^(?:入职了?|加入了?|跳槽到了?|跳槽去了?|进了)(?P<obj>{_P}+?)(?:上班|工作)?了?$", _JOINED),
    (rf"^去了?(?P<obj>{_P}+?)(?:上班了?|工作了)$", _JOINED),  # 去腾讯上班了 (去腾讯 alone: a visit)
    (r"^(?:换了?(?:一份|个|份)?新?工作|跳槽了)", _reading("换工作", "employer", ends=True)),
    # 换了一辆比亚迪 / 又换成了理想L6: the thing had instead (a car, a phone), after one parted with or not
    (
        rf"^(?:后来|然后)?换(?:了|成了?)一?(?:辆|台|部|只|个|款)(?P<obj>{_P}{{2,12}}?)了?$"
        rf"|^(?:后来|然后)?换成了?(?P<obj2>{_P}{{0,8}}?[A-Za-z0-9]{_P}{{0,8}}?)了?$",  # a model: 理想L6
        _reading("换成", "possession", of=lambda s: thing_name(object_of(s) or "")),  # had from then on, as 有
    ),
    # 开始在谷歌工作了: a new employer (with a time, 去年开始在…, since then: see _SINCE)
    (rf"^开始在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职)了?$", _JOINED),
    (rf"^从(?P<obj>{_P}+?)(?:辞职|离职)", _QUIT),
    (r"^(?:辞职|离职|辞了职|辞掉了?工作|被裁|被解雇|被开除|退休)", _QUIT),
    (rf"^辞(?:掉|去)了?(?P<obj>{_P}{{1,12}}?)的工作了?$", _QUIT),  # 辞掉了银行的工作: the employer left
    (rf"^(?:考上了?|考进了?|被(?P<obj>{_P}+?)录取)(?P<obj2>{_P}*)", _reading("考上", "school")),
    # 是博士毕业的 / 只有高中学历 / 就念到高中 / 读的是专科: how far they studied (a degree, as 学历是博士 says it),
    # not where
    (
        rf"^是?(?:一?[个名位])?(?P<obj>{_DEGREES})(?:学历)?毕业(?:的|了)?$|^是?(?P<obj2>{_DEGREES})学历的?$|"
        rf"^(?:就|只)?(?:(?:念到|读到|上到|读的是|念的是)了?(?P<obj3>{_DEGREES})|(?:只有|只是)(?P<obj4>{_DEGREES})学历)"
        r"(?:毕业)?(?:的|了|而已)?$",
        lambda m, t: [Found("FACT", "学历是", m["obj"] or m["obj2"] or m["obj3"] or m["obj4"], 0.5, kind="fact")],
    ),
    (rf"^(?:(?:从|是)?(?:一?[个名位])?(?P<obj>{_P}+?)毕业了?|毕业于(?P<obj2>{_P}+?)了?$)", _GRADUATED),
    (rf"^(?:转学|转校)(?:到|去)了?(?P<obj>{_P}+?)了?$", _reading("转学到", "school")),
    # what they eat
    (
        r"^(?P<change>从?(?:开始|改|改成|改为|转为|决定)?)(?:吃素|吃斋|吃全素|吃纯素|(?:是|成了|当了?)(?:一[个名位])?素食(?:者|主义者))"
        r"|^(?P<change2>从?(?:开始|又|重新)?)(?P<meat>吃肉|吃荤|是肉食(?:动物|主义者)|无肉不欢)",
        _diet,
    ),
    # 跟小李结婚了 / 和王芳结婚三年了 / 嫁给了小李: whom they are married to
    (
        rf"^(?:(?:跟|和|与)(?P<obj>{_NAME})(?:结婚|结了婚)|(?:嫁给了?|娶了)(?P<obj2>{_NAME}))(?:了|{_SPAN}了?)?$",
        lambda m, t: [relation("配偶", m.group("obj") or m.group("obj2"))],
    ),
    # 出生在山东 / 是在青岛出生的: where someone was born
    (
        rf"^(?:出生在了?|出生于|生在)(?P<obj>{_P}{{1,12}}?)的?$|^是?在(?P<obj2>{_P}{{1,12}}?)出生的?$",
        _reading("出生于", of=lambda s: _open_part(s, 20)),
    ),
    # 结婚了 / 结婚三年了: married, to someone not named
    (rf"^(?:结婚|结了婚)(?:了|{_SPAN}了)$", _fact("结婚", change=True)),
    # 在医院找了份新工作 / 找到了工作: a new employer (where it is said), else a job changed
    (
        rf"^(?:在(?P<obj>{_P}{{1,20}}?))?(?:找到|找)了?一?份?新?的?工作了?$",
        lambda m, t: (  # 在上海找到了工作: a job found in a city, its employer not said
            _JOINED(m, t)
            if m["obj"] and not of_places(m["obj"])
            else [read_as("employer", "EVENT" if t else "FACT", "换工作", None, _said(m, "地点", "obj"), ends=True)]
        ),
    ),
    # where they work or study now
    (rf"{_AT}(?:读|上学|念书|留学)", _STUDIES),  # 读书, 读大学, 读研 …
    (rf"^是(?P<obj>{_P}{{1,20}}?)的学生", _STUDIES),
    (rf"{_AT}(?:工作|上班|任职|实习|打工)", _work_place),
    (rf"{_AT}当(?P<job>{_P}{{1,12}})$", _work_place),
    # 在银行做柜员 / 在公司干会计: 做 and 干 name a job only when what follows is one (员, 师, 会计 ...),
    # or when where it is done is a workplace by name (在一家游戏公司做策划)
    (rf"{_AT}(?:做|干)(?P<job>{_P}{{0,10}}(?:{_JOB_END}))$", _work_place),
    (
        rf"^在{_NOT_THINKING}(?P<obj>{_P}{{0,16}}?(?:{WORKPLACES}))"
        rf"(?:做|干|当|负责)(?![了过完个])(?P<job>[^，,。！？；;!?\n了过]{{2,8}})$",
        _work_place,
    ),
    # 从腾讯跳槽到字节: the employer now (the one left is said with it)
    (rf"^从(?P<old>{_P}{{1,12}}?)(?:跳槽|换)(?:到|去)了?(?P<obj>{_P}{{1,16}}?)(?:上班|工作)?了?$", _JOINED),
    (rf"^(?:就职于|供职于|任职于|受雇于)(?P<obj>{_P}+)", _reading("工作于", "employer")),
    # 工作是做翻译的: the line of work, said as what they do (a bare 做 was taken for the job)
    (rf"^的?(?:工作|职业)是(?:(?:做|搞|干|当)(?P<obj>{_P}{{1,8}}?)的$|(?P<obj2>{_P}+))", _JOB),
    # 升职为 / 被提拔为 X: the job now, which replaces the one before
    (rf"^(?:升职为|升职成了?|升为|升任|晋升为|被提拔为|提拔为)(?P<obj>{_P}+?)了?$", _JOB),
    # 对花生过敏 / 花生过敏: what they are allergic to, a fact about their health; 不过敏 states nothing
    (rf"^对?(?P<obj>(?!不|没|并不){_P}{{1,12}}?)(?P<neg>不|没有|并不)?(?:有点|有些|很|特别|严重)?过敏了?$", _allergic),
    # likes, dislikes and what is no longer done
    (rf"^最(?:喜欢|爱)的(?P<what>{_P}{{1,10}}?)(?:是|就是)(?P<obj>{_P}+)", _favourite),
    (
        rf"^(?P<neg>不再|再也不|一点也不|一点都不|并不|从来不|从不|不太|不怎么|不是很|不是特别)?"
        rf"(?:也|还是|还|真的|真|很|非常|特别|特|最|更|超|超级|(?P<quite>挺|蛮)|一直|比较|都|就|好)*"
        rf"(?P<verb>{_LIKING_VERBS})(?P<habit>{_HABIT})?(?P<obj>{_P}+)",
        _preference,
    ),
    (rf"^(?:不再|再也不)(?P<verb>{_HABIT}|去|用|开|住|)(?P<obj>{_P}+?)了?$", _STOPPED),  # or none: 不再熬夜
    (rf"^不(?P<verb>{_HABIT})(?P<obj>{_P}+?)了$", _STOPPED),
    (rf"^戒了?(?P<obj>{_P}+?)了?$", _reading("戒了", "stop", "OPINION", lambda s: clean(s, True, 20))),
    # 不吃猪肉 / 从来不喝酒: a food or drink kept off (不吃早饭, 不吃了 say how much or when, not what)
    (
        rf"^(?:从来|从|基本)?不(?P<verb>吃|喝)(?!早饭|午饭|晚饭|饭|东西|太多|多|了)(?P<obj>{_P}{{1,6}})$",
        _reading("不", "dislike", "OPINION", lambda s: _open_part(s, 12)),
    ),
    # 在学吉他 / 开始练瑜伽 / 在准备考研: what they are learning or preparing for now (在学校 is a place), with how
    # long when said; without 在 or 开始 only with how long (学西班牙语半年了): 学做饭 alone may be a wish
    (rf"^(?:在|开始){_LEARNS}(?P<time>{_SPAN})?了?$", _LEARNING),
    (rf"^{_LEARNS}(?P<time>{_SPAN})了?$", _LEARNING),
    # 学了三年钢琴了 / 弹了十年吉他: how long someone has learnt or played something (了 at the end:
    # up to now)
    (
        rf"^(?P<verb>学习|练习|学|练|弹|拉|吹|打|踢|跳|画|唱)了(?P<time>{_SPAN})的?"
        rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?P<now>了)?$",
        _practised,
    ),
    # 做销售的 / 是做IT的: the line of work someone is in
    (rf"^是?(?:做|搞|干)(?!饭|菜|事|作业|家务|梦)(?P<obj>{_P}{{1,8}}?)的$", _JOB),
    # 是送快递的 / 是开出租车的 / 是教书的: a trade said by what is done in it, the doing its name
    (
        rf"^是(?P<obj>(?:送|开|卖|修|教|种|养|拉|扫|拍)(?![了过着给完你我他她它]|玩笑|心|会|始|门){_P}{{1,5}}?)的$",
        lambda m, timed: [read_as("job", "FACT", "职业是", m.group("obj"))],  # 送快递: the doing whole
    ),
    # 是当农民的: what someone works as (当时, 当天, 当地 say when or where)
    (rf"^是?当(?!时|天|地|年|初|然|中|面|晚|场|下)(?P<obj>{_P}{{1,8}}?)的$", _JOB),
    # 不在腾讯了 / 不在华为上班了: no longer works there (a home, 家, is no employer)
    (rf"^不在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|干)?了$", _if(_organisation, _QUIT)),
    # 开了一家面包店 / 在深圳开了一家餐厅: a business someone runs, where they work
    (
        rf"^(?:在(?P<place>{_P}{{1,10}}?))?(?:自己)?开了(?:一家|家|一个|个|一间|间)(?P<obj>{_P}{{0,8}}?(?:店|公司|餐厅|饭店|馆|工作室|厂|诊所|超市|网店|民宿))$",
        lambda m, t: [read_as("employer", "EVENT" if t else "FACT", "开了", m["obj"], _said(m))],
    ),
    # 弹钢琴 / 会拉小提琴 / 打篮球: an instrument or a game someone plays (会: can)
    (r"^(?P<verb>会?[弹拉吹])(?P<obj>[\u4e00-\u9fff]{1,5}?)$", _PLAYS),
    (
        r"^(?P<verb>会?[打踢下])"
        r"(?P<obj>篮球|足球|排球|网球|羽毛球|乒乓球|棒球|高尔夫球?|冰球|太极拳?|架子鼓|鼓|围棋|象棋|国际象棋)$",
        _PLAYS,
    ),
    # 教数学 / 在中学教物理: what someone teaches, and where (the employer)
    (rf"(?:{_AT})?教(?P<what>{_P}{{1,10}})$", _teaches),
    # plans and intentions
    (rf"^在?(?P<verb>打算|准备|计划|决定|考虑|想要|想|将要|要|会|将)(?P<obj>{_P}+)", _plan),
    # 希望今年能跑一次半马 / 的计划是六月前写完论文: what someone hopes or plans to do
    (rf"^很?(?P<verb>希望|盼着)(?:能|可以|能够)(?P<obj>{_P}+)", _plan),
    (rf"^的(?P<verb>计划|打算)(?:是|就是)(?P<obj>{_P}+)", _plan),
    # 在找新工作 / 正在找房子: what they are looking for, not where they work
    (rf"^在(?:找|寻找|物色)(?P<obj>{_P}{{1,12}}?)(?:了|呢)?$", _if(object_of, _fact("在找"))),
    # a licence, a degree, a visa got: theirs from now on (拿到驾照了 / 考到了驾照)
    (
        r"^(?:拿到|考到|考下|考出|拿下|办下|取得)了?(?P<obj>驾照|驾驶证|学位|(?:学士|硕士|博士)学位|毕业证|护照|签证|绿卡|录取通知书|黑带)",
        _fact("拿到", kind="possession", change=True),
    ),
    # 我怀孕了: expecting a child, a fact until it is born
    (r"^怀孕了?(?:[，,。！!]|$)", _fact("怀孕", 0.8)),
    # possessions
    (rf"^(?P<verb>拥有|有|买了|领养了|养了)(?P<obj>{_P}+)", _possession),
    # 在成都买了房: a home bought, and where
    (
        rf"^在(?P<place>{_P}{{1,12}}?)买了(?:一套|套|一个|个|一栋|栋)?(?P<obj>房子|房|公寓|别墅|新房|二手房)$",
        lambda m, t: [Found("EVENT" if t else "FACT", "买了", m["obj"], 0.6, _said(m), kind="possession")],
    ),
    # 开的是特斯拉 / 开一辆旧宝马: the car someone drives (开会, 开心, 开始 are no car)
    (rf"^(?:开的是|开着?一?辆|开了?一辆)(?:新|旧|二手)?的?(?P<obj>{_P}{{2,12}}?)车?$", _reading("开", "possession")),
    # 姓王: someone's surname, not a name of its own (我的牙科医生姓王)
    (r"^姓(?P<obj>[\u4e00-\u9fff]{1,2}?)的?[。！!]?$", _fact("姓")),
    # who they are
    (
        r"^(?:(?:的名字)?(?:叫做|叫|是叫|名叫)|的名字是)(?P<obj>[^，,。！？；;!?\s]{1,12})",
        _reading("叫", of=str, confidence=0.8, refuse=r"[了过着]|(?:醒|车|外卖)$"),
    ),
    (rf"^(?:来自|是从)(?P<obj>{_P}{{1,20}}?)(?:来的|过来的|人)?$", _ORIGIN),
    (_HOMETOWN.pattern, _ORIGIN),
    # 他们家是山西太原的 / 她家是浙江宁波那边的: their family's place, where they are from (她家是开饭店的
    # says what the family does: a place must open it); 是天津人 / 是河南郑州的: a place and nothing else
    (
        rf"^(?:他们|她们|他|她)?家是在?(?P<obj>{_P}{{1,20}}?)(?:那边|那儿|一带)?的(?:呢|啊|呀)?$",
        _if(lambda s: tag(s)[0][1] == "ns", _ORIGIN),
    ),
    (rf"^是(?P<obj>{_P}{{2,12}}?)(?:那边|那儿|一带)?(?:的人|人|的)(?:呢|啊|呀)?$", _if(of_places, _ORIGIN)),
    # a height or a weight said as the value alone after its word (我表姐身高160厘米, 体重只有50公斤): what the
    # word is, as 身高是160厘米 reads
    (
        r"^(?:有|只有|才|大概有?|约|差不多)?(?P<obj>[\d.一二两三四五六七八九十百]{1,6}(?:厘米|公分|cm|CM|米|公斤|千克|斤|kg|KG))"
        r"(?:左右)?(?:了|啦)?$",
        _fact("是", 0.5),
    ),
    # how old: 34岁 / 三岁了 (今年, a time, is read apart); the consolidator's age slot takes a later one
    (
        r"^(?P<obj>[\d一二两三四五六七八九十百]{1,4})周?岁(?:了|啦)?$",
        lambda m, t: [Found("FACT", "年龄", m.group("obj") + "岁", 0.7, kind="fact")],
    ),
    (
        rf"^是(?:一名|一个|一位|个|名|位)?(?P<obj>{_P}{{1,30}})",
        _reading("是", of=_open_part, confidence=0.5, refuse=r"(?:说|觉得|想|不|没|在|因为|从|为了|真的)|.*的$"),
    ),
)


def predicates(rest: str, timed: bool, time_text: str | None = None) -> list[Found]:
    """What a clause says of its subject, read from the text after the subject (adverbs allowed):
    the first rule that reads it wins. ``time_text``: the time the clause said, if any."""
    p = re.sub(rf"^{_ADV}", "", rest.strip(" ，,")).strip()
    since = _SINCE.match(p)
    when = time_text or (since and (since.group("when") or ("小时候" if p.startswith("从小") else None)))
    if since and when and since.end() < len(p):  # 从2019年起在谷歌工作: where they work, since 2019
        found = predicates(p[since.end() :], False)
        if found and all(f.memory_type == "FACT" and f.kind in ("work", "school", "residence") for f in found):
            for f in found:
                f.attributes = {**(f.attributes or {}), "起始": when}
            return found
        if found and all(f.kind == "preference" for f in found):  # 从小就怕狗: a liking or a fear held since
            return found
    if (focus := _FOCUS.match(p)) and (found := predicates(focus["said"], timed, time_text)):
        return found  # 是在深圳上班的: 在深圳上班, said with weight
    if past := _PAST_WORK.match(p):
        return _WORKED_AT(past, False)
    if home := _PAST_HOME.match(p):
        return _lived_before(home)
    if not p or _NOT_FACT.match(p):
        return []
    for pattern, make in _RULES:
        if (m := pattern.match(p)) and (found := make(m, timed)):
            return found
    return []


# --- events: what happened, where -----------------------------------------------------------
_FUTURE = re.compile(r"^(?:明天|后天|下周|下星期|下个月|下月|明年|下半年|今晚|待会|回头|将来|以后|这周末|周末)")


def is_future(time_text: str | None) -> bool:
    """Whether a time said in words is one to come (下个月, 明天, 明年)."""
    return bool(time_text and _FUTURE.match(time_text))


def event(rest: str, time_text: str | None = None) -> Found | None:
    """A timed clause about its subject kept as its predicate (去超市买了苹果 / 没睡好), with the
    place it happened at as 地点 (在星巴克见了小雯 → 见了小雯, 地点 星巴克)."""
    p = re.sub(rf"^{_ADV}", "", rest.strip(" ，,。！？!?")).strip()
    if not p or _NOT_FACT.match(p):
        return None
    attributes = None
    m = re.match(rf"^在(?P<place>{_P}+)", p)
    if m and not tag(m.group("place"))[0][1].startswith("v"):  # 在学做饭: 在 says it is going on, not where
        said = ONE.sub("", m.group("place"))  # 在一家游戏公司做美术: the place is 游戏公司
        place = noun_head(said)
        after = said[len(place) :] if place else ""
        if place and (len(place) > 1 or place == "家") and after and not after.startswith(("工作", "上班", "住")):
            attributes, p = {"地点": place}, after
    topic = clean(p, True, 30)
    if not topic:
        return None
    if is_future(time_text):  # 她下个月回国: what a time to come says someone does is a plan
        return Found("EVENT", "将", topic, 0.5, attributes, kind="plan")
    return Found("EVENT", topic, None, 0.5, attributes, kind="event")
