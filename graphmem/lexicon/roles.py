"""Role words in Chinese and English (kin, partners, the people of work and school, pets), each with its
canonical name (老婆 → 妻子, mom → mother: one Topic node a role) and the gender it implies; the heads
that may carry what they teach or treat (钢琴老师, piano teacher); pronouns; how a named owner's things
are written. Read by extraction, the write path (``builder.create``) and search (``retriever``).
"""

from __future__ import annotations

import re

from ..types import normalize_name

# the topics that say what someone is, or where they are from (Omar is from Cairo, 阿凯是广东人 → 来自 广东):
# a description of them ("the retired teacher", 那个广东同事)
WHAT_TOPICS = ["is a", "是"]
WHENCE_TOPICS = ["is from", "来自"]
IDENTITY_TOPICS = WHAT_TOPICS + WHENCE_TOPICS
# A person's name in English, kept whole: a title and initials before it, a second name after it
# (Rosa, Mrs Ortiz, Dr. Okafor, Mr. T. Kim, Jo Lee, Mary-Jane, O'Brien, McKay).
TITLE_WORDS = "Mr|Mrs|Ms|Dr|Miss|Prof"
TITLE = rf"(?:(?:{TITLE_WORDS})\.? )"
_WORD = r"[A-Z][a-z]*(?:'[A-Z])?[a-z]+(?:[A-Z][a-z]+)?"
_LATIN_NAME = rf"{TITLE}?(?:[A-Z]\. ?){{0,2}}{_WORD}(?:[ -]{_WORD})?"
# a name in an English sentence: Latin, or Chinese (My boss 王强 …, Dr. 李 …)
PERSON_NAME = rf"(?:{_LATIN_NAME}|{TITLE}[一-鿿]{{1,3}}|[一-鿿]{{2,4}}(?![一-鿿]))"
# a subject's name that is a person's when no role was said of them
NAMED_PATTERN = _LATIN_NAME

# A person's attributes (学历, 家乡, email …): said after a role they are the role's (我的同事家乡是成都),
# never a name; alone, a subject whose owner was cut off ("学历 是 硕士" of 我的上司学历是硕士).
ATTRIBUTE_WORDS = frozenset(
    "学历|身高|体重|年龄|名字|姓名|生日|电话|手机号|联系电话|邮箱|邮箱地址|性别|性格|职业|职位|家乡|老家|爱好|兴趣爱好|"
    "单位|工作单位|单位名称|公司名称|工作地|工作地点|工作的地方|工作的城市|教育背景|籍贯|住址|"
    "name|age|height|weight|birthday|email|phone|phone number".split("|")
)


def _roles(table: str) -> dict[str, tuple[str, str | None]]:
    """Role words from ``words gender`` entries, a comma between them: the words with a | between them,
    the first the canonical role unless another follows an =; the gender f, m or - (none said)."""
    out: dict[str, tuple[str, str | None]] = {}
    for entry in table.split(","):
        said, gender = entry.strip().rsplit(" ", 1)
        words, _, canon = said.partition("=")
        for w in words.split("|"):
            out[w] = (canon or words.split("|")[0], None if gender == "-" else gender)
    return out


