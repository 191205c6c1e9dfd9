"""The readings: every kind of thing the extractors take from talk, declared once.

A reading is one kind of fact a person can state (where they live, whom they are with, what they like …);
its row's fields say what a memory of it carries. Generated from this table: ``topics.SLOTS`` and the
stance lists, and the kinds and slots of the LLM extractor's prompt (``ingest.llm``); the enums ``Kind``
and ``Slot`` of ``ingest.schema`` are checked against it (tests/test_readings.py). A new reading is a row
here, its patterns in the language rules (``ingest.rules_zh`` / ``rules_en``) naming it, and labelled
lines among the extraction benchmark's (docs/architecture.md, "Where a new reading goes").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reading:
    id: str
    kind: str  # schema.Kind of its memories
    topic: dict[str, str]  # its topic word per language ("zh", "en")
    slot: str | None = None  # the slot its value fills
    single: bool = False  # the slot holds one value at a time: a newer one replaces the current one
    marked: bool = False  # an extractor names the slot on its memory (schema.Slot)
    ends: str = ""  # what ends its value without a new one
    confidence: float = 0.5  # the importance the rules give its memories
    words: tuple[str, ...] = field(default=())  # topic words that state it (consolidation matches them)
    gloss: str = ""  # what it is, for the LLM prompt
    # what a subject's whole predicate says when it states this reading, per language ("passed away",
    # 过世): read by the shared reader itself (``said_reading``), with no pattern in the language rules
    said: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _words(said: str) -> tuple[str, ...]:
    """A reading's words, written as its ``ends`` are: a comma between them."""
    return tuple(w.strip() for w in said.split(",") if w.strip())


def _slot(id: str, kind: str, zh: str, en: str, words: str = "", **more: Any) -> Reading:
    """A single-valued slot's row, the slot named as the reading: its topic word in Chinese and English, its words."""
    return Reading(id, kind, {"zh": zh, "en": en}, slot=id, single=True, confidence=0.7, words=_words(words), **more)


