"""Chinese clauses: whom a clause is about, and what it says of them.

A clause opens with its subject — 我, a person by name (小雯), by role (我表妹, 我的钢琴老师), by
pronoun (她 / 他) — or with none, when it goes on about the subject of the clause before
(我辞职了，下个月入职字节跳动). ``subject_of`` reads that opening (``people.People`` says whom a
role or a pronoun means); ``predicates`` reads what follows: where they live or moved to, where
they work or study (and quitting, changing jobs, graduating), what they like or no longer do, what
they have or bought, what they plan, and their name or what they are.

Function words carry the reading: 住在 / 搬到 / 在…工作 / 不再 / 打算 are a closed set, and what
stands between them is the open part (a place, a company, a thing). Where that open part ends
before an open-class word (在星巴克|见了小雯, 一辆|新自行车) the segmenter decides: ``rjieba``
(jieba's dictionary inside the package, loaded the first time Chinese text is read, about 0.3 s).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..lang import HAN_CHARS
from ..lexicon.roles import ZH_ROLE, ZH_ROLE_HEADS, ZH_ROLES, role_of
from .people import People, introduce
from .phrases import Found, clean

# What may stand before a clause's subject: interjections, discourse words, times said as words.
ZH_LEAD = re.compile(
    r"^(?:[，,、\s]|嗯|啊|哦|哈哈|哈|对了|其实|不过|而且|但是|可是|然后|后来|另外|还有|最近|刚才|"
    r"刚刚|终于|结果|总之|说真的|老实说|说实话|说实在的|坦白说|讲真|你知道吗|你知道|你猜怎么着|你猜|告诉你|跟你说|今天|昨天|"
    r"昨晚|前天|明天|周末|上周|这周|下周|早上|上午|中午|下午|晚上|早饭|午饭|晚饭|放学后|下班后|现在|"
    r"目前|如今|这些天|这阵子|最近几天|这次|这回"
    r"|[\u4e00-\u9fff]{1,6}?(?:以后|之后|后)(?=[，,]?我))+"  # 实习结束后我…: when, then the speaker
)
# Adverbs between a subject and its verb that change nothing the memory says.
_ADV = (
    r"(?:也|还|都|就|已经|终于|刚刚|刚|又|现在|目前|如今|一直|最近|真的|真|正在|正|总算|才|早就|这个月|今年|"
    r"平时|平常|平日|通常|一般|向来|总是|经常|常常)*"
)
_NAME = rf"[{HAN_CHARS}]{{2,3}}|[A-Z][a-z]+"
# What may follow a name: a verb of being, a place or time word, a particle, punctuation.
_NAME_FOLLOW = (
    r"(?=是|很|也|在|说|和|跟|喜欢|今天|昨天|明天|前天|上周|下周|上个月|下个月|去年|明年|最近|现在|去|来|要|会|刚|"
    r"已经|就|都|还|又|的|给|对|把|被|住|搬|从|下|上|开|买|养|有|打算|准备|不|没|，|,|。|！|？|!|\?|；|$|\s)"
)
_NOT_NAME = set("我你他她它这那谁哪啥每某该满")
_DEGREE = set("很太挺真超蛮特非好最更")  # degree words: what follows them says how, never who
_TITLES = frozenset("阿姨 老师 叔叔 先生 太太 女士 师傅 大爷 大妈 奶奶 爷爷 医生 姐姐 哥哥 教练 教授 律师 大夫".split())
_NOT_NAME_END = set("不没也都还又才就只并真很太挺再")  # 小明不是我的朋友: a negation, not a name
_PRONOUN = re.compile(r"^(她|他)(?!们)")
# A clause that only says what used to be, guesses, wishes or asks states no current fact.
_NOT_FACT = re.compile(
    r"^(?:以前|原来|曾经|过去|可能|也许|大概|应该|希望(?!能|可以|能够)|要是|如果|觉得|认为|以为|听说|猜|感觉|知道|记得|怎么|为什么)"
)
_JOB_END = "员|师|工|手|官|士|会计|记者|经理|主管|主编|编辑|老板|医生|司机|保安|保姆|厨子|律师|翻译|秘书|助理"
_ONE = re.compile(r"^(?:一)(?:个|辆|只|台|套|家|所|位|条|本|部|件|份|架|把|间|栋|幢|匹|头|盆|张)")
# 在考虑…, 在想…: thinking about it (a plan), not a place it is done at (在考虑回学校读书)
_NOT_THINKING = "(?!考虑|想|犹豫|打算|准备|计划|纠结|琢磨|找|寻找|物色)"  # 在找新工作: looking for one
_TRAIL = re.compile(r"(?:了|啦|呀|啊|呢|吧|哦|哈|去|来|住|上班|工作|读书|上学)+$")


@lru_cache(maxsize=4096)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """Words and their part-of-speech tags (jieba's set: n noun, ns place, nr person, v verb …)."""
    import rjieba  # loaded only when Chinese text is read

    return tuple(rjieba.tag(text))


_NOUNISH = ("n", "a", "b", "j", "eng", "x", "vn", "s", "f", "l", "m", "q", "k", "h")
_MORPHEME = ("g", "zg")  # a bound character the tagger could not place (灵缇犬 → 灵|缇|犬): part of the noun


# 我和男朋友分手了 / 我跟小李分手了 / 我们分手了 / 我离婚了: a breakup or a divorce of the speaker's
_PARTNER_ENDED = re.compile(
    r"^(?:我(?:和|跟|与)(?:我)?(?:的)?(?P<who>[\u4e00-\u9fffA-Za-z]{1,4}?)|我们|我)(?:已经|终于|刚|刚刚|上个月|去年|上周)*"
    r"(?P<what>分手|离婚|离了婚|分开)了?"
)


def partner_ended(text: str, people: People, owner: str) -> Found | None:
    """A breakup or a divorce of the speaker's: the partner said (a name, or the one known in the role
    said), or whoever it is when none is named, is no longer theirs."""
    m = _PARTNER_ENDED.match(text)
    if m is None:
        return None
    who = m.group("who")
    found = role_of(who) if who else None
    if found is not None:
        who = people.by_role(found[0], owner)
    topic = "离婚" if m.group("what").startswith("离") else "分手"
    return Found("FACT", topic, who, 0.7, kind="relation", slot="partner", ends=True)


def said_mine(rest: str, name: str, people: People, owner: str) -> Found | None:
    """(他)是我大学室友, said of someone named before: the speaker's, in that role."""
    m = re.match(rf"^(?:也)?是我(?:的|最好的)?(?P<role>[{HAN_CHARS}]{{1,6}})[。！!]?$", rest)
    role = m.group("role") if m else ""
    found = next((f for n in range(len(role)) if (f := role_of(role[n:]))), None)  # 大学室友: a 室友
    if found is None:
        return None
    people.learn(name, found[0], owner=owner)
    return Found("RELATION", found[0], name, 0.7, subject=None, kind="relation")


def is_workplace(text: str) -> bool:
    """A workplace named whole: one word not a place (腾讯, 华为), or a phrase ending in a kind of
    workplace (一家创业公司, 市第一医院); not an errand (超市买菜)."""
    if re.search(r"(?:公司|企业|外企|集团|银行|医院|学校|大学|中学|小学|工厂|厂|研究所|事务所|工作室)$", text):
        return True
    return len(tag(text)) == 1 and not is_place(text)


def is_place(text: str) -> bool:
    """A city, a province or a country (上海, 广东, 日本), not a workplace: the tagger's ``ns``."""
    words = tag(text)
    return len(words) == 1 and words[0][1] == "ns"


def noun_head(text: str) -> str | None:
    """The noun phrase a text opens with, up to the first verb, preposition or particle; a leading
    "one of" (一辆, 一个) dropped: 上海了 → 上海, 星巴克见了小雯 → 星巴克, 一辆新自行车 → 新自行车."""
    text = _ONE.sub("", text.strip(" ，,。！？!?"))
    if not text:
        return None
    out = []
    for i, (word, t) in enumerate(tag(text)):
        if (
            t.startswith("n")
            or t.startswith(_NOUNISH)
            and not (t == "x" and not word.isascii())
            or (t in _MORPHEME and len(word) == 1)
        ):
            out.append(word)
            continue
        if word == "的" and out and i + 1 < len(tag(text)):
            out.append(word)
            continue
        if t.startswith("v") and not out:  # 字节跳动, 攀岩: a verb-looking name said as an object
            out.append(word)
            continue
        break
    head = "".join(out).rstrip("的")
    head = _TRAIL.sub("", head) if len(head) > 1 else head
    return head or None


def _object(text: str) -> str | None:
    """An object: the clause's rest cleaned, cut to its noun phrase when a verb follows it."""
    rest = clean(_ONE.sub("", text), True, 40)
    if not rest:
        return None
    head = noun_head(rest)
    if head and len(head) < len(rest):
        return head
    return _TRAIL.sub("", rest) or rest


@dataclass
class Subject:
    """Whom a clause is about: ``name`` (None: the speaker), the text after it, and a relation
    the opening itself states (我表妹小雯 → 我 表妹 小雯)."""

    name: str | None
    rest: str
    relation: Found | None = None
    pronoun: str | None = None
    of_role: str | None = None  # the clause is about this relative of the subject's (老周的老伴, 他孙子)
    described: Found | None = None  # what the opening says they are (新来的同事Mia → Mia 是 新来的同事)
    together: Found | None = None  # a relative said with them: 小雯和她老公阿强 (小雯 · 老公 · 阿强)


# Roles that are a person's family or household: 老周的老伴, 他孙子 is about them.
_RELATIVES = sorted(
    (
        w
        for w, (c, _) in ZH_ROLES.items()
        if c not in {"同事", "老板", "同学", "导师", "师傅", "房东", "合伙人", "熟人"}
    ),
    key=len,
    reverse=True,
)
_RELATIVE = re.compile(rf"^(?:的)?(?P<role>{'|'.join(_RELATIVES)})")
# 那位退休老师, 那个爱尔兰同事: someone known by a role or by what they were said to be.
_THAT_ONE = re.compile(r"^(?:我)?(?:那位|那个|这位|这个|那名|那)(?=[\u4e00-\u9fffA-Za-z])")


def _relative(subj: Subject) -> Subject:
    """老周的老伴… / 他孙子… / 她的店…: the clause is about the subject's relative or a thing of
    theirs, kept as theirs (``of_role``)."""
    m = _RELATIVE.match(subj.rest)
    found = role_of(m.group("role")) if m else None
    if m and found and not subj.rest[m.end() :].startswith(("们", "的")):
        subj.rest, subj.of_role = subj.rest[m.end() :], found[0]
    elif subj.rest.startswith("的") and len(subj.rest) > 2:
        words = tag(subj.rest[1:])
        if len(words) > 1 and words[0][1].startswith("n") and not words[0][1].startswith("nr"):
            subj.rest, subj.of_role = subj.rest[1 + len(words[0][0]) :], words[0][0]
    return subj


def _named_relative(subj: Subject, people: People) -> Subject:
    """小琳的儿子乐乐… / 她老公阿强…: the relative named, known from now on as theirs (a relation of
    小琳's), and the clause about them; the subject as it was when no name follows the relative."""
    if subj.name is None or subj.of_role is None or role_of(subj.of_role) is None:
        return subj
    name, after = _name_after(subj.rest)
    if not name and len(subj.rest) > 3 and _addressed(subj.rest[:3], subj.rest):
        name, after = subj.rest[:3], subj.rest[3:]  # 我儿子的班主任王老师…: a surname and a title
    if not name or name in people.names.values():
        return subj
    people.learn_of(subj.name, name, subj.of_role, subj.of_role)
    relation = Found("RELATION", subj.of_role, name, 0.7, subject=subj.name, kind="relation")
    return Subject(name, after, relation)


def _that_one(text: str, people: People) -> Subject | None:
    """那位退休老师做了手术: the person known by the words after 那位 (the longest that fits)."""
    m = _THAT_ONE.match(text)
    if not m:
        return None
    after = text[m.end() :]
    for n in range(min(8, len(after) - 1), 1, -1):
        name = people.by_description(after[:n])
        if name is not None:
            people.mention(name)
            return Subject(name, after[n:])
    return None


# 我们房东, 我们家的阿姨, 咱家保姆: the household's role, which the speaker means as their own
_OURS = "我们家|我们|咱们家|咱们|咱家|我家"


# A role said without what it teaches or treats (妈妈, 女儿, 老师): the longest first.
_PLAIN_ROLE = "|".join(sorted(ZH_ROLES, key=len, reverse=True))


def subject_of(clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None:
    """The subject a clause opens with (lead words and times already out), or the carried one
    from the clause before when it opens with its predicate; None when it is about someone the
    reader cannot name (他 with no one named, 我们, 你)."""
    subj = _opening(clause, people, owner, carried)
    return _and_their(subj, people) if subj is not None and subj.name is not None else subj


_AND_THEIR = re.compile(r"^(?:和|跟|带着)(?:她|他)(?:的)?")  # 小雯和她老公阿强来了: a relative said with them
# what two people do to each other: the one after 和 is its other party (和他女朋友分手了)
_WITH_EACH_OTHER = re.compile(
    r"^(?:又|已经|终于|刚|昨天|上周|上个月)*(?:分手|吵架|吵了|离婚|离了婚|闹翻|闹掰|和好|打架|分开|结婚|订婚|冷战)"
)


def _and_their(subj: Subject, people: People) -> Subject:
    """小雯和她老公阿强来我家吃饭了: 阿强 is 小雯's 老公 from now on, and the clause is about 小雯
    (with him); 和她老公 unnamed is only left out of the clause."""
    m = _AND_THEIR.match(subj.rest)
    role = _RELATIVE.match(subj.rest[m.end() :]) if m else None
    found = role_of(role.group("role")) if role else None
    if m is None or role is None or found is None:
        return subj
    after = subj.rest[m.end() + role.end() :]
    name, rest = _name_after(after)
    if _WITH_EACH_OTHER.match(rest if name else after):
        return subj  # 王磊和他女朋友分手了: whom the breakup was with, not who came along
    if name and name not in people.names.values():
        people.learn_of(subj.name or "", name, found[0], found[0])
        subj.together = Found("RELATION", found[0], name, 0.7, subject=subj.name, kind="relation")
        people.mention(subj.name or "")  # the clause is still about them
        after = rest
    subj.rest = after
    return subj


def _opening(clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None:
    text = ZH_LEAD.sub("", clause).strip()
    m = re.match(rf"^(?P<name>{_NAME})是我(?:的|最好的)?(?P<role>{ZH_ROLE})(?:$|[了啊呀吧。！!，,])", text)
    if (
        m
        and m.group("name")[0] not in _NOT_NAME
        and m.group("name")[-1] not in _NOT_NAME_END
        and (found := role_of(m.group("role")))
    ):
        name, role = m.group("name"), found[0]
        people.learn(name, role, owner=owner)
        return Subject(name, "", _relation(role, name))
    m = re.match(rf"^(?P<desc>[{HAN_CHARS}]{{1,8}}?的)(?P<role>{_KNOWN_ROLE})", text)
    found = (
        role_of(m.group("role"))
        if m and not m.group("desc").startswith(("我", "你", "他", "她")) and not people.knows(m.group("desc")[:-1])
        else None
    )  # 小琳的儿子乐乐: 小琳's son (read below), not the speaker's
    name, rest = _name_after(text[m.end() :]) if m and found else (None, text)
    if m and found and name:  # 新来的同事Mia是做数据分析的: who they are, which one, their name
        relation, described = introduce(people, name, found[0], m.group("desc") + m.group("role"), owner, "是")
        return Subject(name, rest, relation, described=described)
    m = re.match(rf"^(?:{_OURS}|我)?(?:的)?(?P<role>{ZH_ROLE})", text)
    if m and not _what_they_do(m.group("role")):  # 我妈妈是医生: the role is 妈妈, 医生 is what she is
        m = re.match(rf"^(?:{_OURS}|我)?(?:的)?(?P<role>{_PLAIN_ROLE})", text)
    found = role_of(m.group("role")) if m and _what_they_do(m.group("role")) else None
    mods = ""
    if not (m and found) and text.startswith("我"):  # 我的新上司, 我大学室友: which one, then the role
        m = re.match(rf"^我(?:的)?(?P<mods>[{HAN_CHARS}]{{1,4}}?)(?P<role>{ZH_ROLE})", text)
        found = role_of(m.group("role")) if m and _what_they_do(m.group("role")) else None
        mods = m.group("mods") if m and found and _modifier(m.group("mods")) else ""
        m = m if mods else None
    # a role said bare (房东上周来修了热水器) is the speaker's own when a family role or the boss, or
    # when the speaker named someone in that role before
    bare = m and found and (m.group("role") in _BARE_ROLES or people.by_role(found[0], owner) is not None)
    if m and found and (text.startswith("我") or bare):
        role = found[0]
        after = text[m.end() :]
        name, rest = _name_after(after)
        if name:
            people.learn(name, role, owner=owner)
            if mods:
                people.describe(name, mods + m.group("role"))
            return Subject(name, rest, _relation(role, name))
        known = people.by_role(role, owner) or people.by_description(mods + m.group("role"))
        if mods and not known:
            return None  # 我的新同事: not necessarily the one named before
        if not known:
            known = text[: m.end()] if text.startswith("我") else "我" + text[: m.end()]
            people.learn(known, gender=found[1])  # 我姥姥: someone a pronoun may mean
        people.mention(known)
        if after.startswith("的"):  # 我儿子的班主任王老师…: their relative, named or not
            return _named_relative(_relative(Subject(known, after)), people)
        return Subject(known, after)
    together = people.by_they() if text.startswith(("他们", "她们")) else None
    if together:  # 我爸妈上周来了。他们带了很多菜: the ones spoken of together
        people.mention(together)
        return Subject(together, text[2:], pronoun=text[:2])
    m = _PRONOUN.match(text)
    if m:
        name = people.by_pronoun(m.group(1))
        if name is None:
            return None
        people.settle(name, m.group(1))
        return _named_relative(_relative(Subject(name, text[m.end() :], pronoun=m.group(1))), people)
    for key in sorted(people.names, key=len, reverse=True):
        said = people.names[key]
        if text.startswith(said) and said not in ("我",):
            people.mention(said)
            subj = Subject(said, text[len(said) :])
            return _named_relative(_relative(subj), people) if subj.rest.startswith("的") else subj
    that = _that_one(text, people)
    if that is not None:
        return that
    m = re.match(rf"^(?P<name>[{HAN_CHARS}]{{3}}|[小老阿][{HAN_CHARS}])(?=[^的们])", text)
    if m and _addressed(m.group("name"), text):  # 陈阿姨开了…, 老何说…: someone named the way one calls them
        people.learn(m.group("name"))
        return _relative(Subject(m.group("name"), text[m.end() :]))
    we = _WE_AT_HOME.match(text)
    if we:  # 我们搬到上海了 / 我家养了一只猫: where the speaker lives and what they keep, said for the household
        return Subject(None, text[we.end() :])
    with_them = _with_them(text, people, owner)
    if with_them is not None:
        return with_them
    if text.startswith("我") and not text.startswith("我们"):
        return Subject(None, text[1:])
    if text.startswith(("我们", "你", "您", "大家", "咱们", "他们", "她们", "它")):
        return None
    if carried is not None and _PREDICATE_START.match(text):
        return Subject(carried.name, text)
    return None


_ME_AND = re.compile(rf"^我(?:和|跟|与)(?:我)?(?:的)?(?P<role>{_PLAIN_ROLE})?")


def _with_them(text: str, people: People, owner: str) -> Subject | None:
    """我和老公刚在成都买了房 / 我跟小静去看了电影: what the speaker did with someone, the speaker's
    (as "My husband and I …" is); None when it is what the two did to each other (我跟老公吵架了)
    or no one follows."""
    m = _ME_AND.match(text)
    if m is None:
        return None
    name, rest = (None, text[m.end() :]) if m.group("role") else _name_after(text[m.end() :])
    if (m.group("role") is None and name is None) or _WITH_EACH_OTHER.match(rest.lstrip("一起")):
        return None
    found = role_of(m.group("role")) if m.group("role") else None
    if found and not people.by_role(found[0], owner):
        people.learn("我" + m.group("role"), gender=found[1])  # 我和老公…。他… : someone a pronoun may mean
    return Subject(None, rest)


# 我们 / 我们家 / 咱们 before a move, a home, a pet, a purchase or a plan: the household, so the
# speaker too (我们公司…, 我们在讨论… stay no one's: "we" at work is not the speaker's own fact).
_WE_AT_HOME = re.compile(
    r"^(?:(?:我们|咱们)(?:家|俩|一家|全家)?(?:刚刚|刚|已经|最近|终于|也|还)*"
    r"(?=搬|住在|住|养了|领养了|买了|打算|准备|计划|在考虑|考虑|想(?:搬|养|买|去)"
    r"|在[^，,。！？]{1,12}?(?:住|生活|定居|安家|买了房))"
    r"|(?:我们家|咱们家|咱家|我家)(?=有|养))"
)


# 昨晚我们在…吃了饭: "we" at a time said, a thing the speaker did with others (我们公司…, 我们老板… are
# not the speaker)
_ZH_WE_THEN = re.compile(
    r"^(?:我们|咱们)(?:俩|一家|全家|几个)?(?!公司|单位|学校|部门|团队|小组|组|班|老板|领导|经理|这|那|的)"
)


def we_then(body: str, time_text: str) -> Subject | None:
    if not re.search(r"[0-9昨今明上下去前后刚]", time_text):  # 周末我们一起打球: a habit, not an event
        return None
    said = ZH_LEAD.sub("", body)
    m = _ZH_WE_THEN.match(said)
    rest = said[m.end() :].strip(" 。！!") if m else ""
    if len(rest) < 3 or re.match(r"^(?:再)?(?:见|聊|走|说|谈|看看|一起吧)", rest):  # 我们明天见: a goodbye
        return None
    return Subject(None, rest)


# Roles said without 我 that still mean the speaker's (妈妈说…, 老板今天…): kin and the boss.
_KNOWN_ROLE = "|".join(sorted(ZH_ROLES, key=len, reverse=True))  # a role word of the closed list
_BARE_ROLES = frozenset("妈妈 老妈 爸爸 老爸 老婆 老公 老板 女朋友 男朋友 爷爷 奶奶 外婆 外公 儿子 女儿 闺女".split())
_PREDICATE_START = re.compile(
    rf"^{_ADV}(?:住|搬|在|入职|加入|跳槽|辞职|离职|辞了|换了|去|考上|毕业|从|买|养|有|打算|准备|计划|决定|不再|喜欢|爱|讨厌|是|当|做"
    r"|[\d一二两三四五六七八九十百]{1,4}周?岁)"
)


def _what_they_do(role: str) -> bool:
    """Whether what stands before a role head says what they teach or treat (钢琴老师, 牙科医生),
    not a preposition or a verb of the clause (我给李老师…, 我问张医生…)."""
    head = next((h for h in ZH_ROLE_HEADS if role.endswith(h)), None)
    if head is None or role in ZH_ROLES or len(role) == len(head):
        return True
    return _modifier(role[: -len(head)])


def _modifier(words: str) -> bool:
    """Whether words before a role say which one (新, 大学, 爱尔兰) rather than act (想, 给, 和)."""
    tags = tag(words)
    return (
        bool(tags)
        and words[0] not in "和跟与给对把被在从向想要说问找请"
        and "是" not in words  # 爸是医生: he is one, not which one
        and all(
            t.startswith(("n", "a", "b", "s", "f", "j", "t")) or t in ("vn", "eng") or (len(w) > 1 and t == "v")
            for w, t in tags
        )
    )


def _name_after(text: str) -> tuple[str | None, str]:
    """A name right after a role (小雯 in 我表妹小雯是木匠 / 我女朋友叫林静), and the text after it."""
    m = re.match(rf"^(?:是|叫|名叫|，|,)?(?P<name>{_NAME})", text)
    if not m or text.startswith("姓"):  # 姓王: a surname, said of them (see _RULES)
        return None, text
    name = m.group("name")
    cands = [name] if name.isascii() else [name[:3], name[:2]] if len(name) == 3 else [name]
    for cand in cands:
        after = text[m.start("name") + len(cand) :]
        if cand[0] in _NOT_NAME or (role_of(cand) and not _called(cand, after)) or _PREDICATE_START.match(cand):
            continue
        if cand[0] in _DEGREE:  # 我女儿很可爱: how she is, not a name
            continue
        if len(cand) == 3 and cand[0] == cand[1]:  # 贝贝来我家: a doubled name (贝贝, 朵朵) is two characters
            return cand[:2], cand[2] + after
        if len(cand) == 2 and cand[0] == cand[1] and text.startswith(("叫", "名叫")):
            return cand, after  # 我女儿叫朵朵: a doubled name the tagger reads as a measure word
        if len(cand) == 3 and _PREDICATE_START.match(cand[2] + after):
            return cand[:2], cand[2] + after  # 晓晓搬到广州: the name is 晓晓, 搬到 the predicate
        if text.startswith("是") and not (cand.isascii() or _tagged_name(text[1:], cand) or _called(cand, after)):
            continue  # 我的朋友是医生: what they are, not who
        if not _one_word(text.lstrip("是叫名，,"), cand):
            continue
        if re.match(_NAME_FOLLOW, after) or _tagged_name(text.lstrip("是叫名，,"), cand):
            return cand, after
    return None, text


def _addressed(cand: str, text: str) -> bool:
    """A surname and a title (陈阿姨, 李老师) or a nickname (老何, 小敏) the tagger reads as a name."""
    if len(cand) == 3:
        return cand[1:] in _TITLES and cand[0] not in _NOT_NAME and not role_of(cand[:1])
    words = tag(text)
    return bool(words) and words[0][0] == cand and words[0][1] == "nr"


def _called(cand: str, after: str) -> bool:
    """A name the way one calls someone, the clause ending after it: 老马, 小吴, 陈医生, 张教练."""
    if after.strip("。！!，,了啊") != "":
        return False
    nickname = len(cand) == 2 and cand[0] in "小老阿" and role_of(cand) is None  # 老师, 老公, 阿姨: roles
    return nickname or (len(cand) == 3 and cand[1:] in _TITLES)


def _one_word(text: str, cand: str) -> bool:
    """Whether a name candidate reads as one word of its own here and not as a verb or a function
    word (结婚, 要去维); a nickname (小刘, 老王, 阿杰) always does."""
    if len(cand) == 2 and cand[0] in "小老阿":
        return True
    if len(cand) == 3 and cand[1:] in _TITLES:  # 陈阿姨, 李老师: a surname and how one addresses them
        return True
    words = tag(text)
    return (
        bool(words)
        and words[0][0] == cand
        and not words[0][1].startswith(("v", "d", "p", "c", "u", "r", "m", "q", "t", "f", "a"))
    )


def _tagged_name(text: str, cand: str) -> bool:
    words = tag(text)
    return bool(words) and words[0][0] == cand and words[0][1].startswith("nr")


def _relation(role: str, name: str) -> Found:
    return Found("RELATION", role, name, 0.7, kind="relation")


# --- predicates ----------------------------------------------------------------------------
# 从2019年起 / 去年开始 (the time read out before) / 从小 / 从去年开始: since when what follows has held
_SINCE = re.compile(
    r"^(?:[从自](?P<when>[^，,。！？在住]{0,8}?))?(?:起|开始|以来)(?:就|一直|便|都)*|^从小(?:就|一直|便|都)*"
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
    past = _PAST_WORK.match(p)
    if past:
        return _worked_at(past)
    if home := _PAST_HOME.match(p):
        return _lived_before(home)
    span = _WORK_SPAN.match(p)
    if span and (span.group("now") or span.group("done")):
        return _work_span(span)
    if not p or _NOT_FACT.match(p):
        return []
    for pattern, make in _RULES:
        m = pattern.match(p)
        if m:
            found = make(m, timed)
            if found:
                return found
    return []


def _slot(topic: str, kind: str, slot: str | None, ends: bool = False, memory_type: str = "FACT") -> Callable:
    def make(m: re.Match, timed: bool) -> list[Found]:
        obj = m.groupdict().get("obj")
        obj = _object(obj) if obj else None
        if obj is None and not ends:
            return []
        if obj and (obj[0] in _NOT_NAME or obj in ("哪", "哪里", "哪儿")):
            return []
        mtype = "EVENT" if timed and memory_type == "FACT" and (ends or topic in _CHANGES) else memory_type
        return [Found(mtype, topic, obj, 0.7 if slot else 0.5, kind=kind, slot=slot, ends=ends)]

    return make


_CHANGES = {"搬到", "入职", "考上", "换工作", "辞职", "毕业于", "不再住在", "转学", "转学到"}


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


def _allergic(m: re.Match) -> list[Found]:
    """对花生过敏 → 过敏 花生; 不过敏 and 有点过敏 (no what) state nothing."""
    obj = None if m.group("neg") else _object(m.group("obj"))
    if not obj or re.fullmatch(r"(?:有点|有些|很|特别|严重|非常|比较|容易|经常|也|又|还|都)+", obj):
        return []
    return [Found("FACT", "过敏", obj, 0.8, kind="fact")]


def _learning(m: re.Match) -> list[Found]:
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


def _practised(m: re.Match) -> list[Found]:
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


def _lived_span(m: re.Match) -> list[Found]:
    obj = _object(m.group("obj"))
    if not obj or obj[0] in _NOT_NAME:
        return []
    return [Found("FACT", "住在", obj, 0.7, {"时长": m.group("time")}, kind="residence", slot="residence")]


def _plays(m: re.Match) -> list[Found]:
    verb, obj = m.group("verb") or m.group("verb2"), m.group("obj") or m.group("obj2")
    if obj[0] in _NOT_NAME or obj[0] in "了过着得完好":
        return []
    return [Found("FACT", ("会" if m.group("can") else "") + verb, obj, 0.6, kind="fact")]


def _teaches(m: re.Match) -> list[Found]:
    """在中学教数学 → 工作于 中学, 教 数学; 教书 is the job, not a subject."""
    what = m.group("what")
    found = (
        []
        if what in ("书", "学") or what[0] in _NOT_NAME or what[0] in "了过着得"
        else [Found("FACT", "教", what, 0.6, kind="fact")]
    )
    place = _organisation(m.group("obj")) if m.groupdict().get("obj") else None
    if place:
        found.append(Found("FACT", "工作于", place, 0.7, kind="work", slot="employer"))
    return found


def _lived_before(m: re.Match) -> list[Found]:
    obj = _object(m.group("obj") or m.groupdict().get("obj2") or "")
    span = m.group("time") or ""
    if not obj or obj[0] in _NOT_NAME or span.endswith(("天", "周")) or re.search(_STAY, obj):
        return []  # 在酒店住了两天: a stay, not a home
    attributes = {"时长": span} if span else None
    return [Found("FACT", "曾住在", obj, 0.6, attributes, kind="residence")]


def _work_place(m: re.Match, timed: bool) -> list[Found]:
    obj = _organisation(m.group("obj"))
    if not obj:
        return []
    out = [Found("FACT", "工作于", obj, 0.7, kind="work", slot="employer")]
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
    return [Found("FACT", "就读于", obj, 0.7, kind="school", slot="school")]


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


_MEAT = {"肉", "荤", "荤菜", "肉食", "大鱼大肉"}
# A habit verb and the one character after it that make one word for the activity itself.
_ACTIVITIES = {"跑步", "唱歌", "逛街", "做饭", "做菜", "打牌", "打球", "玩牌", "看戏"}


def _diet(m: re.Match, timed: bool) -> list[Found]:
    """吃素 / 是素食者 / 吃肉: what someone eats, a slot (a newer diet replaces the older)."""
    meat = m.group("meat")
    obj = "肉" if meat else "素"
    changed = bool(m.group("change") or m.group("change2"))
    return [Found("EVENT" if timed and changed else "FACT", "吃", obj, 0.7, kind="fact", slot="diet")]


def _favourite(m: re.Match) -> list[Found]:
    what, obj = clean(m.group("what"), True, 20), clean(m.group("obj"), True, 30)
    return [Found("OPINION", f"最喜欢的{what}", obj, 0.6, kind="preference")] if what and obj else []


def _stopped(m: re.Match, timed: bool) -> list[Found]:
    obj = clean(m.group("obj"), True, 30)
    if not obj or obj[0] in _NOT_NAME:
        return []
    verb = m.group("verb")
    return [Found("OPINION", "不再" + verb, obj, 0.6, kind="preference")]


def _quit_habit(m: re.Match, timed: bool) -> list[Found]:
    obj = clean(m.group("obj"), True, 20)
    return [Found("OPINION", "戒了", obj, 0.6, kind="preference")] if obj else []


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
    return [Found(mtype, topic, obj, 0.5, kind="possession")]


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
    return [Found("EVENT" if timed else "FACT", topic, what, 0.6, kind="plan")]


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
_WORK_SPAN = re.compile(
    rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职|打工|干)(?P<done>了)?(?P<time>{_SPAN})(?P<now>了)?$"
)
_RULES: list[tuple[re.Pattern, Callable]] = [
    # changes of residence and of work or school: the slot they set
    (
        re.compile(rf"^(?:搬到|搬去|搬家到|搬回到|搬回|搬进了|搬进|搬来)了?(?P<obj>{_P}+)"),
        _slot("搬到", "residence", "residence"),
    ),
    (re.compile(rf"^(?:不再|不)住在(?P<obj>{_P}+?)(?:了)?$"), _slot("不再住在", "residence", "residence", ends=True)),
    # 搬出了那套公寓 / 搬离北京: the home left (a "that one" is no name: the home ends all the same)
    (
        re.compile(
            rf"^(?:搬出去了?|搬出了?|搬离了?)(?:(?:那|这)(?:套|个|间|栋)?)?"
            rf"(?:(?:公寓|房子|出租屋|宿舍|家)(?:了)?$|(?P<obj>{_P}*?)(?:了)?$)"  # the home itself: whichever it is
        ),
        _slot("不再住在", "residence", "residence", ends=True),
    ),
    (
        re.compile(rf"^(?:住在|家在|居住在|生活在|定居在|定居于|定居)(?P<obj>{_P}+)"),
        _slot("住在", "residence", "residence"),
    ),
    (
        re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活|定居|安家)(?:了|着|下来了?)?$"),
        _slot("住在", "residence", "residence"),
    ),
    # 在北京住了五年了 (了 at the end: up to now): where someone lives, for that long
    (
        re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活)了?(?P<time>{_SPAN})了$"),
        lambda m, t: _lived_span(m),
    ),
    # 住上海 / 住上海五年了: 住 with no 在 (住院, 住校, 住酒店 are no home)
    (re.compile(rf"^住(?!{_NO_HOME})(?P<obj>{_P}{{2,12}}?)(?P<time>{_SPAN})了$"), lambda m, t: _lived_span(m)),
    (re.compile(rf"^住(?!{_NO_HOME})(?P<obj>{_P}{{2,12}}?)$"), _slot("住在", "residence", "residence")),
    # 在北京住了五年 / 在北京住过 / 以前住在北京: a home before (no 了 at the end: the span ended),
    # which sets no slot: where someone lives now is said otherwise
    (
        re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活|待)(?:过|了)(?P<time>{_SPAN})?$"),
        lambda m, t: _lived_before(m),
    ),
    (
        re.compile(rf"^(?:入职了?|加入了?|跳槽到了?|跳槽去了?|进了|去了?)(?P<obj>{_P}+?)(?:上班|工作)?(?:了)?$"),
        lambda m, t: (
            _slot("入职", "work", "employer")(m, t)
            if m.group(0).startswith(("入职", "加入", "跳槽", "进了"))
            or m.group(0).endswith(("上班", "上班了", "工作了"))
            else []
        ),
    ),
    (re.compile(r"^(?:换了?(?:一份|个|份)?(?:新)?工作|跳槽了)"), _slot("换工作", "work", "employer", ends=True)),
    # 开始在谷歌工作了: a new employer (with a time, 去年开始在…, since then: see _SINCE)
    (re.compile(rf"^开始在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职)了?$"), _slot("入职", "work", "employer")),
    (re.compile(rf"^从(?P<obj>{_P}+?)(?:辞职|离职)了?"), _slot("辞职", "work", "employer", ends=True)),
    (
        re.compile(r"^(?:辞职|离职|辞了职|辞掉了?工作|被裁员|被裁|被解雇|被开除|退休)了?"),
        _slot("辞职", "work", "employer", ends=True),
    ),
    (re.compile(rf"^(?:考上了?|考进了?|被(?P<by>{_P}+?)录取)(?P<obj>{_P}*)"), lambda m, t: _admitted(m, t)),
    (re.compile(rf"^(?:从)?(?P<obj>{_P}+?)毕业了?"), _slot("毕业于", "school", "school", ends=True)),
    (re.compile(rf"^毕业于(?P<obj>{_P}+?)(?:了)?$"), _slot("毕业于", "school", "school", ends=True)),
    (re.compile(rf"^(?:转学|转校)(?:到|去)了?(?P<obj>{_P}+?)(?:了)?$"), _slot("转学到", "school", "school")),
    # what they eat
    (
        re.compile(
            r"^(?P<change>(?:从)?(?:开始|改|改成|改为|转为|决定)?)(?:吃素|吃斋|吃全素|吃纯素|(?:是|成了|当了?)(?:一[个名位])?素食(?:者|主义者))"
            r"|^(?P<change2>(?:从)?(?:开始|又|重新)?)(?P<meat>吃肉|吃荤|是肉食(?:动物|主义者)|无肉不欢)"
        ),
        lambda m, t: _diet(m, t),
    ),
    # 跟小李结婚了 / 和王芳结婚三年了 / 嫁给了小李: whom they are married to
    (
        re.compile(
            rf"^(?:(?:跟|和|与)(?P<obj>{_NAME})(?:结婚|结了婚)|(?:嫁给了?|娶了)(?P<obj2>{_NAME}))(?:了|{_SPAN}了?)?$"
        ),
        lambda m, t: [Found("RELATION", "配偶", m.group("obj") or m.group("obj2"), 0.7, kind="relation")],
    ),
    # 出生在山东 / 是在青岛出生的: where someone was born
    (
        re.compile(
            rf"^(?:出生在|出生于|生在|出生在了)(?P<obj>{_P}{{1,12}}?)(?:的)?$|^(?:是)?在(?P<obj2>{_P}{{1,12}}?)出生的?$"
        ),
        lambda m, t: (
            [Found("FACT", "出生于", o, 0.6, kind="fact")]
            if (o := clean(m.group("obj") or m.group("obj2"), True, 20)) and o[0] not in _NOT_NAME
            else []
        ),
    ),
    # 结婚了 / 结婚三年了: married, to someone not named
    (
        re.compile(rf"^(?:已经)?(?:结婚|结了婚)(?:了|{_SPAN}了)$"),
        lambda m, t: [Found("EVENT" if t else "FACT", "结婚", None, 0.6)],
    ),
    # 在医院找了份新工作 / 找到了工作: a new employer (where it is said), else a job changed
    (
        re.compile(rf"^(?:在(?P<obj>{_P}{{1,20}}?))?(?:找到|找)了?(?:一)?(?:份)?(?:新)?(?:的)?工作(?:了)?$"),
        lambda m, t: (
            _slot("入职", "work", "employer")(m, t)
            if m.group("obj") and not is_place(m.group("obj"))
            else [
                Found(
                    "EVENT" if t else "FACT",
                    "换工作",
                    None,
                    0.7,
                    {"地点": m.group("obj")},
                    kind="work",
                    slot="employer",
                    ends=True,
                )
            ]
            if m.group("obj")  # 在上海找到了工作: a job found in a city, its employer not said
            else _slot("换工作", "work", "employer", ends=True)(m, t)
        ),
    ),
    # where they work or study now
    (
        re.compile(
            rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:读书|上学|念书|读大学|读研究生|读研|读博士|读博|读高中|读初中|读小学|留学|读)(?P<what>{_P}*)"
        ),
        _school,
    ),
    (re.compile(rf"^是(?P<obj>{_P}{{1,20}}?)的学生"), _school),
    (re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职|实习|打工)"), _work_place),
    (re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)当(?P<job>{_P}{{1,12}})$"), _work_place),
    # 在银行做柜员 / 在公司干会计: 做 and 干 name a job only when what follows is one (员, 师, 会计 ...),
    # or when where it is done is a workplace by name (在一家游戏公司做策划)
    (
        re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:做|干)(?P<job>{_P}{{0,10}}(?:{_JOB_END}))$"),
        _work_place,
    ),
    (
        re.compile(
            rf"^在{_NOT_THINKING}(?P<obj>{_P}{{0,16}}?(?:公司|企业|银行|医院|工厂|厂|事务所|工作室|研究所|集团|机构|出版社|报社|杂志社))"
            rf"(?:做|干|当|负责)(?![了过完个])(?P<job>[^，,。！？；;!?\n了过]{{2,8}})$"  # 做了个手术 is no job
        ),
        _work_place,
    ),
    # 从腾讯跳槽到字节: the employer now (the one left is said with it)
    (
        re.compile(rf"^从(?P<old>{_P}{{1,12}}?)(?:跳槽|换)(?:到|去)了?(?P<obj>{_P}{{1,16}}?)(?:上班|工作)?(?:了)?$"),
        _slot("入职", "work", "employer"),
    ),
    (re.compile(rf"^(?:就职于|供职于|任职于|受雇于)(?P<obj>{_P}+)"), _slot("工作于", "work", "employer")),
    (re.compile(rf"^(?:的)?(?:工作|职业)是(?P<obj>{_P}+)"), _slot("职业是", "work", "job")),
    # 升职为 / 被提拔为 X: the job now, which replaces the one before
    (
        re.compile(rf"^(?:升职为|升职成了?|升为|升任|晋升为|被提拔为|提拔为)(?P<obj>{_P}+?)(?:了)?$"),
        _slot("职业是", "work", "job"),
    ),
    # 对花生过敏 / 花生过敏: what they are allergic to, a fact about their health; 不过敏 states nothing
    (
        re.compile(rf"^(?:对)?(?P<obj>{_P}{{1,12}}?)(?P<neg>不|没有|并不)?(?:有点|有些|很|特别|严重)?过敏(?:了)?$"),
        lambda m, t: _allergic(m),
    ),
    # likes, dislikes and what is no longer done
    (re.compile(rf"^最(?:喜欢|爱)的(?P<what>{_P}{{1,10}}?)(?:是|就是)(?P<obj>{_P}+)"), lambda m, t: _favourite(m)),
    (
        re.compile(
            rf"^(?P<neg>不再|再也不|一点也不|一点都不|并不|从来不|从不|不太|不怎么|不是很|不是特别)?"
            rf"(?:也|还是|还|真的|真|很|非常|特别|最|更|超|超级|挺|蛮|一直|比较|都|就|好)*"
            rf"(?P<verb>不喜欢|喜欢|喜爱|讨厌|热爱|不爱|迷上了|爱上了|爱|恨|受不了|害怕|怕)(?P<habit>{_HABIT})?(?P<obj>{_P}+)"
        ),
        _preference,
    ),
    (re.compile(rf"^(?:不再|再也不|已经不|早就不)(?P<verb>{_HABIT}|去|用|开|住)(?P<obj>{_P}+?)(?:了)?$"), _stopped),
    (re.compile(rf"^(?:不再|再也不)(?P<verb>)(?P<obj>{_P}+?)(?:了)?$"), _stopped),
    (re.compile(rf"^不(?P<verb>{_HABIT})(?P<obj>{_P}+?)了$"), _stopped),
    (re.compile(rf"^戒了?(?P<obj>{_P}+?)(?:了)?$"), _quit_habit),
    # 不吃猪肉 / 从来不喝酒: a food or drink kept off (不吃早饭, 不吃了 say how much or when, not what)
    (
        re.compile(
            rf"^(?:从来|从|一直|平时|基本)?不(?P<verb>吃|喝)(?!早饭|午饭|晚饭|饭|东西|太多|多|了)(?P<obj>{_P}{{1,6}})$"
        ),
        lambda m, t: (
            [Found("OPINION", "不" + m.group("verb"), o, 0.6, kind="preference")]
            if (o := clean(m.group("obj"), True, 12)) and o[0] not in _NOT_NAME
            else []
        ),
    ),
    # 在学吉他 / 学西班牙语半年了 / 在准备考研: what they are learning or preparing for now (在学校 is a place)
    (
        re.compile(
            rf"^(?:正在|一直在|在|开始)?(?P<verb>学习|练习|学|练|准备)(?!校|院|生|堂|期|习惯)(?P<obj>{_P}{{1,12}}?)"
            rf"(?P<time>{_SPAN})?(?:了)?$"
        ),
        lambda m, t: _learning(m),
    ),
    # 学了三年钢琴了 / 弹了十年吉他: how long someone has learnt or played something (了 at the end:
    # up to now)
    (
        re.compile(
            rf"^(?:已经)?(?P<verb>学习|练习|学|练|弹|拉|吹|打|踢|跳|画|唱)了(?P<time>{_SPAN})(?:的)?"
            rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?P<now>了)?$"
        ),
        lambda m, t: _practised(m),
    ),
    # 做销售的 / 是做IT的: the line of work someone is in
    (
        re.compile(rf"^(?:是)?(?:做|搞|干)(?!饭|菜|事|作业|家务|梦)(?P<obj>{_P}{{1,8}}?)的$"),
        _slot("职业是", "work", "job"),
    ),
    # 不在北京住了: no longer lives there
    (
        re.compile(rf"^(?:已经|早就)?不在(?P<obj>{_P}{{1,12}}?)(?:住|生活|待)了$"),
        _slot("不再住在", "residence", "residence", ends=True),
    ),
    # 不在腾讯了 / 不在华为上班了: no longer works there (a home, 家, is no employer)
    (
        re.compile(rf"^不在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|干)?了$"),
        lambda m, t: _slot("辞职", "work", "employer", ends=True)(m, t) if _organisation(m.group("obj")) else [],
    ),
    # 开了一家面包店 / 在深圳开了一家餐厅: a business someone runs, where they work
    (
        re.compile(
            rf"^(?:在(?P<place>{_P}{{1,10}}?))?(?:自己)?开了(?:一家|家|一个|个|一间|间)(?P<obj>{_P}{{0,8}}?(?:店|公司|餐厅|饭店|馆|工作室|厂|诊所|超市|网店|民宿))$"
        ),
        lambda m, t: [
            Found(
                "EVENT" if t else "FACT",
                "开了",
                m.group("obj"),
                0.7,
                {"地点": m.group("place")} if m.group("place") else None,
                kind="work",
                slot="employer",
            )
        ],
    ),
    # 弹钢琴 / 会拉小提琴 / 打篮球: an instrument or a game someone plays (会: can)
    (
        re.compile(
            r"^(?P<can>会)?(?:(?P<verb>弹|拉|吹)(?P<obj>[\u4e00-\u9fff]{1,5}?)|(?P<verb2>打|踢|下)(?P<obj2>篮球|足球|排球|网球|"
            r"羽毛球|乒乓球|棒球|高尔夫球?|冰球|太极拳?|架子鼓|鼓|围棋|象棋|国际象棋))$"
        ),
        lambda m, t: _plays(m),
    ),
    # 教数学 / 在中学教物理: what someone teaches, and where (the employer)
    (re.compile(rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)教(?P<what>{_P}{{1,10}})$"), lambda m, t: _teaches(m)),
    (re.compile(r"^教(?P<what>[\u4e00-\u9fffA-Za-z]{1,10})$"), lambda m, t: _teaches(m)),
    # plans and intentions
    (re.compile(rf"^(?:在)?(?P<verb>打算|准备|计划|决定|考虑|想要|想|将要|要|会|将)(?P<obj>{_P}+)"), _plan),
    # 希望今年能跑一次半马 / 的计划是六月前写完论文: what someone hopes or plans to do
    (re.compile(rf"^(?:很|一直|真)?(?P<verb>希望|盼着)(?:能|可以|能够)(?P<obj>{_P}+)"), _plan),
    (re.compile(rf"^的(?P<verb>计划|打算)(?:是|就是)(?P<obj>{_P}+)"), _plan),
    # 在找新工作 / 正在找房子: what they are looking for, not where they work
    (
        re.compile(rf"^(?:现在)?(?:在|正在)(?:找|寻找|物色)(?P<obj>{_P}{{1,12}}?)(?:了|呢)?$"),
        lambda m, t: [Found("FACT", "在找", m.group("obj"), 0.6, kind="fact")] if _object(m.group("obj")) else [],
    ),
    # a licence, a degree, a visa got: theirs from now on (拿到驾照了 / 考到了驾照)
    (
        re.compile(
            r"^(?:终于|刚刚|刚|已经)*(?:拿到|考到|考下|考出|拿下|办下|取得)(?:了)?(?P<obj>驾照|驾驶证|学位|(?:学士|硕士|博士)学位|毕业证|护照|签证|绿卡|录取通知书|黑带)"
        ),
        lambda m, t: [Found("EVENT" if t else "FACT", "拿到", m.group("obj"), 0.6, kind="possession")],
    ),
    # 我怀孕了: expecting a child, a fact until it is born
    (
        re.compile(r"^(?:已经|终于|又)?怀孕(?:了)?(?:[，,。！!]|$)"),
        lambda m, t: [Found("FACT", "怀孕", None, 0.8, kind="fact")],
    ),
    # possessions
    (re.compile(rf"^(?P<verb>拥有|有|买了|领养了|养了)(?P<obj>{_P}+)"), _possession),
    # 在成都买了房: a home bought, and where
    (
        re.compile(
            rf"^在(?P<place>{_P}{{1,12}}?)买了(?:一套|套|一个|个|一栋|栋)?(?P<obj>房子|房|公寓|别墅|新房|二手房)$"
        ),
        lambda m, t: [
            Found("EVENT" if t else "FACT", "买了", m.group("obj"), 0.6, {"地点": m.group("place")}, kind="possession")
        ],
    ),
    # 开的是特斯拉 / 开一辆旧宝马: the car someone drives (开会, 开心, 开始 are no car)
    (
        re.compile(rf"^(?:开的是|开着?(?:一辆|辆)|开了?一辆)(?:新|旧|二手)?(?:的)?(?P<obj>{_P}{{2,12}}?)(?:车)?$"),
        lambda m, t: [Found("FACT", "开", obj, 0.5, kind="possession")] if (obj := _object(m.group("obj"))) else [],
    ),
    # 姓王: someone's surname, not a name of its own (我的牙科医生姓王)
    (
        re.compile(r"^姓(?P<obj>[\u4e00-\u9fff]{1,2}?)(?:的)?[。！!]?$"),
        lambda m, t: [Found("FACT", "姓", m.group("obj"), 0.6, kind="fact")],
    ),
    # who they are
    (re.compile(r"^(?:的名字)?(?:叫|是叫|名叫)(?P<obj>[^，,。！？；;!?\s]{1,12})"), _named),
    (re.compile(r"^的名字是(?P<obj>[^，,。！？；;!?\s]{1,12})"), _named),
    (re.compile(rf"^(?:来自|是从)(?P<obj>{_P}{{1,20}}?)(?:来的|过来的|人)?$"), _origin),
    (re.compile(rf"^(?:的)?老家(?:是|在)(?P<obj>{_P}{{1,20}}?)(?:的|人)?$"), _origin),
    # how old: 34岁 / 三岁了 (今年, a time, is read apart); the consolidator's age slot takes a later one
    (
        re.compile(r"^(?:已经|才|都)?(?P<obj>[\d一二两三四五六七八九十百]{1,4})(?:周)?岁(?:了|啦)?$"),
        lambda m, t: [Found("FACT", "年龄", m.group("obj") + "岁", 0.7, kind="fact")],
    ),
    (re.compile(rf"^是(?:一名|一个|一位|个|名|位)?(?P<obj>{_P}{{1,30}})"), _identity),
]


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
    return [Found("EVENT" if timed else "FACT", "考上", obj, 0.7, kind="school", slot="school")]


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
    future = is_future(time_text)
    attributes = None
    m = re.match(rf"^在(?P<place>{_P}+)", p)
    if m and tag(m.group("place"))[0][1].startswith("v"):
        m = None  # 在学做饭: 在 says it is going on, not where
    if m:
        said = _ONE.sub("", m.group("place"))  # 在一家游戏公司做美术: the place is 游戏公司
        place = noun_head(said)
        after = said[len(place) :] if place else ""
        if place and (len(place) > 1 or place == "家") and after and not after.startswith(("工作", "上班", "住")):
            attributes, p = {"地点": place}, after
    topic = clean(p, True, 30)
    if not topic:
        return None
    if future:  # 她下个月回国: what a time to come says someone does is a plan
        return Found("EVENT", "将", topic, 0.5, attributes, kind="plan")
    return Found("EVENT", topic, None, 0.5, attributes, kind="event")


