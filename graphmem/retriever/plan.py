"""Query planning (seed 004 §12.3.1, §12.3.4): how deep to walk, along what, and when. Rules, in
Chinese and English, the cue words below: a question about causes or effects (为什么 为啥 咋 怎么回事
后来呢; why, how come, what's behind, what happened after …) → deep along causal edges only; about
a person's or a thing's connections (关于 是谁 说说; about, who is, tell me about …) → deep along
every edge and concept. Either walks however strong the best direct match is: a why-question's
effect is found directly, its cause only through the graph. A time expression (昨天, 上周, last
week …) → a time range, or for a question about a state at a past time (去年三月我住在哪, "where did
I work in 2024?") what was current then (``as_of``) (a rolling window, 过去三天 or "the past few months", says how far back to
look, not what to look for: ``scope_words`` are neither embedded nor matched); a dialogue (lines
``Speaker: text``) → what the user said (``sought``), its latest line (``latest``) weighing more; in
auto mode, without cue words, a best match below ``limits.deep_threshold`` → deep.
Another planner (a small LLM) plugs in through ``QueryPlanner``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from ..lang import AGENT_NAMES, ROLE_NAMES
from ..timeparse import find_time_range, is_rolling_window
from ..types import RelationType

CAUSAL_RELATIONS = [RelationType.BECAUSE, RelationType.SO, RelationType.CAUSES]

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


def asks_state(query: str) -> bool:
    """Whether a question asks what held (a state), not what happened (an event); see STATE_ZH."""
    for state, event, habit in ((STATE_ZH, EVENT_ZH, HABIT_ZH), (STATE_EN, EVENT_EN, HABIT_EN)):
        if habit.search(query) or (state.search(query) and not event.search(query)):
            return True
    return False


@dataclass
class PlanHints:
    """What a planner read from the query. None means: no opinion."""

    deep: bool | None = None
    asks: str | None = None  # "causes" (or effects), "connections" (of a person or a thing): the walk serves it
    relation_filters: list[RelationType] | None = None
    time_range: tuple[datetime, datetime, str] | None = None  # (start, end exclusive, matched words)
    as_of: tuple[datetime, datetime, str] | None = None  # a past period a state question asks about (the same)
    scope_words: list[str] = field(default_factory=list)  # parts of the query not searched for
    now: bool = False  # it asks what holds now: a newer change goes before what it replaced
    sought: str | None = None  # what the query looks for, when that is not the query itself (a dialogue)
    latest: str | None = None  # a dialogue's latest user line, when it has several: what the reply serves
    why: list[str] = field(default_factory=list)


class QueryPlanner(Protocol):
    """Anything that turns a query into PlanHints (rules by default; an LLM is an option)."""

    name: str

    def plan(self, query: str, reference_time: datetime) -> PlanHints: ...


class RulePlanner:
    name = "rules"

    def plan(self, query: str, reference_time: datetime) -> PlanHints:
        hints = PlanHints()
        turns = dialogue_turns(query)
        if turns is not None:
            said = [text for speaker, text in turns if not is_agent(speaker)] or [text for _, text in turns]
            hints.sought = query = "\n".join(said)
            if len(said) > 1:
                hints.latest = said[-1]
            hints.why.append(
                f"a dialogue of {len(turns)} turns: searched for what the user said "
                f"({len(said)} turns), without speaker names"
            )
        causal = [w for w in CAUSAL_ZH if w in query] + [m.group(0) for m in CAUSAL_EN.finditer(query)]
        causal += [m.group(0) for m in CAUSAL_ZH_HOW.finditer(query)]
        related = [w for w in RELATION_ZH if w in query] + [m.group(0) for m in RELATION_EN.finditer(query)]
        if causal:
            hints.deep, hints.asks = True, "causes"
            hints.relation_filters = list(CAUSAL_RELATIONS)
            hints.why.append(f"causal words {causal[:3]}: deep, along causal edges")
        elif related:
            hints.deep, hints.asks = True, "connections"
            hints.why.append(f"relation words {related[:3]}: deep, along every edge and shared concept")
        found = find_time_range(query, reference_time)
        rolling = found is not None and is_rolling_window(found[2])
        now = reference_time  # without a zone: read in the zone of the time range found
        if found is not None and not now.tzinfo:
            now = now.replace(tzinfo=found[1].tzinfo)
        past = found is not None and found[1] <= now and found[1] - found[0] >= STATE_PERIOD
        if found is not None and not rolling and past and asks_state(query):
            hints.as_of = found  # the time words only scope the search: they are not searched for
            hints.scope_words.append(found[2])
        elif found is not None:
            hints.time_range = found
            if rolling:
                hints.scope_words.append(found[2])
        now_words = [m.group(0) for m in (*NOW_ZH.finditer(query), *NOW_EN.finditer(query))]
        if now_words and hints.as_of is None and turns is None:
            hints.now = True
            hints.why.append(f"{now_words[0]!r} asks what holds now: a newer change goes before what it replaced")
        return hints


# "Name: text", "<Name>: \"text\"", "Name：text": a speaker label of up to 40 characters, no sentence
_TURN = re.compile(r"^\s*<?\s*([^<>:：\n]{1,40}?)\s*>?\s*[:：]\s*(.+?)\s*$")
_TAG = re.compile(r"^\s*<[^<>]*>\s*$")  # a bare tag line such as <BOD>
_QUOTES = "\"'“”‘’「」"
# roles an agent goes by in a transcript, beside the agent's names of the write path
AGENT_SPEAKERS = frozenset(
    AGENT_NAMES | {role for role, is_ in ROLE_NAMES.items() if is_ != "user"} | {"chatbot", "ai assistant", "机器人"}
)


def is_agent(speaker: str) -> bool:
    return " ".join(speaker.casefold().split()) in AGENT_SPEAKERS


def dialogue_turns(query: str) -> list[tuple[str, str]] | None:
    """The (speaker, text) turns of a query that is a dialogue, else None: at least two lines
    read as turns, and no line that is neither a turn nor a bare tag."""
    lines = [line for line in query.splitlines() if line.strip() and not _TAG.match(line)]
    turns = []
    for line in lines:
        match = _TURN.match(line)
        if match is None or " " * 4 in match.group(1):
            return None
        text = match.group(2).strip().strip(_QUOTES).strip()
        if text:
            turns.append((match.group(1).strip(), text))
    return turns if len(turns) >= 2 else None