# --- role words: canonical role, gender
ZH_ROLES = _roles(
    "表妹 f, 表姐 f, 表哥 m, 表弟 m, 堂妹 f, 堂姐 f, 堂哥 m, 堂弟 m, 姐姐|姐 f, 妹妹|妹 f, 哥哥|哥 m, 弟弟|弟 m, "
    "妈妈|母亲|老妈|妈 f, 爸爸|父亲|老爸|爸 m, 儿子 m, 女儿 f, 老婆|妻子|太太|爱人=妻子 f, 老公|丈夫|先生=丈夫 m, "
    "男朋友|男友 m, 女朋友|女友 f, 未婚夫 m, 未婚妻 f, 爷爷 m, 奶奶 f, 外公|姥爷 m, 外婆|姥姥 f, 叔叔 m, "
    "大伯|伯伯|伯父=伯父 m, 婶婶|婶子 f, 舅妈|舅母 f, 姨妈|小姨|姨母 f, 舅舅 m, 阿姨 f, 姑姑 f, 侄子|外甥 m, "
    "侄女|外甥女 f, 孙子|外孙 m, 孙女|外孙女 f, 婆婆 f, 公公 m, 岳母|丈母娘 f, 岳父|老丈人 m, 儿媳|儿媳妇 f, "
    "女婿 m, 嫂子 f, 姐夫 m, 弟媳 f, 妹夫 m, 老伴 -, 配偶 -, 熟人 -, 闺蜜 f, "
    "最好的朋友|好朋友|朋友|好友|哥们儿|哥们|发小|死党=朋友 -, 同事 -, 老板|上司|领导 -, 下属|手下 -, 室友|舍友|大学室友=室友 -, "
    "邻居 -, 同学|老同学|大学同学|高中同学|初中同学|小学同学=同学 -, "
    "导师 -, 师傅 -, 房东 -, 班主任 -, 牙医 -, 笔友|网友 -, 合伙人 -, 爸妈|父母=父母 -, 狗狗|小狗|狗=狗 -, "
    "猫咪|小猫|猫=猫 -, 仓鼠 -, 兔子 -, 鹦鹉 -, 金鱼 -, 乌龟 -"
)
# Roles that may carry what they teach, coach or treat: 钢琴老师, 健身教练, 牙科医生, piano teacher, family doctor
ZH_ROLE_HEADS = ("老师", "教练", "医生", "大夫", "教授", "家教")
EN_ROLE_HEADS = ("teacher", "coach", "instructor", "tutor", "trainer", "doctor", "dentist", "professor")

# boss, manager and supervisor are one role, as 老板 / 上司 / 领导: "my boss" means "my new manager Linda"
EN_ROLES = _roles(
    "mother|mom|mum|mommy|mama f, father|dad|daddy|papa m, sister|sis f, brother|bro m, wife f, husband m, "
    "girlfriend f, boyfriend m, fiancée|fiancee=fiancee f, fiancé|fiance=fiance m, son|baby boy m, "
    "daughter|baby girl f, aunt|auntie f, uncle m, niece f, nephew m, grandson m, granddaughter f, "
    "grandchild|grandkid -, mother-in-law|mother in law f, father-in-law|father in law m, "
    "sister-in-law|sister in law f, brother-in-law|brother in law m, daughter-in-law|daughter in law f, "
    "son-in-law|son in law m, stepson m, stepdaughter f, acquaintance -, grandmother|grandma|granny|nana f, "
    "grandfather|grandpa|granddad m, stepmother|stepmom f, stepfather|stepdad m, landlady f, cousin -, best friend -, "
    "friend|buddy|pal -, partner -, spouse -, boss|manager|supervisor -, colleague|coworker|co-worker -, subordinate -, "
    "roommate|flatmate|housemate -, neighbor|neighbour -, classmate -, mentor -, pen pal|penpal|pen friend -, "
    "landlord -, therapist -, dog -, cat -, hamster -, rabbit|bunny=rabbit -, parrot -, goldfish -"
)
# Roles of people spoken of together, whom a "they" / 他们 may mean (父母 / 爸妈 in Chinese): parents, and
# several of one role ("my brothers live in London")
EN_TOGETHER = _roles(
    "parents|folks -, kids|children=children -, grandparents -, in-laws|in laws -, brothers -, sisters -, "
    "siblings -, cousins -, aunts -, uncles -, nieces -, nephews -, sons -, daughters -, best friends -, "
    "grandkids|grandchildren=grandchildren -, friends|buddies=friends -, classmates -, "
    "colleagues|coworkers|co-workers=colleagues -, neighbors|neighbours=neighbors -, "
    "roommates|flatmates|housemates=roommates -"
)
EN_ROLES |= EN_TOGETHER
TOGETHER = frozenset({canon for canon, _ in EN_TOGETHER.values()} | {"父母"})
# The roles of the table that are animals kept (a pet is had, as a thing is, and is named as a person is)
PETS = frozenset("dog cat hamster rabbit parrot goldfish 狗 猫 仓鼠 兔子 鹦鹉 金鱼 乌龟".split())