# 女儿的班主任是刘老师 / 小雯的男朋友叫阿杰: someone in a role to a person the speaker knows.
_ROLE_OF_SOMEONE = re.compile(
    rf"^(?:我的|我)?(?P<whose>{ZH_ROLE}|{_NAME})的(?P<role>{ZH_ROLE})(?:是|叫|名叫)(?P<name>{_NAME})[。！!]?$"
)


def role_of_someone(text: str, people: People, owner: str) -> Found | None:
    """女儿的班主任是刘老师 → 我女儿 · 班主任 · 刘老师, 刘老师 learnt as that; None when the clause
    says no such thing."""
    m = _ROLE_OF_SOMEONE.match(text)
    role = role_of(m.group("role")) if m else None
    name = m.group("name") if m else ""
    if (
        m is None
        or role is None
        or name[0] in _NOT_NAME
        or name[0] in "个位名一"
        or name in ZH_ROLES
        or name[:2] in ZH_ROLES
    ):
        return None
    rel = role_of(m.group("whose"))
    if rel is not None:
        whose = people.by_role(rel[0], owner) or f"我{m.group('whose')}"
        if not people.knows(whose):
            people.learn(whose, gender=rel[1])
    elif people.knows(m.group("whose")):
        whose = m.group("whose")
    else:
        return None
    people.learn_of(whose, name, role[0], m.group("role"))
    return Found("RELATION", role[0], name, 0.7, subject=whose, kind="relation")


