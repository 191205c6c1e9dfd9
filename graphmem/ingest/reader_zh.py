"""Chinese for the offline reader (``language.Language``): a sentence's clauses, whom each is about and
what it says of them, read with the patterns of ``rules_zh``."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..lang import HAN_CHARS
from ..lexicon.roles import ZH_ROLE_WORDS, role_of
from . import rules_zh, zh_subjects, zh_things
from .language import Language, Reader
from .people import People
from .phrases import _LEAD_ZH, Found, Subject, clean, read_as

# "X也是Y" is "X是Y"; "X可能是Y" is a guess and "X以前是Y" what used to be, not a fact (小曾, 老曾: names).
_X_ADVERB = re.compile(r"(?:也|都|还|就|又|才|真的|真|确实|其实|一直|已经|并)$")

_X_GUESS = re.compile(rf"(?:可能|应该|也许|大概|好像|似乎|一定|肯定|会|(?<![小老阿])(?:{zh_subjects.FORMERLY}))$")
_X_IS_Y = re.compile(r"^(?P<x>[^，,。！？；;!?\s]{1,12}?)是(?P<y>[^，,。！？；;!?]{1,40})$")


def _x_is_y(said: str) -> Found | None:
    if (m := _X_IS_Y.match(said)) is None:
        return None
    x, y = clean(m.group("x"), True, 20), clean(m.group("y"), True, 40)
    if not x or not y or x[0] in "这那它他她你我谁哪什如要假的" or y[0] in "不没":
        return None
    topic = "是"
    if x.endswith("不"):  # 小明不是医生: 小明 不是 医生, never 小明 是 医生
        x, topic = x[:-1], "不是"
    if _X_GUESS.search(x) or not (x := _X_ADVERB.sub("", x)) or x[-1] in "不没":
        return None
    x = re.sub(r"(?<=.)[他她]$", "", x)  # 张丽娟她是…: the pronoun says her again
    work = re.search(r"(?<=.)的(?:工作|职业)$", x)  # 李明杰的工作是做销售的: what his work is
    who = x[: work.start()] if work else x
    job = rules_zh.predicates(f"{work[0] if work else ''}是{y}", False, None) if topic == "是" else []
    said_of = job and (job[0].kind == "work" or job[0].topic == "来自")
    if said_of and zh_subjects.person_named(who):  # 李明宇是当警察的 / 王明是天津人: his job, where he is from
        return replace(job[0], subject=who)
    return Found("FACT", topic, y, 0.5, subject=x)


# 金融科技精英论坛的规模是三千人 / 的时间是下周一下午两点: what an event is said to have, its time as said
_OF_EVENT = re.compile(
    r"^(?P<x>[^，,。！？；;!?\s]{2,30}?)的(?P<what>举办时间|举办地点|持续时间|主要内容|时间|地点|规模|主题)"
    r"(?:是|为)(?P<y>[^，,。！？；;!?]{1,40}?)[。！!]*$"
)


def _of_event(said: str) -> Found | None:
    """金融科技精英论坛的规模是三千人 → 金融科技精英论坛 · 规模 · 三千人, however long its name and whatever time it
    names: the event is one node, so its size, place, time and the plan to attend it (打算参加 · 金融科技精英论坛) are
    one step apart, and 那个规模是三千人的活动，在哪？ goes from the one to the other (a question across events,
    有几个活动…, takes no such step: ``rank.Paths.strong``)."""
    m = _OF_EVENT.match(said.strip())
    if m is None or m["x"][0] in "我你他她它这那" or role_of(m["x"]) is not None:
        return None
    y = clean(m["y"], True, 40)
    return Found("FACT", m["what"], y, 0.5, subject=m["x"]) if y else None


# 华为Mate60真心好用 / 这款LG双门冰箱真的太给力了 / 小米12这手机性能真不错: a thing named, then what the
# speaker thinks of it, after a "really" that says it is a judgement
_THIS = rf"^(?:{zh_things.THIS_ONE})?"  # 这台, 那双 …: a made thing, by its measure word; 这个, 那家: anything
_THING = _THIS + r"(?P<x>[^，,。！？；;!?\s]{3,24}?)"  # the thing's name: what stands before the judgement
_OPINION = re.compile(_THING + r"(?P<how>真心|真的|真是|确实|实在|真)")
# 松下空气净化器用起来真不错: a thing as it is used, worn, eaten …: what follows is how it is
_IN_USE = re.compile(_THING + r"我?(?P<how>(?:用|吃|穿|开|戴|玩|喝)起来|用着|穿着|开着|戴着)")
_ITS = re.compile(
    _THIS + r"(?P<x>[^，,。！？；;!?\s]{2,16}?)(?:的|(?P<how>挺|很|特别|非常|太|超|蛮|还挺|还蛮|有点|有些|比较))"
)
# 我的iPhone13, 我家的戴森吹风机: a thing the speaker has; 我觉得小米手环挺好用的: their judgement of one (or of a part)
_MINE = re.compile(
    r"^我(?:(?P<think>(?:个人)?(?:认为|觉得|感觉))|们?家?(?:的|(?:最近|刚|刚刚|新|前阵子)?(?:买|入手|换|用)的|在用的))"
)
# What a review judges of a thing or a place (松下空气净化器效果真心不错: the purifier, its effect)
_ASPECTS = tuple(
    "效果 性能 质量 品质 设计 外观 做工 画质 音质 音效 口感 味道 服务 价格 性价比 续航 屏幕 系统 颜值 手感 "
    "功能 配置 材质 款式 尺寸 颜色 环境 绿化 交通 位置 氛围 装修 风景 景色 设施 建设 东西 货品 商品 种类 "
    "品种 天气".split()
)
_A_PLACE = re.compile(rf"(?:{zh_things.PLACE_KINDS})$")
_NOUN_TAGS = ("n", "eng", "m")  # a noun (n, nr a name, ns a place, nz …), a Latin word or a number
_NAMED_TAGS = ("nr", "ns", "nt", "nz", "eng", "m")  # a name, a place, a brand, a Latin word or a number


def _a_thing(words: list[tuple[str, str]], in_use: bool) -> str | None:
    """The name of a thing, or None: every word a noun, a name or a number (and the 的 between a maker
    and its thing), one of them a name unless it is said to be in use or to have a part judged (屏幕效果,
    这家医院, 今天天气 are no thing named)."""
    if not words or not words[-1][1].startswith(_NOUN_TAGS) or role_of(words[0][0]) is not None:
        return None  # 同事小王: a person, not a thing
    # a word that modifies the noun after it (降噪耳机, 电动牙刷) when the clause says it is a thing
    modifier = ("v", "vn", "a", "b") if in_use else ()
    if any(w != "的" and not (t.startswith(_NOUN_TAGS) or t in modifier) for w, t in words[:-1]):
        return None
    if words[-1][0] in _ASPECTS:  # 屏幕效果: a part judged, of nothing named
        return None
    if not in_use and not any(t.startswith(_NAMED_TAGS) for _, t in words):
        if not _A_PLACE.search(words[-1][0]) or any(w == "的" for w, _ in words):
            return None  # 荔枝公园, 万象城: a place named by its kind is named (参观的骨科医院 is no name)
    x = "".join(w for w, _ in words)
    if len(x) < 3 or re.match(r"^(?:今天|昨天|最近|现在|这里|那里)", x):
        return None
    return zh_things.thing_name(x)


def _an_aspect(said: str) -> bool:
    """Whether ``said`` opens with what a review judges of a thing (货品挺全的, 画质真好)."""
    if not said.startswith(_ASPECTS):  # most clauses: no tagging
        return False
    words = rules_zh.tag(said)
    return len(words) > 1 and words[0][0] in _ASPECTS and words[0][0] != "天气"


def _opinion(body: str, judged: bool = False) -> Found | None:
    """What the speaker thinks of a thing they name (the patterns above), the thing the memory's subject, so that
    what else was said of it (我用的手机是华为Mate60) is one step away: its name the nouns before the judgement, up
    to 这/那 (小米12这手机性能: 小米12) or the 的 after a thing named (OPPOReno7的设计). ``judged``: the clause is
    said to be a judgement (我觉得…), so a thing named and its part are enough (iPhone13的性能挺稳定的)."""
    its = _ITS.match(body)
    if its is not None and not judged and not (its.group("how") is None and _an_aspect(body[its.end() :])):
        its = None  # 大润发的货品挺全的: a part of it judged, so a judgement though no 真 says so
    m = _IN_USE.match(body) or _OPINION.match(body) or its
    if m is None or (m.re is _IN_USE and body[m.end("how") :].startswith(("也", "还", "都", "又"))):
        return None  # 智能系统用起来也很顺滑: a part of what the sentence spoke of, not a thing named
    words = list(rules_zh.tag(m.group("x")))
    cut = next((i for i, (w, _) in enumerate(words) if w.startswith(("这", "那"))), len(words))
    of = next((i for i, (w, _) in enumerate(words[:cut]) if w == "的"), cut)
    if of + 1 < cut and (
        words[of + 1][0] in _ASPECTS or (m.re is not _IN_USE and of + 2 == cut and len(words[of + 1][0]) <= 2)
    ):
        cut = of  # 小米电视4A的画质, 戴森吹风机的风力: the thing, then the part of it judged (耐克的跑鞋穿起来: the shoes)
    # 这台…, 我觉得…: the clause says it is a made thing judged
    in_use = m.re is _IN_USE or m.group("one") is not None or judged
    while cut > 1 and words[cut - 1][0] in _ASPECTS:  # 松下空气净化器效果: the purifier, its effect judged
        cut, in_use = cut - 1, True
    said = "".join(w for w, _ in words[:cut])
    x = _a_thing(words[:cut], in_use=in_use)
    if x is None and (that := zh_things.that_one(m.group("x"))) is not None:  # 欧莱雅的那个精油, 美的那款电饭煲
        maker = all(t.startswith(_NOUN_TAGS) or w == "的" for w, t in words[:cut])  # 但这款手机: no maker
        x = that if maker and all(t.startswith(_NOUN_TAGS) for _, t in rules_zh.tag(that[:2])) else None
        said = m.group("x")
    if x is None:
        return None
    topic = clean(body[m.start("x") + len(said) :].lstrip("的"), True, 30)  # 这手机性能真不错, 设计真的很简洁
    return Found("FACT", topic, None, 0.5, subject=x, kind="fact") if topic else None


# --- causal clauses -----------------------------------------------------------------------
_CAUSAL = [
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,]\s*(?:所以|因此|于是|才|就)(?P<b>.+)$"),
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,](?P<b>.+)$"),
    re.compile(r"^(?P<b>.+?)[，,]\s*是?因为(?P<a>.+)$"),
    re.compile(r"^(?P<b>.+?)(?:是|都是|就是)(?:因为|由于)(?P<a>.+)$"),
    re.compile(r"^(?P<a>.+?)[，,]?\s*(?:所以|因此|于是|导致|结果|害得|搞得|弄得|使得)(?P<b>.+)$"),
]

# After 我: a possessive or a kin word makes the clause about someone else (我的朋友…, 我妈妈…).
_NOT_ME = re.compile(rf"^(?:(?![和跟与同给对被把在向从])(?:(?![了过着])[^的，,]){{0,3}}的|家|们家|{ZH_ROLE_WORDS})")

# After 我: a guess, a wish or a thought (我可能…, 我想…, 我觉得…) states no fact.
_NOT_FACT = re.compile(rf"^(?:想|希望|相信|不知道|{rules_zh.GUESSES})")

# What someone else says, asks or thinks reports; it is not what they do. Nor is what they are
# or are not (是 / 不是: an identity the specific readings take; a negated one gives none).
_REPORTS = re.compile(
    r"^[也还都就又并]*(?:不是|是|说|问|告诉|跟我说|让我|叫我|要我|觉得|认为|以为|想|希望|好像|可能|应该|也许|不知道|知道)"
)

_OFTEN = re.compile(
    r"(?:每(?:天|日|晚|周|星期|个星期|个周末|个月|年|逢)(?:[一二三四五六日天末])?|天天|平时|平常|"
    r"(?:周末|晚上|早上|下班后|放学后)?(?:经常|常常|通常))"
    r"(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?(?:都|也|会)?"
)

_THOUGHT = re.compile(
    r"^[也还都就又]*(?:知道|认为|以为|相信|猜|觉得)(?:我|你|他|她|它|自己|大家|一切|事情|会|能|一定|肯定|应该)"
)

# what is left of a clause once its time is read when a birthday is its value (的生日是 of 我上司的生日是12月10号)
_DATED_ATTRIBUTE = re.compile(r"^的?(?:生日(?:是在|是|在|为)?|过生日是在?|是在?过生日)的?[。！!]?$")

_SPACE = re.compile(rf"(?<=[{HAN_CHARS}，,])\s+|\s+(?=[{HAN_CHARS}，,])")  # a space left where a time was


def _body(text: str, time_text: str | None) -> str:
    """A clause with its time taken out and its spaces set right."""
    body = text.replace(time_text, " ") if time_text else text
    return _SPACE.sub("", " ".join(body.split())).strip(" 。！？!?")


def _is_workplace(text: str) -> bool:
    """A workplace named whole: one word not a place (腾讯, 华为), or a phrase ending in a kind of
    workplace (一家创业公司, 市第一医院); not an errand (超市买菜)."""
    kind = re.search(rf"(?:{rules_zh.WORKPLACES}|学校|大学|中学|小学)$", text)
    return kind is not None or (len(rules_zh.tag(text)) == 1 and not zh_subjects.of_places(text))


# after a job said in the same sentence, the next one (以前在阿里工作，后来去了腾讯): a workplace named
# whole, not a place (后来去了日本) nor an errand (后来去了超市买菜). English says "then joined …"; its
# "then I moved to Google" is left as a move: without a list of places, a city and a company look alike.
_THEN_WENT = re.compile(
    r"^(?:后来|然后|之后|再后来)(?:又|就)?(?:去了|到了|进了|跳槽到了?|跳到了|换到了)(?P<obj>[^，,。！？]{2,12}?)(?:工作|上班)?了?$"
)

# 我将要参加的AI论坛，它的规模是六千人: a clause that names a thing by what the speaker does with it, then
# 它 for the thing: the sentence is read as 我将要参加AI论坛，AI论坛的规模是六千人
_IT_AFTER = re.compile(r"^(?P<head>我[^，,。！？；;的]+)的(?P<x>[^，,。！？；;的]{2,24})[，,]\s*它(?=的|是)")
_IS_AFTER = re.compile(
    r"^(?P<head>[^，,。！？；;我的]{0,4}我[^，,。！？；;的]+的[^，,。！？；;的]{1,24})[，,]\s*(?P<is>就是|是|叫做|名叫|叫)"
)


def _it_named(sentence: str) -> str:
    """The sentence with its 它 said as the thing the clause before named, and a thing named then 是 or 叫
    after a comma said as one clause (我住的那个小区，叫金色家园 as 我住的那个小区是金色家园); else the sentence."""
    if (named := _IS_AFTER.match(sentence)) is not None:
        said = "就是" if named.group("is") == "就是" else "是"  # 叫 names it as 是 does: no person named 金色家园
        return f"{named.group('head')}{said}{sentence[named.end() :]}"
    m = _IT_AFTER.match(sentence)
    if m is None:
        return sentence
    x = re.sub(_THIS, "", m.group("x"))
    return f"{m.group('head')}{m.group('x')}，{x}{sentence[m.end() :]}" if len(x) >= 2 else sentence


# commas and colons end a clause; a colon between digits is a time of day (9:00), not a break
_CLAUSE_BREAK = re.compile(r"[，,；;]|(?<!\d)[：:]|[：:](?!\d)")
# a comma between a birthday and its date parts no clauses (我的一个下属过生日，是6月8号的); as _IS_AFTER
_BIRTHDAY_IS = re.compile(r"生日[，,]\s*(?=是)")
# "that one" between the speaker and a role, or after a role, says nothing (我那个下属, 我下属的那个单位); 那位 ends
# the phrase (我手下的那位是…). Elsewhere it may say more (我这个爱登山的人; 欧莱雅的那个精油: read where things are).
_THAT_ONE_SAID = re.compile(
    rf"(?P<me>我的?)(?:那个|这个|那名)(?=(?:{ZH_ROLE_WORDS}))|(?P<role>(?:{ZH_ROLE_WORDS})的)(?:那个|这个|那家|这家|那名)"
    r"(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])的那位(?=是)"
)
# 我刚才路过了大润发 / 我刚刚去参观了海滨公园: a visit just now, dated by the turn (a bare 刚才 dates nothing: the
# time reader leaves "now" to the present tense, 我刚刚搬到上海 a move, not a visit; 我刚才路过的那个商场是… says
# which one, as it would without 刚才)
_JUST_WENT = re.compile(r"(?P<when>刚才|刚刚)(?=[^，,。！？]{0,8}?(?:路过|经过|参观|去了|逛了)(?!的))")


# A sentence that opens with these gives the effect of what the sentence before said.
_THEREFORE = re.compile(r"^(?:所以|因此|于是|结果|这就是为什么|这也是为什么)[，,]?\s*")


def generic_clauses(text: str, time_text: str | None, *, generic: bool) -> list[Found]:
    """A Chinese clause about the speaker as its predicate, kept whole: 失眠 / 去超市买了苹果;
    EVENT when timed. Outside a causal clause, each comma clause that opens with 我 (after
    lead-in words) is one; a clause about someone else (天气真好, 我妈妈…) is none."""
    if not generic and time_text and time_text + "的" in text:
        return []  # 秋天的叶子: a time word naming a thing, not when
    out = []
    for clause in [text] if generic else _CLAUSE_BREAK.split(text):
        body = _body(clause, time_text)
        body = body.strip(" ，,") if generic else zh_subjects.ZH_LEAD.sub("", body)
        stripped = _LEAD_ZH.sub("", body)
        if generic:
            other = bool((stripped != body and _NOT_ME.match(stripped)) or _THOUGHT.match(stripped))
        else:
            other = not body.startswith("我") or bool(_NOT_ME.match(stripped) or _NOT_FACT.match(stripped))
        topic = None if other else clean(stripped, True, 30)
        if topic:
            out.append(Found("EVENT" if time_text else "FACT", topic, None, 0.5))
    return out


class Chinese(Language):
    code, me, joiner = "zh", "我", ""
    keys = {"time": "时间", "how often": "频率"}
    causal, therefore, often, thought = _CAUSAL, _THEREFORE, _OFTEN, _THOUGHT

    # --- sentences and clauses
    plain = staticmethod(rules_zh.said_plainly)

    def clauses(self, reader: Reader, sentence: str) -> list[str | None]:
        """The people a sentence introduces (read whole), then its comma clauses, each dated by the
        sentence's time unless that time is to come and said in another clause."""
        sentence = _BIRTHDAY_IS.sub("生日", _THAT_ONE_SAID.sub(lambda m: m["me"] or m["role"] or "", sentence))
        sentence, met = zh_subjects.introduced(_it_named(sentence), reader.people, reader.owner)
        ids = [reader.add(f, None) for f in met]
        time_text = reader.rules._time(sentence, reader.ep) or ((just := _JUST_WENT.search(sentence)) and just["when"])
        if (
            time_text
            and time_text + "的" in sentence
            and not sentence.endswith((f"是{time_text}的", f"是{time_text}的。"))
        ):
            time_text = None  # 秋天的叶子: a time word naming a thing, not when (是8月5号的: when)
        carried = None
        worked: Found | None = None  # a job said earlier in the sentence
        for clause in _CLAUSE_BREAK.split(sentence):
            # the sentence's time dates each clause's event, but a time to come only the clause that
            # says it (我表妹下个月来看我，她还给我做了一个书架: the shelf is made already)
            reader._said_here = bool(time_text and time_text in clause)
            when = time_text if reader._said_here or not rules_zh.is_future(time_text) else None
            went = _THEN_WENT.match(clause.strip(" 。！？!?")) if worked is not None else None
            if went and worked is not None and _is_workplace(went["obj"]):
                found = [read_as("employer", "FACT", "入职", went["obj"], subject=worked.subject)]
            else:
                found, carried = reader._read(clause, when, carried)
            worked = next((f for f in found if f.kind == "work"), worked)
            ids.extend(reader.add(f, when) for f in found)
        reader._said_here = True
        return ids

    body = staticmethod(_body)

    def opening(
        self, reader: Reader, body: str, text: str, time_text: str | None, carried: Any
    ) -> tuple[str, str, list[Found], Found | None]:
        """A clause that names an attribute of someone (我的生日是三月五号) says only that; the people a
        Chinese sentence introduces were read for it whole, before its clauses."""
        said = rules_zh.attribute(body, carried) or _of_event(zh_subjects.ZH_LEAD.sub("", text))
        if said is None and time_text:  # 我的生日是三月五号: the value is the time itself
            said = rules_zh.attribute(_body(text, None), carried)
        if said is None and (mine := _MINE.match(body)):  # 我的iPhone13真心好用, 我觉得iPhone13的性能…: of the phone
            said = _opinion(body[mine.end() :], judged=mine["think"] is not None)
        return body, text, [], said

    def about_someone_named(self, clause: str) -> bool:
        """小明参加了比赛, Bart在期待…: a clause whose first word is a name (or a Latin word) is about that one."""
        words = rules_zh.tag(_LEAD_ZH.sub("", clause.strip(" ，,")))
        return bool(words) and words[0][1] in ("nr", "nrt", "nrfg", "eng")

    # --- whom a clause is about
    @staticmethod
    def subject_of(clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None:
        """As ``zh_subjects.subject_of``; and the speaker's own attribute (我的身高是…, 我的爱好是…) read as one of
        someone else's is (我表姐的身高是…), unless a reading of its own takes it (我的名字是…, 我的家乡是…)."""
        subj = zh_subjects.subject_of(clause, people, owner, carried)
        if subj is None or subj.name is not None or subj.of_role or not subj.rest.startswith("的"):
            return subj
        attribute = zh_subjects._ATTRIBUTE.match(subj.rest, 1)  # 的身高是…: what the speaker has (``of_role``)
        if attribute is None or attribute[0] == "生日" or rules_zh.predicates(subj.rest, False):
            return subj
        return zh_subjects._relative(replace(subj))

    role_of_someone = staticmethod(zh_subjects.role_of_someone)
    partner_ended = staticmethod(zh_subjects.partner_ended)
    stated_people = staticmethod(zh_subjects.stated_people)
    said_together = staticmethod(zh_subjects.said_together)
    said_mine = staticmethod(zh_subjects.said_mine)

    def implied_subject(self, reader: Reader, body: str, time_text: str | None):
        """上个月搬到上海了, 刚换了工作, 最近在学吉他: a Chinese sentence that opens with its predicate
        leaves 我 unsaid. The speaker, when a specific reading takes the predicate (a clause kept
        whole needs its subject said: 今天天气真好 is no one's; 就要开学了 says what is coming, not
        what the speaker means to do); else, a timed clause, 我们 when it says what we then did."""
        said = zh_subjects.ZH_LEAD.sub("", body)
        if not (re.match(r"^(?:就|快|马上)?(?:要|会|将)", said) or zh_subjects.CONNECTIVE_IS.match(said)):
            implied = zh_subjects.subject_of("我" + said, reader.people.copy(), reader.owner, None)
            if (
                implied is not None
                and implied.name is None
                and implied.relation is None
                and rules_zh.predicates(implied.rest, bool(time_text), time_text)
            ):
                return implied
        return zh_subjects.we_then(said, time_text) if time_text else None

    def without_subject(self, body: str, text: str, time_text: str | None, generic: bool) -> list[Found]:
        """小明是医生: what someone no one named is said to be; in a cause or an effect, the clause whole."""
        said = zh_subjects.ZH_LEAD.sub("", body)
        if (found := _x_is_y(said) or _opinion(said)) is not None:
            return [found]
        return generic_clauses(text, time_text, generic=True) if generic else []

    # --- what it says of them
    def predicates(self, rest: str, third: bool, time_text: str | None) -> list[Found]:
        return rules_zh.predicates(rest, bool(time_text), time_text)

    def attribute_of(self, what: str, rest: str, when: str | None = None) -> Found | None:
        return rules_zh.attribute(what + rest, None) or rules_zh.hometown(what + rest)

    def dated_attribute(self, rest: str) -> str | None:
        return "生日" if _DATED_ATTRIBUTE.match("".join(rest.split())) else None

    def otherwise(
        self, reader: Reader, body: str, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        """我把旧冰箱卖给了陈阿姨: what the speaker did with someone named, the person its object, so
        the memory and what is said of them later meet at one node."""
        if subj.name is not None or time_text or generic or not subj.rest:
            return []
        who = zh_subjects.person_in(subj.rest, reader.people)
        found = generic_clauses(text, None, generic=False) if who is not None else []
        if who is None or len(found) != 1 or who not in found[0].topic or found[0].topic.endswith(("吗", "吧")):
            return []
        topic = found[0].topic.replace(who, "", 1).strip(" ，,")  # never the whole topic: who is in it
        if not topic:
            return []
        reader.people.learn(who)
        return [Found("EVENT", topic, who, 0.5, kind="event")]

    def whole_clause(
        self, reader: Reader, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        if subj.name is None and not (time_text and re.match(r"^\s*在", subj.rest)):
            return generic_clauses(text, time_text, generic=generic)
        if time_text:
            if subj.name is not None and _REPORTS.match(subj.rest):
                return []  # 老马说明年…: what he says, not what he does
            event = rules_zh.event(subj.rest, time_text if reader._said_here else None)
            return [event] if event else []
        if _REPORTS.match(subj.rest) or (habit := rules_zh.event(subj.rest)) is None:  # untimed: never a plan
            return []
        habit.memory_type, habit.kind = "FACT", "fact"  # 他每天在公园打太极: what they do
        return [habit]


CHINESE = Chinese()
