"""Chinese: whom a clause is about — 我, a person by name (小雯), by role (我表妹, 我的钢琴老师), by pronoun
(她 / 他), or none when it goes on about the subject of the clause before (我辞职了，下个月入职字节跳动) —
with the relations the opening says, and the people a clause introduces or is all about (一个叫Nina的护士,
女儿的班主任是刘老师). ``people.People`` says whom a role or a pronoun means; jieba's words and tags
(``tag``, ``zh_things.noun_head``) say where an open part ends."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import accumulate

from ..lang import HAN_CHARS
from ..lexicon.roles import (
    ATTRIBUTE_WORDS,
    NOT_KIN,
    ZH_ROLE,
    ZH_ROLE_HEADS,
    ZH_ROLE_WORDS,
    ZH_ROLES,
    ZH_SURNAMES,
    ZH_TITLES,
    mutual_words,
    role_of,
)
from .people import People, introduce
from .phrases import Found, Subject, read_as, relation

# What may stand before a clause's subject: interjections, discourse words, times said as words.
ZH_LEAD = re.compile(
    r"^(?:[，,、\s]|嗯|啊|哦|哈哈|哈|对了|其实|不过|而且|但是|可是|然后|后来|另外|还有|最近几天|最近|刚才|刚刚|终于|结果|总之|"
    r"说真的|老实说|你知道吗|你知道|你猜怎么着|你猜|告诉你|跟你说|今天|昨天|昨晚|前天|明天|周末|上周|这周|下周|早上|上午|"
    r"中午|下午|晚上|早饭|午饭|晚饭|放学后|下班后|说实话|说实在的|坦白说|讲真|现在|目前|如今|这些天|这阵子|这次|这回"
    r"|[\u4e00-\u9fff]{1,6}?(?:以后|之后|后)(?=[，,]?我))+"  # 实习结束后我…: when, then the speaker
)

# Adverbs between a subject and its verb that change nothing the memory says (正在 loses only its 正: 在学吉他
# says it is going on, 在上海工作 where).
_ADV = (
    r"(?:也|还|都|就|可(?=是)|已经|终于|刚刚|刚|又|现在|目前|如今|一直|最近|真的|真|正|总算|才|早就|这个月|今年|"
    r"平时|平常|平日|通常|一般|向来|总是|经常|常常)*"
)

# What says a thing was so before and may be no longer (以前住在北京, 曾在银行上班, 原来是同事)
FORMERLY = "以前|之前|原来|曾经|过去|从前|早年|曾"

_NAME = rf"[{HAN_CHARS}]{{2,3}}|[A-Z][a-z]+"

# What may follow a name: a verb of being, a place or time word, a particle, punctuation.
_NAME_FOLLOW = (
    r"(?=是|很|也|在|说|和|跟|喜欢|今天|昨天|明天|前天|上周|下周|上个月|下个月|去年|明年|最近|现在|去|来|要|会|刚|"
    r"已经|就|都|还|又|的|给|对|把|被|住|搬|从|下|上|开|买|养|有|打算|准备|不|没|，|,|。|！|？|!|\?|；|$|\s)"
)

_NOT_NAME = set("我你他她它这那谁哪啥每某该满个的")  # 个: 是个老师 says what they are; 的的: a slip, no name

_NOT_FIRST = _NOT_NAME | set("很太挺真超蛮特非好最更")  # and degree words: 我女儿很可爱 says how, not who

_NOT_NAME_END = set("不没也都还又才就只并真很太挺再")  # 小明不是我的朋友: a negation, not a name

_PRONOUN = re.compile(r"^(她|他)(?!们)")
# what a person has (学历, 身高, 工作地 …), the longest first
_ATTRIBUTE = re.compile("|".join(sorted((w for w in ATTRIBUTE_WORDS if not w.isascii()), key=len, reverse=True)))

_JOB_END = "员|师|工|手|官|士|会计|记者|经理|主管|主编|编辑|老板|医生|司机|保安|保姆|厨子|律师|翻译|秘书|助理"


@lru_cache(maxsize=4096)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """Words and their part-of-speech tags (jieba's set: n noun, ns place, nr person, v verb …)."""
    import rjieba  # loaded only when Chinese text is read

    return tuple(rjieba.tag(text))


def of_places(text: str) -> bool:
    """Whether a text is places and nothing else (天津, 河南郑州; 福建厦门, which the tagger takes whole)."""
    two = [(w[:2], w[2:]) for w, t in tag(text) if t != "ns"]
    return bool(text) and all(len(a + b) == 4 and tag(a) + tag(b) == ((a, "ns"), (b, "ns")) for a, b in two)


# 我和男朋友分手了 / 我跟小李分手了 / 我们分手了 / 我离婚了: a breakup or a divorce of the speaker's
_PARTNER_ENDED = re.compile(
    r"^(?:我(?:和|跟|与)我?的?(?P<who>[\u4e00-\u9fffA-Za-z]{1,4}?)|我们|我)(?:已经|终于|刚|刚刚|上个月|去年|上周)*"
    r"(?P<what>分手|离婚|离了婚|分开)了?"
)


def partner_ended(text: str, people: People, owner: str) -> Found | None:
    """A breakup or a divorce of the speaker's: the partner said (a name, or the one known in the role
    said), or whoever it is when none is named, is no longer theirs."""
    m = _PARTNER_ENDED.match(text)
    if m is None:
        return None
    who = m.group("who")
    if who and (found := role_of(who)):
        who = people.by_role(found[0], owner)
    topic = "离婚" if m.group("what").startswith("离") else "分手"
    return read_as("partner", "FACT", topic, who, ends=True)


def said_mine(rest: str, name: str, people: People, owner: str) -> Found | None:
    """(他)是我大学室友, said of someone named before: the speaker's, in that role."""
    m = re.match(rf"^也?是我(?:的|最好的)?(?P<role>[{HAN_CHARS}]{{1,6}})[。！!]?$", rest)
    role = m.group("role") if m else ""
    found = next((f for n in range(len(role)) if (f := role_of(role[n:]))), None)  # 大学室友: a 室友
    return people.known_as(name, found[0], owner) if found else None


# Roles that are a person's family or household: 老周的老伴, 他孙子 is about them.
_RELATIVES = "|".join(sorted((w for w, (c, _) in ZH_ROLES.items() if c not in NOT_KIN), key=len, reverse=True))
_RELATIVE = re.compile(rf"^的?(?P<role>{_RELATIVES})")


def _relative(subj: Subject) -> Subject:
    """老周的老伴… / 他孙子… / 她的店…: the clause is about the subject's relative or a thing of
    theirs, kept as theirs (``of_role``)."""
    m = _RELATIVE.match(subj.rest)
    attribute = _ATTRIBUTE.match(subj.rest, 1) if subj.rest.startswith("的") else None
    if m and not subj.rest[m.end() :].startswith(("们", "的")):
        subj.rest, subj.of_role = subj.rest[m.end() :], ZH_ROLES[m["role"]][0]
    elif attribute and attribute.group(0) != "生日":  # 我同事的身高是…: theirs (生日 has a reading of its own)
        # 工作地是在山东青岛, 工作地在广州: where it is, as 工作地是山东青岛 says
        at = r"^是在|^在" if attribute.group(0).startswith(("工作地", "工作的")) else r"^是在"
        subj.rest, subj.of_role = re.sub(at, "是", subj.rest[attribute.end() :]), attribute.group(0)
    elif subj.rest.startswith("的") and len(subj.rest) > 2:
        words = tag(subj.rest[1:])
        if len(words) > 1 and words[0][1].startswith("n") and not words[0][1].startswith("nr"):
            subj.rest, subj.of_role = subj.rest[1 + len(words[0][0]) :], words[0][0]
    return subj


def _that_one(text: str, people: People) -> Subject | None:
    """那位退休老师做了手术, 那个爱尔兰同事…: the person known by the role or what was said of them after 那位 (the
    longest words that fit)."""
    m = re.match(r"^我?(?:那位|那个|这位|这个|那名|那)(?=[\u4e00-\u9fffA-Za-z])", text)
    if not m:
        return None
    after = text[m.end() :]
    for n in range(min(8, len(after) - 1), 1, -1):
        if (name := people.by_description(after[:n])) is not None:
            people.mention(name)
            return Subject(name, after[n:])
    return None


# 我们 / 我们家 / 咱们 before a move, a home, a pet, a purchase or a plan: the household, so the
# speaker too (我们公司…, 我们在讨论… stay no one's: "we" at work is not the speaker's own fact).
_WE_AT_HOME = re.compile(
    rf"^(?:(?:我们|咱们)(?:家|俩|一家|全家)?{_ADV}"
    r"(?=搬|住在|住|养了|领养了|买了|打算|准备|计划|在考虑|考虑|想(?:搬|养|买|去)"
    r"|在[^，,。！？]{1,12}?(?:住|生活|定居|安家|买了房))"
    r"|(?:我们家|咱们家|咱家|我家里|我家)(?=有|养))"
)

# 昨晚我们在…吃了饭: "we" at a time said, a thing the speaker did with others (我们公司…, 我们老板… are
# not the speaker)
_ZH_WE_THEN = re.compile(
    r"^[我咱]们(?:俩|一家|全家|几个)?(?!公司|单位|学校|部门|团队|小组|组|班|老板|领导|经理|[这那的])"
)


def we_then(said: str, time_text: str) -> Subject | None:
    # a time that is a day, not a habit (周末我们一起打球: no event)
    m = re.search(r"[0-9昨今明上下去前后刚]", time_text) and _ZH_WE_THEN.match(said)
    rest = said[m.end() :].strip(" 。！!") if m else ""
    if len(rest) < 3 or re.match(r"^再?(?:见|聊|走|说|谈|看看|一起吧)", rest):  # 我们明天见: a goodbye
        return None
    return Subject(None, rest)


# Roles said without 我 that still mean the speaker's (妈妈说…, 舅妈在广州上班, 老板今天…): kin, the boss and
# whoever works under the speaker; not 叔叔, 阿姨, 哥哥, 姐姐 …, as often what one calls anyone.
_BARE_ROLES = frozenset(
    "妈妈 老妈 母亲 爸爸 老爸 父亲 老婆 妻子 爱人 老公 丈夫 老伴 女朋友 男朋友 爷爷 奶奶 外婆 外公 姥姥 姥爷 儿子 女儿 闺女 "
    "表妹 表姐 表哥 表弟 堂妹 堂姐 堂哥 堂弟 舅舅 舅妈 婶婶 姑姑 姨妈 小姨 大伯 伯伯 侄子 侄女 外甥 外甥女 孙子 孙女 "
    "外孙 外孙女 公公 婆婆 岳父 岳母 儿媳 女婿 嫂子 姐夫 妹夫 弟媳 老板 上司 领导 下属 手下".split()
)

# 就是/只是/可是/真是… opening a clause that says no subject: "it's just that", "it really is" — what follows
# is a remark (就是晚上有点儿吵, 真是太让人惊喜了), not what the speaker or the one spoken of before is.
CONNECTIVE_IS = re.compile(r"^(?:就|只|可|但|倒|要|真|不过|而且|尤其|特别|主要|反正)是")

_PREDICATE_START = re.compile(
    rf"^{_ADV}(?:住|搬|在|入职|加入|跳槽|辞职|离职|辞了|换了|去|考上|毕业|从|买|养|有|打算|准备|计划|决定|不再|喜欢|爱|讨厌|是|当|做"
    r"|[\d一二两三四五六七八九十百]{1,4}周?岁)"
)


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


def _what_they_do(role: str) -> bool:
    """Whether what stands before a role head says what they teach or treat (钢琴老师, 牙科医生),
    not a preposition or a verb of the clause (我给李老师…, 我问张医生…)."""
    head = next((h for h in ZH_ROLE_HEADS if role.endswith(h)), None)
    return head is None or role in ZH_ROLES or len(role) == len(head) or _modifier(role[: -len(head)])


def _first_tag(text: str, cand: str) -> str | None:
    """The tagger's tag of ``text``'s first word when that word is ``cand``, else None."""
    words = tag(text)
    return words[0][1] if words and words[0][0] == cand else None


def _calling(cand: str) -> bool:
    """How one calls someone by name: a surname and a title (陈阿姨, 李老师, 王师傅), though its title is a role,
    not a role said with which one (新老师, 女医生) or whose it is (他老师); or a nickname (老马, 小吴, 阿杰), not a
    role (老师, 老公, 阿姨)."""
    if len(cand) == 2:
        return cand[0] in "小老阿" and role_of(cand) is None
    which = cand[0] in _NOT_FIRST or cand[0] in "新老女男大小前原"  # 新老师, 女医生, 大律师: which one, no surname
    return len(cand) == 3 and cand[1:] in ZH_TITLES and not which and not role_of(cand[0])


def _may_be_name(said: str) -> bool:
    """Whether words taken for a name may be one: no pronoun, "this" or degree word first (是个老师), no role but 李老师."""
    return said[0] not in _NOT_FIRST and (not role_of(said) or _calling(said))


def person_named(cand: str) -> bool:
    """Whether ``cand`` is a person's name: the tagger's (李明宇) or how one calls someone; not 腾讯, 华为Mate60."""
    return _calling(cand) or (_first_tag(cand, cand) or "").startswith("nr")


def _addressed(cand: str, text: str) -> bool:
    """Someone called by name (``_calling``), a nickname only when the tagger reads it as one (小时, 老是: none)."""
    return _calling(cand) and (len(cand) == 3 or _first_tag(text, cand) == "nr")


def _one_word(text: str, cand: str) -> bool:
    """Whether a name candidate is one word here, not a verb or function word (结婚, 要去维); as one calls someone, yes."""
    # not a verb, an adverb, a preposition, a conjunction, a particle, a pronoun, a number, a measure, a time …
    return _calling(cand) or (_first_tag(text, cand) or "v")[0] not in "vdpcurmqtfa"


def _tagged_name(text: str, cand: str) -> bool:
    """Whether the tagger reads ``cand`` as a person's name here; not a place and 人 (天津人: from there)."""
    return (_first_tag(text, cand) or "").startswith("nr") and not (cand.endswith("人") and of_places(cand[:-1]))


def _name_after(text: str) -> tuple[str | None, str]:
    """A name right after a role (小雯 in 我表妹小雯是木匠 / 我女朋友叫林静), and the text after it."""
    m = re.match(rf"^(?:是|叫|名叫|，|,)?(?P<name>{_NAME})", text)
    if not m or text.startswith("姓"):  # 姓王: a surname, said of them (see _RULES)
        return None, text
    name = m.group("name")
    cands = [name, name[:2]] if len(name) == 3 and not name.isascii() else [name]
    bare = text.lstrip("是叫名，,")
    for cand in cands:
        after = text[m.start("name") + len(cand) :]
        if not _may_be_name(cand) or _PREDICATE_START.match(cand):
            continue
        if cand in ATTRIBUTE_WORDS or cand[:2] in ATTRIBUTE_WORDS:  # 我的同事家乡是成都: theirs, not a name
            return None, text
        if len(cand) == 3 and cand[0] == cand[1]:  # 贝贝来我家: a doubled name (贝贝, 朵朵) is two characters
            return cand[:2], cand[2] + after
        if len(cand) == 2 and cand[0] == cand[1] and text.startswith(("叫", "名叫")):
            return cand, after  # 我女儿叫朵朵: a doubled name the tagger reads as a measure word
        cut = len(cand) == 3 and _PREDICATE_START.match(cand[2] + after) and _one_word(bare, cand[:2])
        if cut:  # 晓晓搬到广州: the name is 晓晓, 搬到 the predicate (要么是: no name)
            cand, after = cand[:2], cand[2] + after
        if text.startswith("是") and not (
            cand.isascii() or _tagged_name(text[1:], cand) or (_calling(cand) and not after.strip("。！!，,了啊"))
        ):
            continue  # 我的朋友是医生, 我的下属是博士毕业的: what they are, not who
        if cut or (_one_word(bare, cand) and (re.match(_NAME_FOLLOW, after) or _tagged_name(bare, cand))):
            return cand, after
    return None, text


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
    return Subject(name, after, people.learn_of(subj.name, name, subj.of_role, subj.of_role))


# what two people do to each other: the one after 和 is its other party (和他女朋友分手了)
_WITH_EACH_OTHER = re.compile(
    r"^(?:又|已经|终于|刚|昨天|上周|上个月)*(?:分手|吵架|吵了|离婚|离了婚|闹翻|闹掰|和好|打架|分开|结婚|订婚|冷战)"
)


def _with_them(text: str, people: People, owner: str) -> Subject | None:
    """我和老公刚在成都买了房 / 我跟小静去看了电影: what the speaker did with someone, the speaker's
    (as "My husband and I …" is); None when it is what the two did to each other or are (我跟老公吵架了,
    我和老公是大学同学) or no one follows."""
    m = re.match(rf"^我(?:和|跟|与)我?的?(?P<role>{ZH_ROLE_WORDS})?", text)
    if m is None:
        return None
    role = m["role"]
    who, rest = (role, text[m.end() :]) if role else _name_after(text[m.end() :])
    if who is None or _WITH_EACH_OTHER.match(rest.lstrip("一起")) or rest.startswith("是"):
        return None
    if role and not people.by_role(ZH_ROLES[role][0], owner):
        people.learn(people.unnamed("我" + role), gender=ZH_ROLES[role][1])  # 我和老公…。他… : a pronoun may mean him
    return Subject(None, rest)


def _named_first(text: str) -> str | None:
    """The name a clause opens with, of someone not known before: the tagger's person name of two or
    three characters when what follows is what a person has (李婷婷的邮箱地址是…, 张丽华的名字…), or
    someone named the way one calls them (陈阿姨开了…, 老何说…)."""
    words = tag(text)
    if not words:
        return None
    name = words[0][0] if words[0][1].startswith("nr") else ""
    given = words[1] if len(words) > 1 and len(words[1][0]) == 2 and not role_of(words[1][0]) else ("", "")
    surname = words[0][0] in ZH_SURNAMES  # a surname the tagger may not tag as a name (张|雅静)
    if (len(name) == 1 or surname) and given[1] in ("nr", "nrfg") or (surname and given[1] == "n"):
        name = words[0][0] + given[0]  # 周|志强, 刘|晨曦: a surname and a given name the tagger split
    elif name[:1] in ZH_SURNAMES and len(name) == 2 and len(words) > 1 and words[1] == (words[1][0][:1], "nr"):
        name += words[1][0]  # 刘子|墨: split after the second character
    if 2 <= len(name) <= 3 and text[len(name) :].startswith("的") and _ATTRIBUTE.match(text, len(name) + 1):
        return name
    # 李志强特别爱好美食 / 张志伟挺喜欢登山 / 李晓芸她在青岛工作: how much, or who again, then what
    said = re.sub(r"^(?:[她他](?!们)|特别|非常|很|最|超级|超|挺|蛮|比较)", "", text[len(name) :])
    tagged = words[0][1] in ("nr", "nrfg") or len(name) > len(words[0][0])
    # 李思琪喜欢摄影, 王静喜欢书法 (nrt, a name heard from abroad, is as often 家里人); two characters say what is
    # done, not what is (叶子是绿色的: a leaf the tagger took for a name)
    two = len(name) == 2 and name[0] in ZH_SURNAMES and not said.startswith("是")
    if tagged and (len(name) == 3 or two) and _PREDICATE_START.match(said):
        return name
    m = re.match(rf"^(?:[{HAN_CHARS}]{{3}}|[小老阿][{HAN_CHARS}])(?=[^的们])", text)
    return m[0] if m and _addressed(m[0], text) else None


def _opening(clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None:
    text = ZH_LEAD.sub("", clause).strip()
    m = re.match(rf"^(?P<name>{_NAME})是我(?:的|最好的)?(?P<role>{ZH_ROLE})(?:$|[了啊呀吧。！!，,])", text)
    if m and _may_be_name(m["name"]) and m["name"][-1] not in _NOT_NAME_END and (found := role_of(m["role"])):
        return Subject(m["name"], "", people.known_as(m["name"], found[0], owner))
    m = re.match(rf"^(?P<desc>[{HAN_CHARS}]{{1,8}}?的)(?P<role>{ZH_ROLE_WORDS})", text)
    # 小琳的儿子乐乐: 小琳's son (read below), not the speaker's
    if m and not m["desc"].startswith(("我", "你", "他", "她")) and not people.knows(m["desc"][:-1]):
        name, rest = _name_after(text[m.end() :])
        if name:  # 新来的同事Mia是做数据分析的: who they are, which one, their name
            rel, described = introduce(people, name, ZH_ROLES[m["role"]][0], m["desc"] + m["role"], owner, "是")
            return Subject(name, rest, rel, described=described)
    # 我的一个下属: one of the speaker's, who is the one said so before unless someone named is; 我们房东, 咱家保姆:
    # the household's, which the speaker means as their own
    whose = r"^(?:我们家|我们|咱们家|咱们|咱家|我家|我)?的?(?:(?<=[我家们的])(?P<one>一个|一位|一名))?"
    m = re.match(rf"{whose}(?P<role>{ZH_ROLE})", text)
    if m and not _what_they_do(m["role"]):  # 我妈妈是医生: the role is 妈妈, 医生 is what she is
        m = re.match(rf"{whose}(?P<role>{ZH_ROLE_WORDS})", text)
    mods = ""
    if not m and text.startswith("我"):  # 我的新上司, 我大学室友: which one, then the role
        m = re.match(rf"^我的?(?P<mods>[{HAN_CHARS}]{{1,4}}?)(?P<role>{ZH_ROLE})", text)
        mods = m["mods"] if m and _what_they_do(m["role"]) and _modifier(m["mods"]) else ""
        m = m if mods else None
    found = role_of(m["role"]) if m else None
    # a role said bare (房东上周来修了热水器) is the speaker's own when a family role or the boss, when the
    # speaker named someone in that role before, or when what follows is what a person has (下属的老家是成都,
    # 同事邮箱是…): a question says a role so (舅舅的单位…?) and means the speaker's (retriever.subjects), and so does a note
    has = m and found and _ATTRIBUTE.match(text[m.end() :].removeprefix("的")) is not None
    bare = m and found and (m.group("role") in _BARE_ROLES or people.by_role(found[0], owner) is not None or has)
    if m and found and (text.startswith("我") or bare):
        role = found[0]
        after = _PRONOUN.sub("", text[m.end() :])  # 我的下属他是深圳人 / 他的车…: the pronoun says the role again
        name, rest = _name_after(after)
        if name:
            people.learn(name, role, owner=owner)
            if mods:
                people.describe(name, mods + m.group("role"))
            return Subject(name, rest, relation(role, name))
        known = people.by_role(role, owner) or people.by_description(mods + m.group("role"))
        if (mods and not known) or (m["one"] and known and not known.startswith("我")):
            return None  # 我的新同事, 我的一个同事: not necessarily the one named before
        if not known:  # 我的同事 and 我同事, 我爸 and 我父亲: one person, one name
            said = text[: m.start("one")] + text[m.start("role") : m.end()] if m["one"] else text[: m.end()]
            known = people.unnamed("我" + said.removeprefix("我").removeprefix("的"))
            people.learn(known, gender=found[1])  # 我姥姥: someone a pronoun may mean
        people.mention(known)
        if _ATTRIBUTE.match(after):
            after = "的" + after  # 我的同事家乡是成都: as 我同事的家乡是成都
        if after.startswith("的"):  # 我儿子的班主任王老师…: their relative, named or not
            return _named_relative(_relative(Subject(known, after)), people)
        return Subject(known, after)
    # 其 ("his", "her", "its") before what someone has: the subject of the clause before (张伟是我的表弟，其家乡是北京)
    if text.startswith("其") and _ATTRIBUTE.match(text, 1) and carried is not None and carried.name is not None:
        people.mention(carried.name)
        return _named_relative(_relative(Subject(carried.name, "的" + text[1:], pronoun="其")), people)
    if text.startswith(("他们", "她们")) and (together := people.by_they()):  # 我爸妈…。他们带了很多菜: those together
        people.mention(together)
        return Subject(together, text[2:], pronoun=text[:2])
    if m := _PRONOUN.match(text):
        name = people.by_pronoun(m[1])
        if name is None:
            return None
        people.settle(name, m[1])
        return _named_relative(_relative(Subject(name, text[m.end() :], pronoun=m[1])), people)
    for said in (people.names[key] for key in sorted(people.names, key=len, reverse=True)):
        if text.startswith(said) and said != "我":
            people.mention(said)
            subj = Subject(said, text[len(said) :])
            return _named_relative(_relative(subj), people) if subj.rest.startswith("的") else subj
    if (that := _that_one(text, people)) is not None:
        return that
    if named := _named_first(text):
        people.learn(named)
        return _relative(Subject(named, _PRONOUN.sub("", text[len(named) :])))
    if we := _WE_AT_HOME.match(text):  # 我们搬到上海了 / 我家养了一只猫: where the speaker lives, what they keep
        return Subject(None, text[we.end() :])
    if (with_them := _with_them(text, people, owner)) is not None:
        return with_them
    if text.startswith("我") and not text.startswith("我们"):
        return Subject(None, text[1:])
    if text.startswith(("我们", "你", "您", "大家", "咱们", "他们", "她们", "它")):
        return None
    if carried is not None and _PREDICATE_START.match(text) and not CONNECTIVE_IS.match(text):
        return Subject(carried.name, text)
    return None


_AND_THEIR = re.compile(rf"^(?:和|跟|带着)(?:她|他)(?:的){{0,2}}(?P<role>{_RELATIVES})")  # 小雯和她老公阿强来了


def subject_of(clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None:
    """The subject a clause opens with (lead words and times already out), or the carried one
    from the clause before when it opens with its predicate; None when it is about someone the
    reader cannot name (他 with no one named, 我们, 你). 小雯和她老公阿强来我家吃饭了: 阿强 is 小雯's 老公 from
    now on, and the clause is about 小雯 (with him); 和她老公 unnamed is only left out of the clause."""
    subj = _opening(clause, people, owner, carried)
    if subj is None or subj.name is None or (m := _AND_THEIR.match(subj.rest)) is None:
        return subj
    role, after = ZH_ROLES[m["role"]][0], subj.rest[m.end() :]
    name, rest = _name_after(after)
    if _WITH_EACH_OTHER.match(rest):
        return subj  # 王磊和他女朋友分手了: whom the breakup was with, not who came along
    if name and name not in people.names.values():
        subj.together = people.learn_of(subj.name, name, role, role)
        people.mention(subj.name)  # the clause is still about them
        after = rest
    subj.rest = after
    return subj


# 女儿的班主任是刘老师 / 小雯的男朋友叫阿杰: someone in a role to a person the speaker knows.
_ROLE_OF_SOMEONE = re.compile(
    rf"^(?:我的|我)?(?P<whose>{ZH_ROLE}|{_NAME})的(?P<role>{ZH_ROLE})(?:是|叫|名叫)(?P<name>{_NAME})[。！!]?$"
)


def role_of_someone(text: str, people: People, owner: str) -> Found | None:
    """女儿的班主任是刘老师 → 我女儿 · 班主任 · 刘老师, learnt so; None when the clause says no such thing."""
    m = _ROLE_OF_SOMEONE.match(text)
    role = role_of(m.group("role")) if m else None
    name = m.group("name") if m else ""
    if m is None or role is None or name[0] in "位名一" or not _may_be_name(name) or name[:2] in ZH_ROLES:
        return None  # 女儿的班主任是个好人, 是我们: no name
    if re.search(rf"(?:{_JOB_END})$", name) and not _calling(name):
        return None  # 我同事的老婆是护士: what she is, not who (刘老师 is a surname and a title)
    whose = m["whose"]
    if rel := role_of(whose):  # 女儿: the speaker's
        whose = people.by_role(rel[0], owner) or people.unnamed(f"我{whose}")
        if not people.knows(whose):
            people.learn(whose, gender=rel[1])
    elif not people.knows(whose):
        return None
    return people.learn_of(whose, name, role[0], m.group("role"))


# 我跟小静是大学同学 / 我和阿杰是好朋友: someone the speaker is something to, together
_TOGETHER = re.compile(
    rf"^我(?:跟|和|与)(?P<name>{_NAME})(?:{FORMERLY}|从小)?(?:是|成了|一直是|就是)(?:[\u4e00-\u9fff]{{0,4}}?)(?P<role>{mutual_words(True)})了?$"
)


def said_together(text: str) -> bool:
    """The clause only says what the speaker and someone are to each other (``_TOGETHER``)."""
    return _TOGETHER.match(text.strip()) is not None


def stated_people(text: str, people: People, owner: str) -> list[Found]:
    """Relations said inside a clause, not at its start (我周末和我表妹小雯去了西湖), and 我跟小静是大学同学: learnt."""
    out = []
    together = _TOGETHER.match(text.strip())
    if together and _may_be_name(together.group("name")):
        out.append(people.known_as(together.group("name"), ZH_ROLES[together.group("role")][0], owner))
    for m in re.finditer(rf"我的?(?P<role>{ZH_ROLE})", text):
        if m.start() == 0 or not (found := role_of(m["role"])):
            continue
        role, gender = found
        name, _ = _name_after(text[m.end() :])
        if name:
            out.append(people.known_as(name, role, owner))
        elif people.by_role(role, owner) is None:
            people.learn(people.unnamed("我" + m.group("role")), gender=gender)  # 我和我老婆…，她…: may be her
    return out


# 一个叫Nina的护士 / 叫小吴的家教: someone introduced by their name and what they are; the phrase
# stands for the name in the clause (我认识了一个叫Nina的护士 → 我认识了Nina).
_INTRODUCED = re.compile(
    rf"(?:一|这|那)?(?:个|位|名)?名?叫(?P<name>{_NAME})的(?P<what>[\u4e00-\u9fff]{{1,6}}?)(?=$|[，,。！？!?；;了])"
)

# 一个家教，叫小吴 / 请了个阿姨，她叫王姐: what they are, then their name.
_NAMED_AFTER = re.compile(rf"一?[个位名](?P<what>[\u4e00-\u9fff]{{1,6}}?)[，,]?[他她]?名?叫(?P<name>{_NAME})[。！!]?$")

_NOT_PEOPLE = re.compile(
    r"(?:店|馆|厅|楼|书|片|电影|歌|游戏|地方|城|村|街|路|狗|猫|鱼|鸟|车|船|公司|学校|单位|机构|医院|小区|酒店|公园|"
    r"健身房|幼儿园|大学|中学|小学|品牌|名字|姓名)$"
)

# 楼下新搬来的邻居叫Olga / 我们公司新来的CTO叫Harris: who someone described is, a sentence of its own.
_DESCRIBED_IS_CALLED = re.compile(
    rf"^(?P<desc>[^，,。！？!?]{{1,14}}?的)(?P<what>[{HAN_CHARS}A-Za-z]{{1,6}}?)(?:叫|名叫|叫做)(?P<name>{_NAME})[。！!]?$"
)


# 我表姐的名字叫张丽娟 / 我的上司名字叫赵宇轩 / 我同事的姓名是王丽娜: the name of the speaker's one in a role
_ROLE_NAMED = re.compile(
    rf"^(?:我的|我)(?P<role>{ZH_ROLE_WORDS})(?:的){{0,2}}(?:名字|姓名)(?:是|叫做|叫)(?P<name>{_NAME})[。！!]?$"
)


def introduced(text: str, people: People, owner: str) -> tuple[str, list[Found]]:
    """People a clause introduces by name and what they are: each learnt as someone the speaker
    knows, what they are said (Nina 是 护士); the clause with the name in the phrase's place."""
    whole = text.strip()
    m = _ROLE_NAMED.match(whole)  # 我表姐的名字叫张丽娟 → 我 · 表姐 · 张丽娟, not an acquaintance described so
    if m and _may_be_name(m["name"]) and not role_of(m["name"][:2]):
        # and the clause read as what they have (张丽娟 名字叫 张丽娟): asked by its words
        return text, [people.known_as(m["name"], ZH_ROLES[m["role"]][0], owner)]
    if (named := role_of_someone(whole, people, owner)) is not None:
        return "", [named]
    m = _DESCRIBED_IS_CALLED.match(whole)
    if m and m.group("desc") not in ("我的", "我们的", "的") and not _NOT_PEOPLE.search(m.group("what")):
        role = (role_of(m["what"]) or ("熟人",))[0]
        return "", introduce(people, m["name"], role, m["desc"] + m["what"], owner, "是")
    for m in filter(None, (_INTRODUCED.search(text), _NAMED_AFTER.search(text))):
        what, name, before = m.group("what"), m.group("name"), text[: m.start()]
        if _NOT_PEOPLE.search(what) or not _may_be_name(name) or not (name.isascii() or _one_word(name, name)):
            continue
        if re.search(r"[家所座间条只辆本部首款栋]$", before):  # 一家叫字节的公司, 一所叫育才的学校: no one named
            continue
        kin = role_of(what) or role_of(what[-2:]) or role_of(what[-1:])
        had = r"(?:^|[，,])(?:我|我们)(?:上周|上个月|去年|前天|昨天|今年|刚刚|刚|已经|终于)*(?:还|也)?(?:有|生了|添了)$"
        role, said = "熟人", what
        if kin and re.search(had, before):  # 我有个弟弟叫小乐 / 我们上周生了个女儿，叫莉莉: my 弟弟, my 女儿
            # the role word it ends with (德国笔友 → 笔友)
            kin_word = next((what[-n:] for n in (3, 2, 1) if len(what) >= n and role_of(what[-n:])), what)
            plain = re.fullmatch(r"(?:小|大|亲|双胞胎)?", what[: len(what) - len(kin_word)]) is not None
            role, said = kin[0], None if plain else what
        found = introduce(people, name, role, said, owner, "是")
        if m.re is _INTRODUCED:
            return before + name + text[m.end() :], found
        if before.endswith("有"):  # 我有个笔友叫Jonas: someone known, not something had
            return "", found
        if before.endswith(("生了", "添了")):  # 我们上周生了个女儿，叫莉莉: the birth, and who
            return before + "个" + what, found
        return before + name, found
    return text, []


def person_in(text: str, people: People) -> str | None:
    """A person a clause names inside it (…卖给了陈阿姨, …和小雯吃饭): one known by name, or a surname
    with a title (陈阿姨, 李老师) the way one calls them."""
    for said in (people.names[key] for key in sorted(people.names, key=len, reverse=True)):
        if len(said) >= 2 and not said.startswith("我") and said in text:
            return said
    m = re.search(
        rf"[{HAN_CHARS}](?:{'|'.join(sorted(ZH_TITLES, key=len, reverse=True))})(?=$|[^{HAN_CHARS}]|[了的说和])", text
    )
    starts = set(accumulate((len(w) for w, _ in tag(text)), initial=0))  # 琴老师 of 钢琴老师 is no name
    return m[0] if m and _addressed(m[0], text) and m.start() in starts else None