# 我跟小静是大学同学 / 我和阿杰是好朋友: someone the speaker is something to, together
_TOGETHER = re.compile(
    rf"^我(?:跟|和|与)(?P<name>{_NAME})(?:以前|曾经|原来|从小)?(?:是|成了|一直是|就是)(?:[\u4e00-\u9fff]{{0,4}}?)(?P<role>同学|同事|朋友|好朋友|室友|邻居|闺蜜|发小)(?:了)?$"
)


def _kin_word(what: str) -> str | None:
    """The role word a description ends with (德国笔友 → 笔友)."""
    return next((what[-n:] for n in (3, 2, 1) if len(what) >= n and role_of(what[-n:])), None)


def said_together(text: str) -> bool:
    """The clause only says what the speaker and someone are to each other (``_TOGETHER``)."""
    return _TOGETHER.match(text.strip()) is not None


def stated_people(text: str, people: People, owner: str) -> list[Found]:
    """Relations said inside a clause, not at its start (我周末和我表妹小雯去了西湖), and 我跟小静是大学同学:
    each learnt."""
    out = []
    together = _TOGETHER.match(text.strip())
    if together and together.group("name")[0] not in _NOT_NAME and (found := role_of(together.group("role"))):
        people.learn(together.group("name"), found[0], owner=owner)
        out.append(_relation(found[0], together.group("name")))
    for m in re.finditer(rf"我(?:的)?(?P<role>{ZH_ROLE})", text):
        found = role_of(m.group("role"))
        if m.start() == 0 or not found:
            continue
        role, gender = found
        name, _ = _name_after(text[m.end() :])
        if name:
            people.learn(name, role, owner=owner)
            out.append(_relation(role, name))
        elif people.by_role(role, owner) is None:
            people.learn("我" + m.group("role"), gender=gender)  # 我和我老婆…，她…: a pronoun may mean her
    return out