# Roles of work, school and acquaintance: not a person's family or household (Ruth's husband, 老周的老伴
# and his grandson are about Ruth and 老周; her colleague is not)
NOT_KIN = frozenset(
    "boss manager colleague subordinate classmate mentor landlord therapist 同事 老板 同学 导师 师傅 房东 合伙人 熟人".split()
)
# How one addresses someone by surname and title (陈阿姨, 李老师, 王先生)
ZH_TITLES = frozenset(
    "阿姨 老师 叔叔 先生 太太 女士 师傅 大爷 大妈 奶奶 爷爷 医生 姐姐 哥哥 教练 教授 律师 大夫".split()
)
# The commonest Chinese surnames (about nine in ten people bear one): a two-character name, or one the tagger
# splits (刘|晨曦), is read as a name only when it opens with one
ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪"
    "范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)

_EN_ROLE_ALT = "|".join(sorted((re.escape(w) for w in EN_ROLES), key=len, reverse=True))
ZH_ROLE_WORDS = "|".join(sorted(ZH_ROLES, key=len, reverse=True))  # the role words of the list, the longest first
# "my cousin", "my piano teacher", "my best friend": a modifier only before a head that takes one.
EN_ROLE = rf"(?:(?:[A-Za-z]+ )?(?:{'|'.join(EN_ROLE_HEADS)})|{_EN_ROLE_ALT})"
ZH_ROLE = rf"(?:[\u4e00-\u9fff]{{1,3}}?(?:{'|'.join(ZH_ROLE_HEADS)})|{ZH_ROLE_WORDS}|{'|'.join(ZH_ROLE_HEADS)})"

# An animal brought up by what it is: "this cute pup", "my dog", "a new kitten"; 一只小猫, 我家狗狗
ANIMAL = re.compile(
    r"\b(?:a|an|this|that|my|our|new)\b(?:\s+[\w'-]+){0,2}?\s+(?:pup|puppy|puppies|dog|doggo|cat|kitten|kitty|"
    r"kittens|horse|pony|bunny|rabbit|hamster|parrot|budgie|tortoise|turtle)\b|小狗|狗狗|小猫|猫咪|[只条][小]?[狗猫]|鹦鹉|兔子|仓鼠",
    re.IGNORECASE,
)
PRONOUN_GENDER = {"她": "f", "他": "m", "she": "f", "he": "m", "her": "f", "him": "m", "his": "m"}
_ROLES = {**ZH_ROLES, **EN_ROLES}
# Modifiers that say which one, not what they teach: "my old teacher" is a teacher.
_EN_NOT_MODIFIERS = {"old", "new", "former", "current", "favorite", "favourite", "own", "first", "other", "the", "a"}


def role_of(word: str) -> tuple[str, str | None] | None:
    """(canonical role, gender) of a role word in Chinese or English, or None: 老婆 → (妻子, f),
    mom → (mother, f), 钢琴老师 → (钢琴老师, None), piano teacher → (piano teacher, None)."""
    w = " ".join(word.strip().lower().split())
    if w in _ROLES:
        return _ROLES[w]
    if w.endswith(ZH_ROLE_HEADS) and len(w) <= 6:
        return w, None
    parts = w.split(" ")
    if len(parts) == 2 and parts[0] in _EN_NOT_MODIFIERS and parts[1] in (*EN_ROLES, *EN_ROLE_HEADS):
        return EN_ROLES.get(parts[1], (parts[1], None))
    return (w, None) if parts[-1] in EN_ROLE_HEADS and len(parts) <= 2 else None


def role_words(role: str) -> list[str]:
    """The words of a canonical role in both languages (老板 → 老板, 上司, 领导; boss → boss, manager,
    supervisor); a role no table lists (钢琴老师) is its own word."""
    words = [w for w, (canon, _) in _ROLES.items() if canon == role]
    return words or [role]


_ONE_OF = {r: one[0] for r in TOGETHER if (one := role_of(r[:-1]))} | {"grandchildren": "grandchild"}


