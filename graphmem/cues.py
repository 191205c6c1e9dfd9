"""The words that say what a question asks, in Chinese and English (read by the query planner,
``retriever/plan.py``): causes or effects, a person's or a thing's connections, a state at a past
time rather than an event, what holds now."""

from __future__ import annotations

import re
from datetime import timedelta

from .lang import CJK_CHARS
from .lexicon.readings import BY_ID
from .lexicon.roles import ZH_ROLES, roles_said
from .textsim import STOPWORDS, lexical_units
from .types import normalize_name

# cue words of a question about causes or effects (substrings for Chinese, whole words for English)
CAUSAL_ZH = tuple(
    "因为 所以 为什么 为何 为啥 干嘛 咋 怎么回事 怎么会 怎么搞的 原因 缘故 导致 由于 引起 造成 害得 后来呢 后来怎么 然后呢 结果 影响 起因".split()
)
# 怎么 asks why when it asks about what happened (怎么又迟到了, 怎么这么贵, 怎么被扣了, 怎么没赶上),
# not how to do something (怎么做, 怎么去)
CAUSAL_ZH_HOW = re.compile(r"怎么(?=又|这么|那么|会|被|没|不|就|突然|还|总|老是|一直|\S{0,8}?了)")
CAUSAL_EN = re.compile(
    r"\b(why|because|cause[sd]?|causing|reasons?|due to|lead(?:s|ing)? to|led to|how come|what'?s behind|"
    r"what was behind|the story behind|what made|result(?:s|ed)? (?:of|in|from)|consequences?|outcome|"
    r"what happened (?:after|next|then|since)|what came of|effects? (?:of|on)|triggered|brought (?:on|about))\b",
    re.IGNORECASE,
)
# cue words of a question about a person's or a thing's connections
RELATION_ZH = tuple(
    "有关 关于 相关 联系 关系 是谁 谁是 哪位 这个人 那个人 知道些什么 知道什么 了解多少 说说 讲讲 聊聊 介绍一下 情况".split()
)
RELATION_EN = re.compile(
    r"\b(about|related|relates?|relationship|connected|connection|regarding|who(?:'s| is| was| are)|"
    r"tell me about|know about|what about|anything (?:on|about)|the one who|the (?:guy|woman|man|person) (?:i|who))\b",
    re.IGNORECASE,
)
# someone (or something) the question describes instead of naming: 帮我修电脑的人, 新来的技术负责人,
# 我在波尔图认识的那个飞行员; "the pilot I met in Porto", "the builder we hired": the walk goes from
# what the description matches to the rest of what is known of them
# A thing described by what is known of it, the words quoted or not: 那个地点是北京的活动，… / 那个主要内容是"…"的活动
_THING_DESCRIBED = r'那个(?:[^，,。？?！!；;"“”]|["“][^"“”]*["”]){2,80}?的[\u4e00-\u9fff]{1,4}?(?=[，,])'
DESCRIBED_ZH = re.compile(rf"\S的(?:[\u4e00-\u9fff]{{0,4}}?人|那个|那位|这个|这位)|{_THING_DESCRIBED}")
DESCRIBED_EN = re.compile(  # "the X I met": someone known by what happened once, said in the past tense
    r"\b(?i:the) [a-z]+ (?:(?:I|we) (?:[a-z]+ed|met|saw|sold|bought|lent|gave|got|had|took|told|knew|found|made|paid|sent|"
    r"brought|taught|spoke|went|drove|rode|wrote|heard|chose|kept|lost|won|ran|sat|stood|left)|who|that)\b"
)

# A question that counts things (有几个活动…, "how many …") asks the same of each of them: what else is known of one of
# them is not what it asks (``rank.Paths.strong``). Not 哪些 ("which"): 她的爱好有哪些？ asks about one person
COUNTS = re.compile(
    r"(?:几|多少)(?:个|位|名|场|次|项|件|家|种)(?!月|星期|礼拜|小时|钟头|工作日)|\bhow many\b", re.IGNORECASE
)