# 一个叫Nina的护士 / 叫小吴的家教: someone introduced by their name and what they are; the phrase
# stands for the name in the clause (我认识了一个叫Nina的护士 → 我认识了Nina).
_INTRODUCED = re.compile(
    rf"(?:一|这|那)?(?:个|位|名)?(?:名)?叫(?P<name>{_NAME})的(?P<what>[\u4e00-\u9fff]{{1,6}}?)(?=$|[，,。！？!?；;了])"
)
# 一个家教，叫小吴 / 请了个阿姨，她叫王姐: what they are, then their name.
_NAMED_AFTER = re.compile(
    rf"(?:一)?(?:个|位|名)(?P<what>[\u4e00-\u9fff]{{1,6}}?)[，,]?(?:他|她)?(?:叫|名叫)(?P<name>{_NAME})[。！!]?$"
)
_NOT_PEOPLE = re.compile(r"(?:店|馆|厅|楼|书|片|电影|歌|游戏|地方|城|村|街|路|狗|猫|鱼|鸟|车|船|公司|学校)$")


# 楼下新搬来的邻居叫Olga / 我们公司新来的CTO叫Harris: who someone described is, a sentence of its own.
_DESCRIBED_IS_CALLED = re.compile(
    rf"^(?P<desc>[^，,。！？!?]{{1,14}}?的)(?P<what>[{HAN_CHARS}A-Za-z]{{1,6}}?)(?:叫|名叫|叫做)(?P<name>{_NAME})[。！!]?$"
)


