"""Topic words in Chinese and English (the readings' words, ``readings.py``), with the pure functions
that read a topic by them: the loose key two names are the same by (width, case, punctuation, 臺灣 →
台湾), the single-valued slot a topic states (住在 / moved to → residence: a newer value replaces the
older), a topic's stance (喜欢 +1, 讨厌 / no longer like -1) and whether it stops something, and
corrections (其实, actually). Read by consolidation (``lifecycle``), extraction and the benchmarks.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import zhconv

from .readings import BY_ID, READINGS

_DROP = re.compile(r"[\s\W_]+", re.UNICODE)

# Single-valued slots and their words (``readings.READINGS``, which says how a topic is matched by them)
SLOTS: dict[str, tuple[str, ...]] = {r.slot: r.words for r in READINGS if r.slot and r.single and r.words}
_SLOT_OF = {_DROP.sub("", unicodedata.normalize("NFKC", w).casefold()): s for s, words in SLOTS.items() for w in words}

# Stance words (``readings.READINGS``: a topic's polarity is its stance word's sign) and what flips them
POSITIVE = BY_ID["like"].words
NEGATIVE = BY_ID["dislike"].words
NEGATIONS = (
    *"不再 不 没有 没 别 再也不".split(),
    *"no longer|not|don't|doesn't|do not|does not|never|stopped|no more|didn't|did not|won't".split("|"),
)
# a topic's negation (the longest that says something after it): 不喜欢, no longer like
_NEGATED = re.compile(rf"^(?:{'|'.join(sorted(map(re.escape, NEGATIONS), key=len, reverse=True))})\s*(?=\S)")
# A stance that says something stopped: it ends any liking or habit of the same object.
STOPS = BY_ID["stop"].words

# What the speaker has (I have a car, 我养了一只猫) and what parts them from it (sold, 卖了, 送人).
POSSESSIONS = frozenset(BY_ID["possession"].words)
PARTINGS = frozenset(BY_ID["parting"].words)
# What an employer is called when its name is not said ("I run a small bakery", "I quit the bank"): the head
# nouns of a place of work, in English
WORKPLACES = tuple(
    "bakery shop store cafe café restaurant business company startup salon studio bar bookshop bookstore "
    "farm clinic agency firm practice food-truck bank hospital factory hotel charity council newspaper".split()
)
# … and the kinds a Chinese workplace's name ends in (一家游戏公司, 市第一医院; a school is none: 在学校做作业)
ZH_WORKPLACES = tuple("公司 企业 外企 集团 银行 医院 工厂 厂 研究所 事务所 工作室 机构 出版社 报社 杂志社".split())
# the words before a thing that say whose or which one it is, not what it is: "my car", "a car" and
# 我家的那辆车 are one thing; "my old car" is not "my car" (the speaker may have a new one)
_EN_WHOSE = re.compile(r"^(?:(?:a|an|the|my|our|one|that|this)\s+)+")
_ZH_MINE = "我们家的|我们家|我家的|我家|我们的|我的|我(?!们)(?=[\u4e00-\u9fff])"  # 我猫: how 我的猫 is kept
_ZH_WHOSE = re.compile(rf"^(?:{_ZH_MINE}|家里的)?(?:[那这一]?[辆只条台部个架匹头把件])?")
# a name said as the speaker's own ("my dog", 我家的猫): what the speaker has of that kind
SPEAKERS_OWN = re.compile(rf"^(?:my|our)\s+|^(?:{_ZH_MINE})", re.IGNORECASE)

CORRECTIONS = tuple(
    "其实|实际上|事实上|更正|纠正|说错了|actually|in fact|correction|to correct|i meant|rather".split("|")
)


def loose_key(name: str) -> str:
    """Width, case, punctuation and spacing dropped; traditional characters as simplified."""
    text = unicodedata.normalize("NFKC", name or "").casefold()
    if any("\u3400" <= ch <= "\u9fff" for ch in text):
        text = _simplified(text)
    key = _DROP.sub("", text)
    return key or text.strip()


@lru_cache(maxsize=65536)
def _simplified(text: str) -> str:
    return zhconv.convert(text, "zh-hans")


def _phrase(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().replace("’", "'").split())


def strip_correction(topic: str) -> tuple[str, bool]:
    """(the topic without a leading correction cue, whether it had one): 其实喜欢 → (喜欢, True)."""
    text = _phrase(topic)
    for cue in CORRECTIONS:
        if text.startswith(cue) and len(text) > len(cue):
            return text[len(cue) :].lstrip(" ,，、:"), True
    return text, False


def is_correction(text: str) -> bool:
    """Whether a memory's text or topic says it corrects something said before."""
    t = _phrase(text)
    return any(t.startswith(c) or f" {c} " in f" {t} " or (c[0] > "\u2e80" and c in t) for c in CORRECTIONS)