# A question with a past time asks either what held then (a state: where one lived or worked,
# one's school, job, partner, phone number, car or pet, "what was my ...", "where were we living",
# what one did every day) or what happened then (an event: went, ate, bought, met). A state holds
# from when it began until something replaced it, so it need not have been said or have happened
# inside the period: such a question is answered as of that period (the memories current at some
# moment of it, superseded ones included, later ones left out). An event question keeps the time
# range (what happened inside it). A state word beside an event word ("where did I go last
# March", 去年三月我去了哪) reads as an event unless the question asks about a habit (every day,
# 每天); a period that has not ended (今年, this year) reads as a question about now, and one
# shorter than STATE_PERIOD (昨天, last week: where one stayed on a trip) as one about events.
STATE_PERIOD = timedelta(days=28)
STATE_ZH = re.compile(
    r"住|家在|地址|工作|上班|单位|公司|老板|领导|职业|职位|岗位|上学|读书|念书|学校|专业|教书|电话|手机|号码|邮箱|"
    r"男朋友|女朋友|男友|女友|对象|伴侣|老公|老婆|丈夫|妻子|未婚[夫妻]|恋人|交往|单身|宠物|房租|医生|"
    r"的是(?:什么|谁|多少|哪)|[是在](?:什么|谁|多少|哪)|在(?:学|读|用|养|开|练|租|教|上|做)|有\S{0,8}吗"
)
EVENT_ZH = re.compile(
    r"[做干去吃买看见玩搬办说聊]了|[吃喝买玩]的|发生|遇到|参加|去过|去哪|会议|开会|聚会|旅行|旅游|主持"
)
HABIT_ZH = re.compile(r"每天|每周|每个?月|每年|平时|经常|一直|通常|总是")
STATE_EN = re.compile(
    r"\b(?:live[ds]?|living|resided?|residing|home|house|flat|apartment|address|work(?:s|ed|ing)?|employ(?:ed|er)|"
    r"job|company|office|boss|manager|occupation|profession|stud(?:y|ied|ying)|school|college|university|major|"
    r"teach(?:ing)?|taught|phone|number|e-?mail|partner|boy ?friend|girl ?friend|wife|husband|fianc[ée]e?|"
    r"spouse|dating|married|single|car|pet|rent|doctor|GP|language)\b|"
    r"\b(?:was|were)\s+(?:my|our|I|we)\b|\b(?:was|were)\s+(?:I|we|you|he|she|they)\s+\w+ing\b|"
    r"\bdid\s+(?:I|we)\s+(?:have|own|drive|use|keep|pay)\b",
    re.IGNORECASE,
)
EVENT_EN = re.compile(
    r"\b(?:did\s+(?:I|you|we|he|she|they)\s+(?:do|go|eat|buy|see|visit|watch|meet|play|move)|went|happened|"
    r"visited|bought|ate|met|moved|work(?:ed|ing)?\s+on|trip|meeting|party|talk(?:ed)?\s+about|said|told)\b",
    re.IGNORECASE,
)
# A question about now (我现在住哪, "what car do I have these days?", "do I still eat meat?"): of two
# statements about the same thing, the newer change answers it (``results.newer_first``)
NOW_ZH = re.compile(r"现在|目前|如今|眼下|当前|这阵子|这些天|这段时间|最近|还\S{0,6}吗")
NOW_EN = re.compile(
    r"\b(?:now|nowadays|these days|currently|current|at the moment|at present|still|any ?more|lately)\b", re.I
)
HABIT_EN = re.compile(r"\b(?:every|each)\s+(?:day|week|month|morning|evening)|\b(?:usually|used to|regularly)\b", re.I)


def connection_words(query: str) -> list[str]:
    """The words by which a question asks for a person's or a thing's connections, or describes them."""
    found = [w for w in RELATION_ZH if w in query] + [m.group(0) for m in RELATION_EN.finditer(query)]
    return found + [m.group(0) for m in (*DESCRIBED_ZH.finditer(query), *DESCRIBED_EN.finditer(query))]


def described(query: str) -> str | None:
    """The words by which a question describes someone instead of naming them, without the ask
    around them: 我借钱的那个人 (of 我借钱的那个人，我妈对他是什么看法？), "the guy I lent money to"."""
    m = DESCRIBED_ZH.search(query)
    if m:  # from the start of its clause
        return query[max(query.rfind(c, 0, m.start()) for c in "，,。？?！!；;\n") + 1 : m.end()]
    m = DESCRIBED_EN.search(query)
    return re.split(r"[,.?!;—]", query[m.start() :], maxsplit=1)[0].strip() if m else None


# what a question asks of the one it describes begins after these (其联系电话…, "…, what does he do"): the
# pronoun or the comma says "of them", not what is asked
_HEAD_NOUN = re.compile(r"^[\u4e00-\u9fff]{1,6}?(?=是|叫|有|在|怎|的|[，,？?])")
_ASKED_LEAD = re.compile(r"^(?:[\s，,:：；;]|其|他们|她们|他|她|它|的)+")
# "what does she do?": what someone does (for a living), asked in function words alone
_WHAT_THEY_DO = re.compile(r"\bwhat (?:does|do|did) (?:she|he|they) do\b", re.IGNORECASE)