def one_of(role: str) -> str:
    """The role of one of several spoken of together (friends → friend, colleagues → colleague: "my friends
    Rachel and Mike" are each a friend); any other role as it is (parents, 父母: no role of one)."""
    return _ONE_OF.get(role, role)


# Roles that hold both ways (if Jess is my friend, I am hers): what "Jess and I are friends" and 我跟小静是同学 say
# of the other one
MUTUAL = frozenset(
    "friend, best friend, classmate, colleague, roommate, neighbor, cousin, sibling, brother, sister, "
    "朋友, 同学, 同事, 室友, 邻居, 闺蜜".split(", ")
)


def mutual_words(chinese: bool) -> str:
    """The words of the roles that hold both ways as one alternation, the longest first: English ones said of two
    together (friends, coworkers, sisters), Chinese ones as said (同学, 好朋友, 发小)."""
    words = [w for w, (canon, _) in (ZH_ROLES if chinese else EN_TOGETHER).items() if one_of(canon) in MUTUAL]
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def title_gender(name: str) -> str | None:
    """The gender a name's title says: Mr Patel, 王先生 → m; Mrs Lee, Ms Park, Miss Ada, 陈阿姨, 李女士 → f."""
    if m := re.match(r"^(Mr|Mrs|Ms|Miss)\b", name):
        return "m" if m.group(1) == "Mr" else "f"
    if name.endswith(("先生", "大爷", "叔叔", "大伯")):
        return "m"
    if name.endswith(("女士", "太太", "阿姨", "大妈", "小姐", "姐")):
        return "f"
    return None


def possessive(owner: str, chinese: bool) -> str:
    """How a named owner's things are written: Ivy's, James', 小王的."""
    if chinese:
        return f"{owner}的"
    return f"{owner}'" if owner.endswith("s") else f"{owner}'s"


_ROLE_WORDS = re.compile(rf"\b(?:{EN_ROLE})s?\b|{ZH_ROLE}", re.IGNORECASE)


def roles_said(text: str) -> list[str]:
    """The role words ``text`` says, as said: 我叔叔的家乡… → 叔叔; "my son's tutor" → son's tutor."""
    return [m.group(0) for m in _ROLE_WORDS.finditer(text)]


def _owns(text: str, m: re.Match, found: list[re.Match]) -> bool:
    """The role word ``m`` is followed by 's and another role word ("my cousin's husband")."""
    return text[m.end() : m.end() + 2] in ("'s", "’s") and any(m.end() < n.start() <= m.end() + 3 for n in found)


def unnamed_in(text: str, roles: list[str]) -> list[str]:
    """The names the reader gives the speaker's ones in the roles ``text`` says (``roles``: their canonical words)
    when no name was said for them (我叔叔, my cousin): the role as said or canonical, after 我 or "my"; not a role
    that only says whose the asked one is (the son of "my son's tutor")."""
    found = list(_ROLE_WORDS.finditer(text))
    # "my son's tutor", 我儿子的家教: the son is how the tutor is found, not whom the text asks about
    owners = {
        normalize_name(part)
        for m in found
        for part in re.split(r"(?:'s|’s)\s+|的", m.group(0))[:-1] + ([m.group(0)] if _owns(text, m, found) else [])
        if part
    }
    owners |= {normalize_name(role[0]) for part in owners if (role := role_of(part))}
    said = {*roles, *(normalize_name(m.group(0)) for m in found)} - owners
    return [normalize_name(f"{mine}{role}") for role in said for mine in ("我", "my ")]


def roles_in(text: str) -> list[str]:
    """The canonical roles of the role words ``text`` says, each also by its head word: 我儿子的家教
    → 儿子的家教, 家教; "my son's tutor" → son, tutor; "the neighbours" → neighbour."""
    out: list[str] = []
    for m in _ROLE_WORDS.finditer(text):
        said = m.group(0).lower()
        heads = [h for h in (*ZH_ROLE_HEADS, *EN_ROLE_HEADS) if said.endswith(h)]
        last = said.split()[-1]
        for word in (said, last, last.removesuffix("s"), *heads):
            found = role_of(word)
            if found and normalize_name(found[0]) not in out:
                out.append(normalize_name(found[0]))
    return out
