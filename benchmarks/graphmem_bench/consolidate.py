"""`graphmem bench consolidate`: a synthetic life log with known answers, consolidated and scored.

The life log (``generate_life_log``) is deterministic. Users alternate between Chinese and
English; each says ``memories_per_user`` things over six months (START to END), every memory
on a day of its own, written with that day as its created_at. Each user's log plants:

- names of one thing that should end on one concept node, by kind: ``normalized`` (case,
  width, spaces: ＡＣＭＥ/ACME, NEW YORK/New York), ``script`` (臺灣/台灣/台湾, 電腦/电脑),
  ``spelling`` (theatre/theater, e-mail/email), ``synonym`` (film/movie, 爵士乐/爵士, 杭州/杭州市);
- look-alikes that must stay apart: 苹果 (吃) vs 苹果公司 (工作单位) vs 苹果手机, 小明 vs 小红,
  Paris vs "Paris, Texas" (and Paris the person, a subject), iPhone 14 vs iPhone 15 …;
- whole memories said twice on different days;
- updates, the newer months after the older: residence, employer, age, a preference turned
  negative, an explicit correction (其实… / actually …), each with a question in the user's
  language ("我住在哪里", "where do I work");
- look-alike statements that are both true (I like apples + I like pears, 我去过北京 + 我去过南京);
- old trivia: in each of the first three months, a burst of low-importance events of one
  subject and topic (what decay archives and summaries fold);
- everyday events to fill the rest.

What the embedding makes of the names (cosine of the stored concept vectors of the default
model, multilingual-e5-small+all-MiniLM-L6-v2; resolution merges above 0.95, and from 0.85 when
the contexts agree): script 0.83–0.89, spelling 0.87–0.96, synonym 0.86–0.91. Two more kinds are
the same thing to a person but not to the model: ``synonym_weak`` (心情/情绪 0.76, 番茄/西红柿
0.57, sofa/couch 0.84) and ``crosslingual`` (纽约/New York 0.49, 熊猫/panda 0.29; a Chinese and
an English name reach at most 0.71 with the dual model). Their recall is reported apart and not
held to the target. The look-alikes are as close: iPhone 14/iPhone 15 0.87, 华为P50/华为P60 0.85,
tennis/table tennis 0.82, 苹果/苹果公司 0.79.

``run_consolidate_bench`` writes each user's log into a throw-away group, runs
``graph.consolidate(group, now=END)`` and scores the run against the planted answers (see
``run_consolidate_bench``); the groups are deleted afterwards.
"""

from __future__ import annotations

import random
import shlex
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import combinations
from typing import Any

import typer

from graphmem.bench.write import machine
from graphmem.builder.create import render_text
from graphmem.cli._common import ConfigOption, console, open_graph, print_json
from graphmem.cli.bench_cmd import mark
from graphmem.lexicon.topics import loose_key
from graphmem.store.admin import delete_group

from .common import query

START = datetime(2025, 5, 1, tzinfo=UTC)  # the first day of every life log
DAYS = 184  # six months of days
END = START + timedelta(days=DAYS)  # the consolidation's "now": the day after the log
TRIVIA_MONTHS = 3  # a burst of trivia in each of the first months (old enough to fade by END)
BURST_SIZE = 5  # events per burst: several of one subject and topic in one month
DUPLICATE_FACTS_PER_USER = 2  # whole memories each user says twice
WRITE_BATCH = 500  # memories per create_memories call
SEARCH_RESULTS = 5  # results asked for each "what is current" question
EXAMPLES = 20  # wrong merges, missed merges and failed questions listed in the report

# The targets of issue 18: precision, recall and accuracy at least, seconds_per_10k at most.
TARGETS = {
    "merge_precision": 0.98,
    "merge_recall": 0.90,
    "conflict_precision": 0.95,
    "conflict_recall": 0.85,
    "current_accuracy": 0.95,
    "seconds_per_10k": 120.0,
}
TARGET_KINDS = ("normalized", "script", "spelling", "synonym")  # the kinds merge recall is held to

Pair = tuple[str, str, str]  # (label, name, name), the names sorted: two names of one concept label


# --- what the log plants ------------------------------------------------------------------
@dataclass(frozen=True)
class NameCase:
    """Names of one thing, each said in a memory of its own with the same context."""

    kind: str  # normalized | script | spelling | synonym | synonym_weak | crosslingual
    label: str  # Object: the names are objects of ``context`` (a topic); Topic: the reverse
    names: tuple[str, ...]
    context: str


@dataclass(frozen=True)
class LookAlike:
    """Two names that look alike and name different things, each with the memory that uses it."""

    label: str  # Subject or Object
    first: tuple[str, str, str, str]  # (subject, memory_type, topic, object)
    second: tuple[str, str, str, str]

    @property
    def pair(self) -> Pair:
        at = 0 if self.label == "Subject" else 3
        return _pair(self.label, self.first[at], self.second[at])


@dataclass(frozen=True)
class UpdateCase:
    """A single-valued fact or an opinion said once, then replaced months later."""

    slot: str  # residence | employer | age | preference | correction
    memory_type: str
    topic: str  # the older memory's topic
    new_topics: tuple[str, ...]  # the newer memory's topic: one of these
    values: tuple[str, ...]  # the objects the two memories are drawn from
    change: str  # other: another value | same: the same object | next: the next value
    question: str  # {object}: the object of the memories
    note: dict[str, str] = field(default_factory=dict)  # attributes of the newer memory ({object} filled)