def introduced(text: str, people: People, owner: str) -> tuple[str, list[Found]]:
    """People a clause introduces by name and what they are: each learnt as someone the speaker
    knows, what they are said (Nina 是 护士); the clause with the name in the phrase's place."""
    named = role_of_someone(text.strip(), people, owner)
    if named is not None:
        return "", [named]
    m = _DESCRIBED_IS_CALLED.match(text.strip())
    if m and m.group("desc") not in ("我的", "我们的", "的") and not _NOT_PEOPLE.search(m.group("what")):
        name, what = m.group("name"), m.group("what")
        known_role = role_of(what)
        role = known_role[0] if known_role else "熟人"
        return "", introduce(people, name, role, m.group("desc") + what, owner, "是")
    for pattern in (_INTRODUCED, _NAMED_AFTER):
        m = pattern.search(text)
        if m is None:
            continue
        what, name = m.group("what"), m.group("name")
        if _NOT_PEOPLE.search(what) or name[0] in _NOT_NAME or not (name.isascii() or _one_word(name, name)):
            continue
        kin = role_of(what) or role_of(what[-2:]) or role_of(what[-1:])
        had = r"(?:^|[，,])(?:我|我们)(?:上周|上个月|去年|前天|昨天|今年|刚刚|刚|已经|终于)*(?:还|也)?(?:有|生了|添了)$"
        if kin and re.search(had, text[: m.start()]):  # 我有个弟弟叫小乐 / 我们上周生了个女儿，叫莉莉: my 弟弟, my 女儿
            kin_word = _kin_word(what) or what
            plain = re.fullmatch(r"(?:小|大|亲|双胞胎)?", what[: len(what) - len(kin_word)]) is not None
            found = introduce(people, name, kin[0], None if plain else what, owner, "是")
        else:
            found = introduce(people, name, "熟人", what, owner, "是")
        if pattern is _INTRODUCED:
            return text[: m.start()] + name + text[m.end() :], found
        before = text[: m.start()]
        if re.search(r"有$", before):  # 我有个笔友叫Jonas: someone known, not something had
            return "", found
        if re.search(r"(?:生了|添了)$", before):  # 我们上周生了个女儿，叫莉莉: the birth, and who
            return before + "个" + what, found
        return before + name, found
    return text, []


def person_in(text: str, people: People) -> str | None:
    """A person a clause names inside it (…卖给了陈阿姨, …和小雯吃饭): one known by name, or a surname
    with a title (陈阿姨, 李老师) the way one calls them."""
    for key in sorted(people.names, key=len, reverse=True):
        said = people.names[key]
        if len(said) >= 2 and not said.startswith("我") and said in text:
            return said
    m = re.search(
        rf"[{HAN_CHARS}](?:{'|'.join(sorted(_TITLES, key=len, reverse=True))})(?=$|[^{HAN_CHARS}]|[了的说和])", text
    )
    if m and m.group(0)[0] not in _NOT_NAME and not role_of(m.group(0)[:1]) and not role_of(m.group(0)):
        return m.group(0)
    return None