def asked_part(query: str, description: str) -> str | None:
    """What a question that describes someone asks of them: the question without its description
    (那个61岁的人是在哪里工作的？ → 是在哪里工作的？; "the colleague who lives in Leeds, what is her job?" → "what is her
    job?"), or None when it says no word of what is asked (我住的那个小区是哪个？ asks for the one described; "What
    does the woman who bought my fridge do?": its ask is inside the description)."""
    at = query.find(description)
    if at < 0 or not description:
        return None
    after = query[at + len(description) :]
    if description.endswith(("那个", "这个", "那位", "这位")):  # the noun it describes: 我住的那个|小区|是哪个
        after = _HEAD_NOUN.sub("", after, count=1)
    rest = _ASKED_LEAD.sub("", (query[:at] + " " + after).strip())
    return rest if asked_words(rest) or _WHAT_THEY_DO.search(rest) else None


_MINE = re.compile(r"(?:我的|我|\bmy\s+)$", re.IGNORECASE)  # the speaker's, said before a role


def asks_only_name(query: str) -> bool:
    """Whether a question that names someone by a role asks only who they are: their name (我上司叫什么名字？, "What is
    my boss's name?"), with the role and the speaker's 我/my before it left out."""
    ask = query
    for role in roles_said(query):
        at = ask.find(role)
        mine = _MINE.search(ask[:at]) if at >= 0 else None
        ask = ask if at < 0 else ask[: mine.start() if mine else at] + " " + ask[at + len(role) :]
    return bool(asked_words(ask)) and not asked_words(_NAME_WORDS.sub(" ", ask))


# 名字, 叫, name …: a question that asks only these asks who someone is
_NAME_WORDS = re.compile("|".join(sorted(map(re.escape, BY_ID["name"].words), key=len, reverse=True)), re.IGNORECASE)


# the characters of a Chinese question that say it asks, not what it asks about (是什么, 在哪里, 来着)
_ASKING = frozenset("是什么哪里个呢吗啊呀来着多少谁怎啥的了在其他她们一下点儿干要")


def asked_words(asked: str) -> set[str]:
    """The words of what a question asks (``asked_part``) that a memory answering it shares: 工作 of
    是在哪里工作的呢, none of its asking (是 在 哪里 呢) nor a pair of characters with one of them."""
    return {u for u in description_words(asked) if not _ASKING.intersection(u) or u.isascii()}


def description_words(description: str) -> set[str]:
    """The words and characters a memory must share to fit a description (``described``): not its
    function words (the, who; 的 那 个 人 我)."""
    return {u for u in lexical_units(description) if u not in STOPWORDS and u.strip("的那这个位人我")}


def asks_state(query: str) -> bool:
    """Whether a question asks what held (a state), not what happened (an event); see STATE_ZH."""
    for state, event, habit in ((STATE_ZH, EVENT_ZH, HABIT_ZH), (STATE_EN, EVENT_EN, HABIT_EN)):
        if habit.search(query) or (state.search(query) and not event.search(query)):
            return True
    return False


# Topics that say where someone lived or worked before (the extractor's words for a past home or
# job): the slot whose present value a question about now wants before them.
_PAST_OF_SLOT = {"曾住在": "residence", "lived in": "residence", "曾工作于": "employer", "worked at": "employer"}


def past_slot(topic: str) -> str | None:
    """The slot a topic tells the past of (曾住在 / "lived in" → residence), or None."""
    return _PAST_OF_SLOT.get(topic)