NAME_CASES = {
    "zh": (
        NameCase("normalized", "Object", ("ＡＣＭＥ", "ACME", "Acme"), "网购"),
        NameCase("normalized", "Object", ("ｉＰａｄ", "iPad", "IPAD"), "用"),
        NameCase("script", "Object", ("臺灣", "台灣", "台湾"), "旅行"),
        NameCase("script", "Object", ("電腦", "电脑"), "修"),
        NameCase("script", "Object", ("圖書館", "图书馆"), "自习"),
        NameCase("synonym", "Object", ("爵士乐", "爵士"), "听"),
        NameCase("synonym", "Object", ("杭州", "杭州市"), "出差"),
        NameCase("synonym", "Object", ("舞蹈课", "跳舞课"), "上"),
        NameCase("synonym_weak", "Topic", ("心情", "情绪"), "不错"),
        NameCase("synonym_weak", "Object", ("番茄", "西红柿"), "买"),
        NameCase("crosslingual", "Object", ("纽约", "New York"), "旅行"),
        NameCase("crosslingual", "Object", ("熊猫", "panda"), "看"),
    ),
    "en": (
        NameCase("normalized", "Object", ("New York", "new york", "NEW YORK"), "flew to"),
        NameCase("normalized", "Object", ("ＩＫＥＡ", "IKEA", "Ikea"), "shopped at"),
        NameCase("spelling", "Object", ("theatre", "theater"), "saw a play at"),
        NameCase("spelling", "Object", ("yoghurt", "yogurt"), "bought"),
        NameCase("spelling", "Object", ("e-mail", "email"), "wrote"),
        NameCase("synonym", "Object", ("film", "movie"), "watched"),
        NameCase("synonym", "Object", ("bike", "bicycle"), "rode"),
        NameCase("synonym", "Object", ("cell phone", "mobile phone"), "repaired"),
        NameCase("synonym_weak", "Object", ("sofa", "couch"), "cleaned"),
        NameCase("crosslingual", "Object", ("Shanghai", "上海"), "visited"),
        NameCase("crosslingual", "Object", ("dumplings", "饺子"), "made"),
    ),
}

LOOKALIKES = {
    "zh": (
        LookAlike("Object", ("我", "EVENT", "吃", "苹果"), ("小明", "FACT", "工作单位", "苹果公司")),
        LookAlike("Object", ("我", "EVENT", "吃", "苹果"), ("我", "EVENT", "买", "苹果手机")),
        LookAlike("Object", ("妈妈", "EVENT", "买", "华为P50"), ("我", "EVENT", "买", "华为P60")),
        LookAlike("Object", ("我", "EVENT", "喝", "红茶"), ("我", "EVENT", "喝", "绿茶")),
        LookAlike("Object", ("我", "EVENT", "坐", "一号线"), ("我", "EVENT", "坐", "二号线")),
        LookAlike("Subject", ("小明", "EVENT", "跑步", "公园"), ("小红", "EVENT", "跑步", "公园")),
    ),
    "en": (
        LookAlike("Object", ("I", "EVENT", "visited", "Paris"), ("I", "EVENT", "drove to", "Paris, Texas")),
        LookAlike("Object", ("I", "EVENT", "bought", "iPhone 14"), ("Mark", "EVENT", "bought", "iPhone 15")),
        LookAlike("Object", ("I", "EVENT", "visited", "grandmother"), ("I", "EVENT", "visited", "grandfather")),
        LookAlike("Object", ("I", "EVENT", "played", "tennis"), ("I", "EVENT", "played", "table tennis")),
        LookAlike("Subject", ("Mark", "EVENT", "went to", "the gym"), ("Mary", "EVENT", "went to", "the gym")),
    ),
}
# Paris the person: a subject, never the city's node (a name alone cannot tell them apart)
PARIS_THE_PERSON = ("Paris", "EVENT", "painted", "a portrait of me")

UPDATES = {
    "zh": (
        UpdateCase(
            "residence",
            "FACT",
            "居住地",
            ("居住地", "搬到"),
            ("北京", "上海", "广州", "成都", "武汉", "西安"),
            "other",
            "我住在哪里",
        ),
        UpdateCase(
            "employer",
            "FACT",
            "工作单位",
            ("工作单位", "入职"),
            ("腾讯", "阿里巴巴", "字节跳动", "百度", "京东", "美团"),
            "other",
            "我在哪里工作",
        ),
        UpdateCase("age", "FACT", "年龄", ("年龄",), tuple(f"{n}岁" for n in range(24, 41)), "next", "我今年多大"),
        UpdateCase(
            "preference",
            "OPINION",
            "喜欢",
            ("不喜欢", "讨厌"),
            ("咖啡", "香菜", "榴莲", "下雨天"),
            "same",
            "我喜欢{object}吗",
        ),
        UpdateCase(
            "correction",
            "FACT",
            "生日",
            ("生日",),
            ("3月5日", "3月15日", "5月3日", "8月21日", "11月2日"),
            "other",
            "我的生日是哪天",
            {"备注": "其实是{object}，之前说错了"},
        ),
    ),
    "en": (
        UpdateCase(
            "residence",
            "FACT",
            "lives in",
            ("lives in", "moved to"),
            ("Boston", "Denver", "Seattle", "Austin", "Chicago", "Portland"),
            "other",
            "where do I live",
        ),
        UpdateCase(
            "employer",
            "FACT",
            "works at",
            ("works at", "joined"),
            ("Acme", "Globex", "Initech", "Hooli", "Umbrella", "Wayne Enterprises"),
            "other",
            "where do I work",
        ),
        UpdateCase("age", "FACT", "age", ("age",), tuple(str(n) for n in range(24, 41)), "next", "how old am I"),
        UpdateCase(
            "preference",
            "OPINION",
            "like",
            ("no longer like", "hate"),
            ("jazz", "coffee", "sushi", "horror movies"),
            "same",
            "do I like {object}",
        ),
        UpdateCase(
            "correction",
            "FACT",
            "birthday",
            ("birthday",),
            ("May 4", "May 14", "June 2", "October 9"),
            "other",
            "when is my birthday",
            {"note": "actually it is {object}, I said it wrong before"},
        ),
    ),
}

