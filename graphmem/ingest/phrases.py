"""What a clause says (``Found``) and of whom (``Subject``), and phrases as memories hold them: a clause's
object or predicate cleaned of what only leads in or trails off (因为…, ", but …", 了/啦, "a lot")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..lexicon.readings import BY_ID
from ..types import MAX_NAME

_EN_CUT = re.compile(
    r"\s+(?:because|'cause|cause|cuz|but|although|though|since|so that|so|and I|and we|which|when|while|"
    r"if|until|and (?:it|he|she|they|this|that|then|now|there))\b.*$|\s*[-–—]+\s.*$|"
    r"\s+[-–—]+$",
    re.IGNORECASE,
)
_EN_TRAIL = re.compile(
    r"\s+(?:a lot|so much|very much|too|as well|lately|recently|now|again|anymore|really|though)$", re.IGNORECASE
)
# Words left dangling at the end of an object once its time is taken out ("about five years ago").
EN_DANGLING = frozenset(
    "about around for in on at to from of with by since until and or the a an like roughly nearly almost over "
    "some my our this that later earlier back during than just right only".split()
)
# Where a phrase cut to its length limit cannot end: "… suppliers in the", "… prices should".
_EN_OPEN_ENDS = EN_DANGLING | set(
    "into his her their your its who what how not very so is are was were be should would could can will".split()
)
_ZH_CUT = re.compile(r"(?:因为|所以|但是|但|可是|不过|而且|然后|因此|于是).*$")
_ZH_TRAIL = re.compile(r"(?:了|啦|呀|啊|呢|吧|哦|的说|哈)+$")
_LEAD_ZH = re.compile(r"^(?:我们|我)(?:也|还|都|就|已经|终于|刚刚|刚|又)*")
_EDGES = " \t\"'“”‘’()[]（）「」、,，.。!！?？;；:：~"  # what a phrase never opens or ends with


def clean(phrase: str | None, chinese: bool, limit: int = 80) -> str | None:
    if not phrase:
        return None
    p = phrase.strip(_EDGES)
    p = _ZH_TRAIL.sub("", _ZH_CUT.sub("", p)).strip() if chinese else _EN_TRAIL.sub("", _EN_CUT.sub("", p))
    p = p.strip(_EDGES)
    if p.count('"') % 2 or p.count("“") != p.count("”"):  # a title's quote whose pair was stripped
        p = p.replace('"', "").replace("“", "").replace("”", "")
    if len(p) > limit:
        cut = p[:limit]
        p = cut if chinese or " " not in cut else _open_end_dropped(cut.rsplit(" ", 1)[0])
    return p[:MAX_NAME] or None


def _open_end_dropped(cut: str) -> str:
    """An English phrase cut at its limit, without the words it cannot end on: a word before a
    comma (what followed it was cut: "a hunt for cheap, …") and words that lead to more."""
    words = cut.split()
    if len(words) > 1 and words[-1].endswith(","):
        words.pop()
    return " ".join(without_dangling(words, _EN_OPEN_ENDS, keep=1)).strip(" ,.;:!?")


def without_dangling(words: list[str], ends: frozenset[str] | set[str] = EN_DANGLING, keep: int = 0) -> list[str]:
    """``words`` without the words at their end that a phrase cannot end on (``ends``; empty ones,
    punctuation alone), keeping at least ``keep`` words."""
    out = list(words)
    while len(out) > keep and (not (bare := out[-1].strip(",.;:!?\"'()").lower()) or bare in ends):
        out.pop()
    return out


def patterns(*rows: tuple[str | re.Pattern[str], Callable], flags: int = 0) -> list[tuple[re.Pattern[str], Callable]]:
    """A language's patterns in the order they are tried, each with what it builds; a pattern given as a
    string is compiled with ``flags``."""
    return [(p if isinstance(p, re.Pattern) else re.compile(p, flags), make) for p, make in rows]


@dataclass
class Found:
    """One thing a clause says, before it becomes an ``ExtractedMemory``: its subject (None: the
    speaker), topic, object, attributes, and what kind of thing it is (``schema.Kind``), the slot
    it sets (``schema.Slot``) and whether it ends that slot's value."""

    memory_type: str
    topic: str
    object: str | None = None
    importance: float = 0.5
    attributes: dict[str, str] | None = None
    subject: str | None = None  # None: the speaker
    kind: str = "fact"
    slot: str | None = None
    ends: bool = False


# A place, an employer or a school said by its name after its kind: "a little town called Hove", "a
# startup named Nimbus", 一个叫大理的小城, 一家名叫字节的公司: the name is the value (one node with its
# name said alone elsewhere).
_CALLED = re.compile(
    r"^(?:(?:a|an|the|this|one)\s+)?(?:[\w'-]+\s+){0,3}?(?:called|named)\s+(?P<en>[A-Z0-9][\w'&.-]*(?:\s+[A-Z0-9][\w'&.-]*)*)$"
    r"|^(?:一[个家所座间])?(?:名叫|叫做|叫|名为)(?P<zh>[^的，,\s]{1,20})的[\u4e00-\u9fff]{1,4}$"
)
_NAMED_SLOTS = ("residence", "employer", "school")


def read_as(
    reading: str, memory_type: str, topic: str, obj: str | None, attributes: dict[str, str] | None = None, **more: Any
) -> Found:
    """What a clause says as one of the table's readings (``lexicon.readings``): its kind, its slot (where
    an extractor names it) and its confidence; ``more``: the subject, whether it ends the slot."""
    r = BY_ID[reading]
    if obj and reading in _NAMED_SLOTS and (called := _CALLED.match(obj)):
        obj = called.group("en") or called.group("zh")
    return Found(
        memory_type, topic, obj, r.confidence, attributes, kind=r.kind, slot=r.slot if r.marked else None, **more
    )


def relation(role: str, name: str, subject: str | None = None) -> Found:
    """``name`` is ``subject``'s (None: the speaker's) ``role``: 我表妹小雯, Ruth's husband Mark."""
    return read_as("relation", "RELATION", role, name, subject=subject)


@dataclass
class Subject:
    """Whom a clause is about: ``name`` (None: the speaker), the text after it, and what the opening
    itself says of them."""

    name: str | None
    rest: str
    relation: Found | None = None  # a relation the opening states (我表妹小雯, my cousin Ruth)
    pronoun: str | None = None
    of_role: str | None = None  # the clause is about this relative or thing of theirs (老周的老伴, her shop)
    described: Found | None = None  # what the opening says they are (新来的同事Mia → Mia 是 新来的同事)
    together: Found | None = None  # a relative said with them (Ruth and her husband Mark, 小雯和她老公阿强)
