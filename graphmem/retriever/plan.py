"""Query planning: how deep to walk, along what, and when. Rules, in
Chinese and English, the cue words below: a question about causes or effects (为什么 为啥 咋 怎么回事
后来呢; why, how come, what's behind, what happened after …) → deep along causal edges only; about
a person's or a thing's connections (关于 是谁 说说; about, who is, tell me about …) → deep along
every edge and concept. Either walks however strong the best direct match is: a why-question's
effect is found directly, its cause only through the graph. A time expression (昨天, 上周, last
week …) → a time range, or for a question about a state at a past time (去年三月我住在哪, "where did
I work in 2024?") what was current then (``as_of``) (a rolling window, 过去三天 or "the past few months", says how far back to
look, not what to look for: ``scope_words`` are neither embedded nor matched); a dialogue (lines
``Speaker: text``) → what the user said (``sought``), its latest line (``latest``) weighing more; in
auto mode, without cue words, a best match below ``limits.deep_threshold`` → deep. A question that
takes back what came before it (不对，我真正想问的是…; "scratch that, …": ``cues.taken_back``) is read
and searched from the marker on: the chatter before it chooses nothing and its time words narrow nothing.
Another planner (a small LLM) plugs in through ``QueryPlanner``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from ..cues import (
    CAUSAL_EN,
    CAUSAL_ZH,
    CAUSAL_ZH_HOW,
    NOW_EN,
    NOW_ZH,
    STATE_PERIOD,
    asks_state,
    connection_words,
    taken_back,
)
from ..lang import AGENT_NAMES, ROLE_NAMES
from ..timeparse import find_time_range, is_rolling_window
from ..types import RelationType

CAUSAL_RELATIONS = [RelationType.BECAUSE, RelationType.SO, RelationType.CAUSES]


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
                f"({len(said)} turn{'' if len(said) == 1 else 's'}), without speaker names"
            )
        back = taken_back(query)
        if back is not None:
            hints.sought = query = back[0]
            hints.why.append(f"{back[1][-1]!r} takes back what came before it: searched for {query!r}")
        causal = [w for w in CAUSAL_ZH if w in query] + [m.group(0) for m in CAUSAL_EN.finditer(query)]
        causal += [m.group(0) for m in CAUSAL_ZH_HOW.finditer(query)]
        related = connection_words(query)
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