# (memory_type, topic, object, attributes): said twice, months apart
DUPLICATE_FACTS: dict[str, tuple[tuple[str, str, str, dict[str, str]], ...]] = {
    "zh": (
        ("FACT", "养", "猫", {"名字": "咪咪"}),
        ("FACT", "过敏", "花生", {}),
        ("RELATION", "妹妹", "小雨", {}),
        ("FACT", "血型", "O型", {}),
    ),
    "en": (
        ("FACT", "has a pet", "dog", {"name": "Max"}),
        ("FACT", "allergic to", "peanuts", {}),
        ("RELATION", "sister", "Anna", {}),
        ("FACT", "blood type", "O", {}),
    ),
}

# (memory_type, topic, (object, later object)): both stay true
NON_CONFLICTS = {
    "zh": (("FACT", "去过", ("北京", "南京")), ("OPINION", "喜欢", ("猫", "狗")), ("FACT", "会说", ("英语", "日语"))),
    "en": (
        ("FACT", "visited", ("Austria", "Australia")),
        ("OPINION", "like", ("apples", "pears")),
        ("FACT", "speaks", ("French", "Spanish")),
    ),
}

# (topic, objects): low-importance events of the user, a burst of them in one month
TRIVIA = {
    "zh": (
        ("点外卖", ("麻辣烫", "黄焖鸡", "披萨")),
        ("喝", ("奶茶", "果汁", "可乐")),
        ("刷", ("抖音", "微博", "小红书")),
        ("打", ("游戏", "羽毛球", "麻将")),
    ),
    "en": (
        ("ordered", ("pizza", "tacos", "ramen")),
        ("drank", ("a latte", "a smoothie", "iced tea")),
        ("scrolled", ("Instagram", "Reddit", "TikTok")),
        ("played", ("video games", "chess", "darts")),
    ),
}
TRIVIA_IMPORTANCE = 0.1

# everyday events: who (the user most often) and (topic, objects)
FILLER_SUBJECTS = {"zh": ("我",) * 6 + ("妈妈", "同事老王", "小明", "小红"), "en": ("I",) * 6 + ("Mark", "Mary", "Bob")}
FILLER = {
    "zh": (
        ("吃", ("面条", "饺子", "火锅", "包子", "米饭")),
        ("开会", ("周会", "项目评审", "客户")),
        ("散步", ("公园", "河边")),
        ("做饭", ("红烧肉", "鱼香肉丝", "宫保鸡丁")),
        ("打扫", ("厨房", "客厅")),
    ),
    "en": (
        ("ate", ("noodles", "a burrito", "salad", "pancakes")),
        ("had a meeting about", ("the roadmap", "the budget", "hiring")),
        ("walked in", ("the park", "the old town")),
        ("cooked", ("chili", "risotto", "curry")),
        ("read", ("a novel", "the news")),
    ),
}
USER = {"zh": "我", "en": "I"}
TIME_KEY = {"zh": "时间", "en": "time"}


# --- the life log -------------------------------------------------------------------------
@dataclass(frozen=True)
class KnownUpdate:
    slot: str
    older: int  # indexes into UserLog.memories
    newer: int
    question: str


@dataclass
class UserLog:
    """One user's memories, oldest first, and what consolidating them should find."""

    user: int
    language: str  # zh | en: of the memories and the questions
    memories: list[dict]  # create_memories arguments
    created_at: list[str]  # when each was said (ISO)
    duplicate_names: list[NameCase]  # each: should end as one node
    lookalikes: list[LookAlike]  # each: must stay two nodes
    updates: list[KnownUpdate]  # newer supersedes older
    non_conflicts: list[tuple[int, int]]  # (newer, older): both true, no SUPERSEDES
    duplicate_memories: list[tuple[int, int]]  # (later, earlier): the same statement twice
    summary_groups: list[tuple[str, str, str]]  # (subject, topic, month) of the trivia bursts

    def extra(self) -> list[dict]:
        """create_memories' ``extra``: each memory's day as its created_at and reference time."""
        return [{"created_at": t, "reference_time": t} for t in self.created_at]


@dataclass
class LifeLog:
    users: list[UserLog]
    seed: int

    @property
    def memories(self) -> int:
        return sum(len(u.memories) for u in self.users)