READINGS: tuple[Reading, ...] = (
    # --- single-valued slots: a new value replaces the old one. Their words are matched against a topic's
    # loose key, whole (Chinese) or as a phrase at the start (English, after a subject); the order of the
    # rows is the order a topic's opening words are tried in.
    _slot(
        "residence",
        "residence",
        "住在",
        "live in",
        "住在, 住, 居住, 居住在, 住址, 居住地, 家在, 搬到, 搬去, 搬家到, 搬到了, 定居, 定居在, live in, lives in, "
        "living in, live at, lives at, moved to, move to, moved, relocated to, reside in, resides in, residence, "
        "home is in, address",
        marked=True,
        ends="不再住在, 搬出, no longer live in, moved out of",
        gloss="住在哪",
    ),
    _slot(
        "employer",
        "work",
        "工作于",
        "work at",
        "工作于, 在工作, 就职于, 就职, 上班, 任职于, 入职, 入职了, 加入, 跳槽到, 供职于, 工作单位, 单位, 公司, 雇主, "
        "work at, works at, working at, work for, works for, working for, employed by, joined, employer, company, "
        "job at, hired by, started at",
        marked=True,
        ends="辞职, 离职, 换工作, quit, no longer work at, changed jobs, got laid off",
        gloss="在哪工作",
    ),
    _slot(
        "birthday", "fact", "生日", "birthday", "生日, 出生日期, 生日是, birthday, birthday is, date of birth, born on"
    ),
    _slot("age", "fact", "年龄", "age", "年龄, 岁数, 年纪, age, aged, years old"),
    _slot(
        "job",
        "work",
        "职业是",
        "work as",
        "职业, 职位, 工作是, job, occupation, job title, position",
        marked=True,
        ends="辞职, quit",
        gloss="职业",
    ),
    _slot("school", "school", "在读", "study at", marked=True, ends="毕业于, graduated from", gloss="在哪上学"),
    _slot("marital", "fact", "婚姻状况", "marital status", "婚姻状况, marital status"),
    # whom someone is with, as a relation's topic: one at a time (a new one replaces, a breakup ends)
    _slot(
        "partner",
        "relation",
        "男朋友",
        "boyfriend",
        "男朋友, 女朋友, 丈夫, 妻子, 配偶, 未婚夫, 未婚妻, boyfriend, girlfriend, husband, wife, spouse, fiance, "
        "fiancee",
        marked=True,
        ends="分手, 离婚, broke up, divorced",
        gloss="男朋友、妻子, boyfriend, wife",
    ),
    # a number or an address one is reached at (never the phone itself: 我的手机是 iPhone)
    _slot(
        "phone",
        "fact",
        "手机号",
        "phone number",
        "手机号, 手机号码, 电话号码, 电话号, 电话, 号码, 联系电话, phone number, number, mobile number, cell number, "
        "telephone number",
    ),
    _slot(
        "email",
        "fact",
        "邮箱",
        "email",
        "邮箱, 电子邮箱, 邮箱地址, 邮件地址, email, email address, e-mail, e-mail address",
    ),
    # a name said as one ("is called Ana"): not "called" alone, which is as often a phone call
    # ("Mrs Patel called me"), nor "named", as often a pet or a child given a name
    _slot("name", "fact", "叫", "name", "名字, 叫, 姓名, name, is named, is called, goes by"),
    _slot("diet", "fact", "吃", "am", marked=True, gloss="吃素、吃肉, vegetarian, vegan"),
    # --- many values at once
    Reading("relation", "relation", {"zh": "朋友", "en": "friend"}, confidence=0.7),  # the topic is the role word
    # stances: a topic's polarity is its stance word's sign, flipped by a negation before it
    Reading(
        "like",
        "preference",
        {"zh": "喜欢", "en": "like"},
        ends="a stop of the same object",
        confidence=0.6,
        words=_words(
            "喜欢, 爱, 喜爱, 热爱, 爱吃, 爱喝, 偏爱, 迷上, 享受, like, likes, love, loves, enjoy, enjoys, prefer, "
            "prefers, adore, adores, fond of, into"
        ),
    ),
    Reading(
        "dislike",
        "preference",
        {"zh": "讨厌", "en": "dislike"},
        confidence=0.6,
        words=_words(
            "讨厌, 厌恶, 恨, 反感, 受不了, hate, hates, dislike, dislikes, detest, detests, can't stand, cannot stand"
        ),
    ),
    # a stance that says something stopped: it ends any liking or habit of the same object
    Reading(
        "stop",
        "preference",
        {"zh": "不再", "en": "no longer"},
        confidence=0.6,
        words=_words("不再, 再也不, 已经不, 早就不, 戒了, 戒掉, no longer, stopped, quit, gave up, is no longer"),
    ),
    # someone's death, in the words that say it: one topic for all of them, so "when did grandma die" finds
    # 过世 and 去世 alike (not 走了, as often "left", nor "passed", as often an exam)
    Reading(
        "death",
        "event",
        {"zh": "去世", "en": "passed away"},
        confidence=0.7,
        said={"zh": ("去世", "过世", "离世", "病逝", "逝世", "死", "死掉"), "en": ("passed away", "died", "passed on")},
    ),
    Reading(
        "possession",
        "possession",
        {"zh": "有", "en": "have"},
        ends="卖了, 送人了, sold, gave away",
        words=_words("有, 养, 养了, 养着, 拥有, 换成, have, has, own, owns"),
    ),
    # a thing parted with: it ends the speaker's having that thing (我把车卖了 ends 我 有 车)
    Reading(
        "parting",
        "possession",
        {"zh": "卖掉", "en": "sold"},
        words=_words("卖, 卖了, 卖掉, 卖掉了, 送人, 送人了, 转手, sold, sell, gave away, got rid of"),
    ),
    Reading("plan", "plan", {"zh": "打算", "en": "plan to"}, confidence=0.6),
    Reading("event", "event", {"zh": "", "en": ""}),  # the clause kept whole, with its time and place
    Reading("fact", "fact", {"zh": "是", "en": "is a"}),
)

# The kinds of memory (``schema.Kind``), in the order the LLM prompt lists them.
KINDS = ("residence", "work", "school", "relation", "preference", "possession", "plan", "event", "fact")
BY_ID = {r.id: r for r in READINGS}


def said_reading(predicate: str, language: str) -> Reading | None:
    """The reading whose words (``Reading.said``) are all a subject's predicate says, in a language:
    "passed away" said of my grandpa, 过世了 said of 我外婆. Case, end punctuation and a Chinese
    sentence-final 了 are set aside."""
    said = predicate.strip(" 。.!！").lower()
    if language == "zh":
        said = said.removesuffix("了")
    return next((r for r in READINGS if said in r.said.get(language, ())), None)


def words_of(reading: str, language: str) -> list[str]:
    """A reading's topic words in one language: 手机号, 电话 … of the phone's."""
    return [w for w in BY_ID[reading].words if w.isascii() == (language == "en")]


def marked_slots() -> list[Reading]:
    """The readings whose slot an extractor names on a memory (``schema.Slot``)."""
    return [r for r in READINGS if r.marked]