def slot_of(topic: str) -> str | None:
    """The single-valued slot a topic states, or None: 住在 / moved to → residence."""
    text, _ = strip_correction(topic)
    key = _DROP.sub("", text)
    if key in _SLOT_OF or text.startswith(NEGATIONS):  # a slot's word; a negated one ("不住在") states none
        return _SLOT_OF.get(key)
    for word, slot in _SLOT_OF.items():  # a Chinese slot word and a character more: 搬到 in 搬到了
        if len(word) >= 2 and key.startswith(word) and not word.isascii() and len(key) <= len(word) + 1:
            return slot
    return None


def slot_topic_keys() -> list[str]:
    """Every slot word as a loose key (what the candidate query matches topics on)."""
    return sorted(_SLOT_OF)


@dataclass(frozen=True)
class Stance:
    base: str  # the stance's verb family ("like") or the topic without its negation
    sign: int  # +1 or -1


def stance(topic: str) -> Stance:
    """A topic's stance: 喜欢 (like, +1), 不喜欢 / 讨厌 / no longer like (like, -1); a negated
    verb (不吃 → 吃, -1); any other topic (吃 → 吃, +1)."""
    text, _ = strip_correction(topic)
    sign = -1 if _NEGATED.match(text) else 1
    text = _NEGATED.sub("", text, count=1)
    for words, said in ((POSITIVE, sign), (NEGATIVE, -sign)):
        if any(_starts_with_word(text, word) for word in words):
            return Stance("like", said)
    return Stance(loose_key(text), sign)


def _starts_with_word(text: str, word: str) -> bool:
    """``text`` opens with ``word``, an English one whole (not "like" of "likely")."""
    return text.startswith(word) and (not word.isascii() or not text[len(word) :][:1].isalpha())


def is_stance_topic(topic: str) -> bool:
    """Whether a topic is a preference or a negated action (what a polarity conflict is about)."""
    text, _ = strip_correction(topic)
    return is_stop(text) or stance(text).base == "like" or text.startswith(NEGATIONS)


def is_stop(topic: str) -> bool:
    """Whether a topic says something stopped (不再喝, 戒了, no longer drink, stopped eating)."""
    text, _ = strip_correction(topic)
    return any(_starts_with_word(text, w) for w in STOPS)


def thing_key(name: str) -> str:
    """The key of a thing whoever's it is said to be: "my car", "a car", 我家的那辆车 and 车 are one."""
    text = _EN_WHOSE.sub("", _phrase(name))
    return loose_key(_ZH_WHOSE.sub("", text, count=1))


def is_possession(topic: str) -> bool:
    """Whether a topic says its subject has its object (have, owns, 有, 养了)."""
    return _phrase(strip_correction(topic)[0]) in POSSESSIONS


def is_parting(topic: str) -> bool:
    """Whether a topic says its subject parted with its object (sold, gave away, 卖了, 送人)."""
    return _phrase(strip_correction(topic)[0]) in PARTINGS