class _Log:
    """Collects one user's memories in any order, each on a day; ``build`` sorts them by time."""

    def __init__(self, rng: random.Random, language: str):
        self.rng, self.language = rng, language
        self.items: list[tuple[datetime, dict]] = []
        self.events: set[tuple[str, str, str, int]] = set()

    def add(
        self,
        day: int,
        subject: str,
        memory_type: str,
        topic: str,
        obj: str,
        importance: float,
        attributes: dict[str, str] | None = None,
    ) -> int:
        """A memory said on ``day``; its handle (its place before ``build`` sorts them)."""
        memory = {
            "subject": subject,
            "memory_type": memory_type,
            "topic": topic,
            "object": obj,
            "importance": importance,
            "attributes": dict(attributes or {}),
        }
        when = START + timedelta(days=day, hours=self.rng.randint(8, 21), minutes=self.rng.randint(0, 59))
        self.items.append((when, memory))
        return len(self.items) - 1

    def event(self, subject: str, topic: str, obj: str, importance: float, first: int = 0, last: int = DAYS) -> int:
        """An event dated a day in [first, last) on which the same event did not happen yet (two
        alike on one day would be a duplicate nobody planted)."""
        # the same event by any spelling of its object (IKEA / Ikea are one shop once merged)
        key = (subject, topic, loose_key(obj))
        if all((*key, d) in self.events for d in range(first, last)):
            return -1  # every day taken: the caller picks another event
        day = self.rng.randrange(first, last)
        while (*key, day) in self.events:
            day = self.rng.randrange(first, last)
        self.events.add((*key, day))
        date = (START + timedelta(days=day)).date().isoformat()
        return self.add(day, subject, "EVENT", topic, obj, importance, {TIME_KEY[self.language]: date})

    def day(self, first: int = 0, last: int = DAYS) -> int:
        return self.rng.randrange(first, last)

    def two_days(self) -> tuple[int, int]:
        earlier, later = sorted(self.rng.sample(range(DAYS), 2))
        return earlier, later

    def build(
        self,
        user: int,
        updates: list[tuple[str, int, int, str]],
        non_conflicts: list[tuple[int, int]],
        duplicates: list[tuple[int, int]],
        summary_groups: list[tuple[str, str, str]],
    ) -> UserLog:
        """The memories oldest first, and the planted answers (given by handle) by index."""
        order = sorted(range(len(self.items)), key=lambda h: (self.items[h][0], h))
        index = {handle: i for i, handle in enumerate(order)}
        return UserLog(
            user=user,
            language=self.language,
            memories=[self.items[h][1] for h in order],
            created_at=[self.items[h][0].isoformat() for h in order],
            duplicate_names=list(NAME_CASES[self.language]),
            lookalikes=list(LOOKALIKES[self.language]),
            updates=[
                KnownUpdate(slot, index[older], index[newer], question) for slot, older, newer, question in updates
            ],
            non_conflicts=[(index[a], index[b]) for a, b in non_conflicts],
            duplicate_memories=[(index[a], index[b]) for a, b in duplicates],
            summary_groups=summary_groups,
        )


def generate_life_log(users: int = 4, memories_per_user: int = 250, seed: int = 0) -> LifeLog:
    """``users`` life logs (even users Chinese, odd users English) of ``memories_per_user`` memories.

    Each user draws from a generator seeded from ``seed`` and the user's place only: a user's
    planted cases do not change with the number of users."""
    seeds = random.Random(seed)
    return LifeLog(
        [
            _user_log(i, "zh" if i % 2 == 0 else "en", memories_per_user, random.Random(seeds.getrandbits(64)))
            for i in range(users)
        ],
        seed,
    )


def _month_start(n: int) -> datetime:
    """The first day of the n-th calendar month of the log (0: START's)."""
    years, month = divmod(START.month - 1 + n, 12)
    return START.replace(year=START.year + years, month=month + 1, day=1)


def _updated_value(case: UpdateCase, rng: random.Random) -> tuple[str, str]:
    """The older and the newer memory's object."""
    if case.change == "next":
        i = rng.randrange(len(case.values) - 1)
        return case.values[i], case.values[i + 1]
    old = rng.choice(case.values)
    if case.change == "same":
        return old, old
    return old, rng.choice([v for v in case.values if v != old])