# A question that takes back what came before it ("……不对，我真正想问的是：那个活动在哪？", "…
# scratch that, where does Tom live?"): what precedes the marker is chatter, not what is sought.
# A marker is a retraction (真正/本来/其实/实际上 想问的是; 不对 / 等等 / 停一下 at the start of a sentence,
# then a comma) or its English like ("what I really wanted to ask is", "scratch that", "never
# mind that"). A plain 我想问的是 / "what I want to know is" takes nothing back (what precedes it
# may be the question's context), and a question of several parts (另外, 还有; "also") keeps each
# part: only the chatter inside a part before its last marker goes.
_SENTENCE_START = r"(?:^|(?<=[。！？!?；;….\n]))\s*"
_TAKE_BACK_ZH = re.compile(
    r"(?:我|俺)?(?:真正|真的|本来|原本|其实|实际上)(?:我)?(?:最)?想要?(?:问|说|了解|知道|打听|请教)的?(?:问题|事情?)?(?:其实)?是(?:这个)?"
    r"|(?:其实|实际上)我?(?:那个|的)?问题是(?:这个)?"
    f"|{_SENTENCE_START}(?:(?:等等|等一下|停一下|不对|哦不|不是|说错了|搞错了)[，,、！!]\\s*(?:(?:诶|哎|额|呃|嗯|啊)[，,、！!]\\s*)*)+"
)
_TAKE_BACK_EN = re.compile(
    r"\b(?:what I (?:really|actually) (?:want(?:ed)?|meant|mean|need(?:ed)?) to (?:ask|know|say)(?: about)?(?: is| was)?"
    r"|what I meant (?:to ask )?(?:is|was)|my (?:real|actual) question (?:is|was)"
    r"|scratch that|never mind (?:that|all that|all this)|forget (?:that|all that|what I said))\b",
    re.IGNORECASE,
)
_PARTS = re.compile(f"{_SENTENCE_START}(?=(?:另外|还有|此外)[，,]|(?:also|and also)\\b\\s*,?)", re.IGNORECASE)
_MARKER_TAIL = re.compile(r"^[\s:：，,、.!！]*")
_LEAD_WORD = re.compile(r"^(?:另外|还有|此外|and also|also)[\s，,]*", re.IGNORECASE)


def taken_back(query: str) -> tuple[str, list[str]] | None:
    """The query without the chatter a retraction takes back, and the markers read (None: none)."""
    cuts = [0, *(m.start() for m in _PARTS.finditer(query) if m.start() > 0), len(query)]
    kept, markers = [], []
    for start, end in zip(cuts, cuts[1:]):
        part = query[start:end]
        last = None
        for m in (*_TAKE_BACK_ZH.finditer(part), *_TAKE_BACK_EN.finditer(part)):
            if m.group(0).strip() and (last is None or m.end() > last.end()):
                last = m
        if last is not None and part[last.end() :].strip(" \t\n:：，,、.!！"):
            markers.append(last.group(0).strip(" ，,、"))
            part = part[last.end() :]
            part = part[_MARKER_TAIL.match(part).end() :]  # type: ignore[union-attr]
        kept.append(part.strip())
    if not markers:
        return None
    return " ".join(p for p in kept if p), markers


def question_parts(query: str) -> list[str]:
    """The questions of a query that asks several, joined by 另外 / 还有 / 此外 or "also" at the start
    of a sentence, each ending in a question mark ("小王的邮箱是什么？另外，那个活动在哪？"); one
    part: the query itself."""
    cuts = [0, *(m.start() for m in _PARTS.finditer(query) if m.start() > 0), len(query)]
    parts = [query[a:b].strip() for a, b in zip(cuts, cuts[1:])]
    parts = [_LEAD_WORD.sub("", p, count=1) for p in parts if p]
    if len(parts) < 2 or not all(re.search(r"[?？]", p) for p in parts):
        return [query]
    return parts


# --- the names a question may say (retriever.subjects looks them up) ---
MAX_WORDS = 3  # a name is at most this many words ("Jean Luc Picard")
MAX_HAN = 4  # ... or this many CJK characters (欧阳小明)
_LETTERS = f"[^\\W_{CJK_CHARS}]+"  # a word's letters and digits, CJK apart
_WORD = re.compile(f"{_LETTERS}(?:[-'’]{_LETTERS})*")
_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$", re.IGNORECASE)


def name_candidates(query: str, limit: int = 200) -> list[str]:
    """The normalised names a query could be naming: its runs of up to MAX_WORDS words ("'s" dropped; one word not a
    stop word), the substrings of 2 to MAX_HAN characters of its CJK runs, a role said bare as the speaker's."""
    out: dict[str, None] = {}
    words = [_POSSESSIVE.sub("", w) for w in _WORD.findall(query)]
    for n in range(1, MAX_WORDS + 1):
        for i in range(len(words) - n + 1):
            run = words[i : i + n]
            if n == 1 and run[0].casefold() in STOPWORDS:
                continue
            out[normalize_name(" ".join(run))] = None
    for run in _CJK_RUN.findall(query):
        for size in range(2, MAX_HAN + 1):
            for i in range(len(run) - size + 1):
                out[normalize_name(run[i : i + size])] = None
                if run[i : i + size] in ZH_ROLES:  # 舅舅的单位…: the speaker's, as the reader names them (我舅舅)
                    out["我" + run[i : i + size]] = None
    return [n for n in out if n and not n.startswith("@")][:limit]