def _user_log(user: int, language: str, size: int, rng: random.Random) -> UserLog:
    log = _Log(rng, language)
    me = USER[language]
    for case in NAME_CASES[language]:
        for name in case.names:
            for _ in range(rng.randint(1, 2)):
                topic, obj = (case.context, name) if case.label == "Object" else (name, case.context)
                log.event(me, topic, obj, 0.5)
    lookalike_memories = [m for look in LOOKALIKES[language] for m in (look.first, look.second)]
    if language == "en":
        lookalike_memories.append(PARIS_THE_PERSON)
    for subject, memory_type, topic, obj in lookalike_memories:
        if memory_type == "EVENT":
            log.event(subject, topic, obj, 0.5)
        else:
            log.add(log.day(), subject, memory_type, topic, obj, 0.5)

    updates = []
    for update in UPDATES[language]:
        old, new = _updated_value(update, rng)
        note = {k: v.format(object=new) for k, v in update.note.items()}
        older = log.add(log.day(0, DAYS // 2), me, update.memory_type, update.topic, old, 0.7)
        newer = log.add(log.day(DAYS // 2, DAYS), me, update.memory_type, rng.choice(update.new_topics), new, 0.7, note)
        updates.append((update.slot, older, newer, update.question.format(object=old)))
    duplicates = []
    for memory_type, topic, obj, attributes in rng.sample(DUPLICATE_FACTS[language], DUPLICATE_FACTS_PER_USER):
        earlier, later = log.two_days()
        duplicates.append(
            (
                log.add(later, me, memory_type, topic, obj, 0.6, attributes),
                log.add(earlier, me, memory_type, topic, obj, 0.6, attributes),
            )
        )
    non_conflicts = []
    for memory_type, topic, (first_obj, later_obj) in NON_CONFLICTS[language]:
        earlier, later = log.two_days()
        non_conflicts.append(
            (
                log.add(later, me, memory_type, topic, later_obj, 0.6),
                log.add(earlier, me, memory_type, topic, first_obj, 0.6),
            )
        )
    summary_groups = []
    for month, (topic, objects) in enumerate(rng.sample(TRIVIA[language], TRIVIA_MONTHS)):
        first, last = _month_start(month), _month_start(month + 1)
        for _ in range(BURST_SIZE):
            log.event(me, topic, rng.choice(objects), TRIVIA_IMPORTANCE, (first - START).days, (last - START).days)
        summary_groups.append((me, topic, first.strftime("%Y-%m")))

    if len(log.items) > size:
        raise ValueError(f"memories_per_user must be at least {len(log.items)} to hold every planted case (got {size})")
    room = len(set(FILLER_SUBJECTS[language])) * sum(len(objects) for _, objects in FILLER[language]) * DAYS
    if size - len(log.items) > room // 2:
        raise ValueError(
            f"memories_per_user: at most {len(log.items) + room // 2} (the everyday events of one "
            f"user's six months run out; use more users)"
        )
    while len(log.items) < size:
        filler_topic, filler_objects = rng.choice(FILLER[language])
        log.event(
            rng.choice(FILLER_SUBJECTS[language]),
            filler_topic,
            rng.choice(filler_objects),
            round(rng.uniform(0.2, 0.6), 2),
        )
    return log.build(user, updates, non_conflicts, duplicates, summary_groups)


# --- metrics ------------------------------------------------------------------------------
def _pair(label: str, a: str, b: str) -> Pair:
    low, high = sorted((a, b))
    return (label, low, high)


def known_duplicate_pairs(cases: Iterable[NameCase]) -> dict[Pair, str]:
    """Every pair of names of one thing, with the kind of its case."""
    return {_pair(c.label, a, b): c.kind for c in cases for a, b in combinations(c.names, 2)}


def alias_pairs(nodes: Iterable[dict]) -> set[Pair]:
    """Pairs of names merged on one node (a node: label, id, aliases)."""
    return {_pair(n["label"], a, b) for n in nodes for a, b in combinations(set(n["aliases"]), 2)}


def run_merged_pairs(before: Iterable[dict], merges: Iterable[tuple[str, str]]) -> set[Pair]:
    """The pairs of names a run merged: its merges (survivor id, merged id), closed over chains,
    applied to the nodes as they were before it (each with every alias it held then)."""
    nodes = list(before)
    parent = {n["id"]: n["id"] for n in nodes}

    def root(node_id: str) -> str:
        while parent.setdefault(node_id, node_id) != node_id:
            node_id = parent[node_id]
        return node_id

    for survivor, merged in merges:
        parent[root(merged)] = root(survivor)
    together: dict[str, list[dict]] = defaultdict(list)
    for n in nodes:
        together[root(n["id"])].append(n)
    return {
        _pair(a["label"], x, y)
        for group in together.values()
        for a, b in combinations(group, 2)
        for x in a["aliases"]
        for y in b["aliases"]
        if x != y
    }


def duplicate_nodes(nodes: Iterable[dict], cases: Iterable[NameCase]) -> int:
    """Nodes too many: for each thing with several names, the nodes holding them, less one."""
    nodes = list(nodes)
    extra = 0
    for case in cases:
        holders = {n["id"] for n in nodes if n["label"] == case.label and set(case.names) & set(n["aliases"])}
        extra += max(len(holders) - 1, 0)
    return extra


@dataclass
class Tally:
    """Found items, how many of them are right, and how many right ones there are."""

    hits: int = 0
    found: int = 0
    known: int = 0

    def add(self, found: set, known: set) -> None:
        self.hits += len(found & known)
        self.found += len(found)
        self.known += len(known)

    @property
    def precision(self) -> float | None:
        return round(self.hits / self.found, 4) if self.found else None

    @property
    def recall(self) -> float | None:
        return round(self.hits / self.known, 4) if self.known else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "found": self.found,
            "right": self.hits,
            "known": self.known,
        }


def meets(name: str, value: float | None) -> bool:
    """Whether ``value`` meets TARGETS[name] (seconds: at most; the rest: at least); no value: no."""
    if value is None:
        return False
    return value <= TARGETS[name] if name.startswith("seconds") else value >= TARGETS[name]


# --- the run ------------------------------------------------------------------------------
@dataclass
class _Scores:
    """Everything counted over the users, turned into the report by ``_report``."""

    merges_by_run: Tally = field(default_factory=Tally)
    merge_recall: Tally = field(default_factory=Tally)  # over the target kinds
    recall_by_kind: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    merged_at_write: Tally = field(default_factory=Tally)
    lookalikes_merged: int = 0
    lookalikes: int = 0
    wrong_merges: list[str] = field(default_factory=list)
    missed_merges: list[str] = field(default_factory=list)
    wrong_at_write: list[str] = field(default_factory=list)
    memory_merges: Tally = field(default_factory=Tally)
    wrong_memory_merges: list[str] = field(default_factory=list)
    conflicts: Tally = field(default_factory=Tally)
    wrong_conflicts: list[str] = field(default_factory=list)
    missed_conflicts: list[str] = field(default_factory=list)
    flagged_non_conflicts: int = 0
    non_conflicts: int = 0
    current: list[dict] = field(default_factory=list)
    nodes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    archived: int = 0
    summaries: int = 0
    planted_summary_groups: int = 0
    write_s: float = 0.0
    consolidate_s: float = 0.0
    statuses: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[str] = field(default_factory=list)


def concept_nodes(graph: Any, group: str) -> list[dict]:
    """Every concept node of the group with the names it holds (label, id, name, aliases)."""
    return graph.store.run_text(query("bench_consolidate_concepts"), group_id=group)


def _text(memory: dict) -> str:
    return render_text(memory["subject"], memory["topic"], memory["object"], memory["attributes"])


def _shown(pair: Pair, user: int) -> str:
    return f"u{user} {pair[0]}: {pair[1]} + {pair[2]}"


def _score_user(
    scores: _Scores, user: UserLog, ids: list[str], before: list[dict], after: list[dict], report: Any
) -> None:
    truth = known_duplicate_pairs(user.duplicate_names)
    at_write, after_pairs = alias_pairs(before), alias_pairs(after)
    by_run = run_merged_pairs(before, ((m.survivor_id, m.merged_id) for m in report.concept_merges))
    scores.merges_by_run.add(by_run, set(truth))
    scores.merged_at_write.add(at_write, set(truth))
    target = {p for p, kind in truth.items() if kind in TARGET_KINDS}
    scores.merge_recall.add(after_pairs & target, target)
    for pair, kind in truth.items():
        scores.recall_by_kind[kind].add(after_pairs & {pair}, {pair})
    scores.wrong_merges += [_shown(p, user.user) for p in sorted(by_run - set(truth))]
    scores.wrong_at_write += [_shown(p, user.user) for p in sorted(at_write - set(truth))]
    scores.missed_merges += [
        _shown(p, user.user) for p, kind in sorted(truth.items()) if kind in TARGET_KINDS and p not in after_pairs
    ]
    looks = {look.pair for look in user.lookalikes}
    scores.lookalikes += len(looks)
    scores.lookalikes_merged += len(looks & after_pairs)

    scores.nodes["before"] += len(before)
    scores.nodes["after"] += len(after)
    scores.nodes["duplicates_before"] += duplicate_nodes(before, user.duplicate_names)
    scores.nodes["duplicates_after"] += duplicate_nodes(after, user.duplicate_names)

    twice = {frozenset((ids[a], ids[b])) for a, b in user.duplicate_memories}
    scores.memory_merges.add({frozenset((m.survivor_id, m.duplicate_id)) for m in report.memory_merges}, twice)
    scores.wrong_memory_merges += [
        f"u{user.user}: {m.text} ({m.reason})"
        for m in report.memory_merges
        if frozenset((m.survivor_id, m.duplicate_id)) not in twice
    ]
    found = {(c.newer_id, c.older_id) for c in report.conflicts}
    known = {(ids[u.newer], ids[u.older]): u for u in user.updates}
    scores.conflicts.add(found, set(known))
    scores.wrong_conflicts += [
        f"u{user.user}: {c.older_text} → {c.newer_text} ({c.reason})"
        for c in report.conflicts
        if (c.newer_id, c.older_id) not in known
    ]
    scores.missed_conflicts += [
        f"u{user.user} {u.slot}: {_text(user.memories[u.older])} → {_text(user.memories[u.newer])}"
        for pair, u in known.items()
        if pair not in found
    ]
    same = {frozenset((ids[a], ids[b])) for a, b in user.non_conflicts}
    scores.flagged_non_conflicts += sum(frozenset(pair) in same for pair in found)
    scores.non_conflicts += len(same)

    scores.archived += len(report.archived)
    scores.summaries += len(report.summaries)
    scores.planted_summary_groups += len(user.summary_groups)
    scores.statuses[report.status] += 1
    scores.errors += [f"u{user.user}: {e}" for e in report.errors]


def _ask_current(graph: Any, group: str, user: UserLog, ids: list[str]) -> list[dict]:
    """Each update's question: right when the newer memory ranks first and is not superseded."""
    out = []
    for update in user.updates:
        results = graph.search_memories(group, update.question, max_results=SEARCH_RESULTS, reference_time=END).results
        top = results[0] if results else None
        right = top is not None and top.memory_id == ids[update.newer] and top.superseded_by is None
        out.append(
            {
                "user": user.user,
                "slot": update.slot,
                "question": update.question,
                "right": right,
                "expected": _text(user.memories[update.newer]),
                "first": top.text if top else None,
            }
        )
    return out


def run_consolidate_bench(
    graph: Any, *, users: int, memories_per_user: int, seed: int = 0, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Generate the life log, consolidate each user's group, score the runs, delete the groups.

    - concept nodes and duplicate nodes (a thing's nodes beyond one) before and after the run;
    - merge precision over the pairs of names the run merged (its concept_merges applied to the
      nodes before it, with their aliases), recall over the known pairs of the target kinds
      merged after it (two names merged: one node holds both), and recall per kind;
    - memory merges and conflicts against the planted pairs, by memory id; planted look-alike
      statements flagged as conflicts;
    - "what is current": each update's question, right when the newer memory ranks first and is
      not superseded;
    - archived memories, summaries made, seconds and memories per second.
    """
    say = progress or (lambda _msg: None)
    log = generate_life_log(users, memories_per_user, seed)
    graph.ensure_schema()
    version, edition = graph.store.verify()
    load_before = machine()["load_average"]
    prefix = f"bench-consolidate-{uuid.uuid4().hex[:10]}"
    scores = _Scores()
    groups: list[str] = []
    try:
        for user in log.users:
            group = f"{prefix}-u{user.user}"
            groups.append(group)
            say(f"user {user.user + 1}/{users} ({user.language}): writing {len(user.memories)} memories to {group}")
            t0 = time.perf_counter()
            ids, extra = [], user.extra()
            for i in range(0, len(user.memories), WRITE_BATCH):
                written = graph.create_memories(
                    group,
                    user.memories[i : i + WRITE_BATCH],
                    reference_time=END,
                    source="bench",
                    extra=extra[i : i + WRITE_BATCH],
                )
                ids += [r.memory_id for r in written]
            scores.write_s += time.perf_counter() - t0
            before = concept_nodes(graph, group)
            say(f"user {user.user + 1}/{users}: consolidating")
            t0 = time.perf_counter()
            report = graph.consolidate(group, now=END)
            scores.consolidate_s += time.perf_counter() - t0
            _score_user(scores, user, ids, before, concept_nodes(graph, group), report)
            scores.current += _ask_current(graph, group, user, ids)
    finally:
        for group in groups:
            say(f"deleting group {group}")
            delete_group(graph.store, group)

    return {
        "command": shlex.join(["graphmem", *sys.argv[1:]]) if sys.argv and "graphmem" in sys.argv[0] else None,
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            **machine(),
            "load_average_before": load_before,
            "neo4j": f"{version} {edition}",
            "neo4j_uri": graph.store.uri,
            "embedding_model": graph.embedder.name,
        },
        "life_log": {
            "users": users,
            "memories_per_user": memories_per_user,
            "memories": log.memories,
            "seed": seed,
            "languages": {lang: sum(u.language == lang for u in log.users) for lang in USER},
            "from": START.date().isoformat(),
            "to": END.date().isoformat(),
        },
        **_report(scores, log.memories),
    }


def _report(scores: _Scores, memories: int) -> dict[str, Any]:
    right = [q for q in scores.current if q["right"]]
    current = round(len(right) / len(scores.current), 4) if scores.current else None
    seconds = scores.consolidate_s
    per_10k = round(seconds * 10_000 / memories, 1) if memories else None
    at_write = scores.merged_at_write
    values = {
        "merge_precision": scores.merges_by_run.precision,
        "merge_recall": scores.merge_recall.recall,
        "conflict_precision": scores.conflicts.precision,
        "conflict_recall": scores.conflicts.recall,
        "current_accuracy": current,
        "seconds_per_10k": per_10k,
    }
    return {
        "concepts": dict(scores.nodes),
        "concept_merges": {
            "precision": scores.merges_by_run.precision,
            "recall": scores.merge_recall.recall,
            "merged_by_run": scores.merges_by_run.found,
            "right_by_run": scores.merges_by_run.hits,
            "target_pairs": scores.merge_recall.known,
            "target_kinds": list(TARGET_KINDS),
            "recall_by_kind": {kind: t.recall for kind, t in sorted(scores.recall_by_kind.items())},
            "pairs_by_kind": {kind: t.known for kind, t in sorted(scores.recall_by_kind.items())},
            "merged_at_write": at_write.found,
            "wrong_at_write": at_write.found - at_write.hits,
            "lookalikes_merged": scores.lookalikes_merged,
            "lookalikes": scores.lookalikes,
            "wrong_examples": scores.wrong_merges[:EXAMPLES],
            "missed_examples": scores.missed_merges[:EXAMPLES],
            "wrong_at_write_examples": scores.wrong_at_write[:EXAMPLES],
        },
        "memory_merges": {**scores.memory_merges.as_dict(), "wrong_examples": scores.wrong_memory_merges[:EXAMPLES]},
        "conflicts": {
            **scores.conflicts.as_dict(),
            "flagged_non_conflicts": scores.flagged_non_conflicts,
            "non_conflicts": scores.non_conflicts,
            "wrong_examples": scores.wrong_conflicts[:EXAMPLES],
            "missed_examples": scores.missed_conflicts[:EXAMPLES],
        },
        "current": {
            "accuracy": current,
            "questions": len(scores.current),
            "right": len(right),
            "failures": [q for q in scores.current if not q["right"]][:EXAMPLES],
        },
        "archived": scores.archived,
        "summaries": {"made": scores.summaries, "planted_groups": scores.planted_summary_groups},
        "seconds": {"write": round(scores.write_s, 1), "consolidate": round(seconds, 1)},
        "memories_per_s": round(memories / seconds, 1) if seconds else None,
        # runs on fewer memories are scaled to 10,000: extrapolated, as the report says
        "seconds_per_10k": per_10k,
        "extrapolated": memories < 10_000,
        "runs": dict(scores.statuses),
        "errors": scores.errors[:EXAMPLES],
        "targets": {
            name: {"target": target, "value": values[name], "met": meets(name, values[name])}
            for name, target in TARGETS.items()
        },
    }


# --- `graphmem bench consolidate` (entry point graphmem.bench: consolidate) ----------
def command(
    users: int = typer.Option(
        4, "--users", min=1, help="Users in the synthetic life log (half Chinese, half English)."
    ),
    memories: int = typer.Option(250, "--memories", min=89, help="Memories per user (six months of them)."),
    seed: int = typer.Option(0, "--seed", help="The life log's random seed (the same seed, the same log)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
    config: str | None = ConfigOption,
) -> None:
    """Consolidation on a synthetic life log with known answers: duplicate names (case, width,
    traditional/simplified, spellings, synonyms), look-alikes that must stay apart (苹果 / 苹果公司,
    Paris / Paris, Texas), updates and contradictions in Chinese and English, old trivia.

    Prints merge precision and recall, conflict precision and recall, "what is current" accuracy
    (a question about each updated fact returns the newest value first), archived and summarised
    counts, and the time per 10,000 memories. Each user is a throw-away group, deleted after.
    Targets: merge P ≥ 0.98, R ≥ 0.90; conflict P ≥ 0.95, R ≥ 0.85; current ≥ 0.95; 10,000 < 120 s."""
    progress = None if as_json else (lambda msg: console.print(f"[dim]{msg}[/dim]", highlight=False))
    with open_graph(config) as graph:
        report = run_consolidate_bench(graph, users=users, memories_per_user=memories, seed=seed, progress=progress)
    if as_json:
        print_json(report)
        return
    _print_consolidate(report)


def _print_consolidate(report: dict) -> None:
    from rich.table import Table

    m, log = report["machine"], report["life_log"]
    console.print("[bold]graphmem bench consolidate[/bold]", highlight=False)
    if report.get("command"):
        console.print(f"  command:  {report['command']}", highlight=False)
    console.print(
        f"  machine:  {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['cpu']}; Neo4j {m['neo4j']}; "
        f"embedding model {m['embedding_model']}",
        highlight=False,
    )
    console.print(
        f"  life log: {log['users']} users × {log['memories_per_user']} memories ({log['memories']} in all, "
        f"{log['from']} – {log['to']}, seed {log['seed']}; {log['languages']})",
        highlight=False,
    )
    c = report["concepts"]
    console.print(f"  concept nodes: {c}", highlight=False)
    table = Table(title="consolidation against the life log's answers", title_justify="left")
    for column in ("measure", "value", "target", ""):
        table.add_column(column)
    names = {
        "merge_precision": "concept merge precision",
        "merge_recall": "concept merge recall",
        "conflict_precision": "conflict precision",
        "conflict_recall": "conflict recall",
        "current_accuracy": '"what is current" accuracy',
        "seconds_per_10k": "seconds per 10,000 memories",
    }
    for key, t in report["targets"].items():
        value = t["value"]
        shown = "–" if value is None else (f"{value:.3f}" if key != "seconds_per_10k" else f"{value:.1f}")
        bound = f"< {t['target']:g}" if key == "seconds_per_10k" else f"≥ {t['target']:g}"
        table.add_row(names.get(key, key), shown, bound, mark(t["met"]))
    console.print(table)
    cm = report["concept_merges"]
    console.print(
        f"  merges by the run: {cm['merged_by_run']} ({cm['right_by_run']} right); recall by kind "
        f"{cm['recall_by_kind']}; look-alikes merged {cm['lookalikes_merged']} of {cm['lookalikes']}; "
        f"merged at write time {cm['merged_at_write']} ({cm['wrong_at_write']} wrong)",
        highlight=False,
    )
    for w in cm["wrong_examples"][:5]:
        console.print(f"    wrong merge: {w}", highlight=False)
    for w in cm["missed_examples"][:5]:
        console.print(f"    missed merge: {w}", highlight=False)
    cf = report["conflicts"]
    for w in cf["wrong_examples"][:5]:
        console.print(f"    wrong conflict: {w}", highlight=False)
    for w in cf["missed_examples"][:5]:
        console.print(f"    missed conflict: {w}", highlight=False)
    for q in report["current"]["failures"][:5]:
        console.print(f"    not current first: {q}", highlight=False)
    console.print(f"  duplicate memories: {report['memory_merges']}", highlight=False)
    console.print(
        f"  archived {report['archived']}, summaries {report['summaries']}; seconds {report['seconds']} "
        f"({report['memories_per_s']} memories/s"
        + (", per 10,000 extrapolated" if report.get("extrapolated") else "")
        + ")",
        highlight=False,
    )
    for e in report.get("errors") or []:
        console.print(f"  [yellow]error:[/yellow] {e}", highlight=False)
