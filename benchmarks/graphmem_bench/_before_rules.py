# ruff: noqa
# FROZEN: graphmem/ingest/rules.py as it was at main 7d6b7fc, the "before" column of
# `graphmem bench extract`. Not maintained; only its imports were made absolute.
"""The offline rule-based extractor, Chinese and English.

It reads what a speaker says about themselves and turns it into memories whose subject is
the speaker (the user's own turns: 我 / I; a named speaker such as LoCoMo's "Caroline": that
name), each a whole fact: subject, predicate and object taken from one clause, so that the
memory's text ("Caroline went to a LGBTQ support group (time: 2023-05-07)") reads as what was
said:

- preferences: 我喜欢/我爱/我讨厌/我不再喜欢/我最喜欢的X是Y, I like/love/enjoy/hate/prefer,
  I don't like/love/enjoy, my favourite X is Y → OPINION;
- facts: 我叫/我的名字是/我在X工作/我住在/我是, my name is, I work at, I live in, I'm from,
  I am a, and X是Y / X不是Y → FACT;
- relations: 我的朋友X / X是我的朋友, my friend X / my wife X / X is my sister → RELATION;
- events: a clause whose subject is the speaker with a time expression (我昨天…, last weekend,
  8 May 2023) → EVENT with a time attribute, normalised against the turn's timestamp when written.
  In English the clause is read as subject + predicate (auxiliaries, verb, particle: "is going
  to show", "signed up") + object, the verb agreeing with the subject ("I am" / "Caroline is");
- 因为…所以… / because / so → a memory for the cause, one for the effect, and a causal link
  from the cause to the effect.

It is deliberately conservative, a wrong memory being worse than none:
- a clause counts only where the speaker is its subject: "I" or 我 opens it (after words such as
  "yeah", "last week", 其实), so "the city I live in" or "a road trip we took" is nobody's fact;
- a negated English clause ("I didn't go", "I've never been") gives no memory: what did not happen
  is rarely worth a memory, and the rules cannot read idioms that turn it around ("didn't get to
  bed until 2 AM"). Negated preferences keep their negation (I don't like → dislike, 我不再喜欢 →
  不喜欢); a Chinese clause is kept verbatim as its predicate, negation included (我没睡好 → 没睡好);
  a negated relation (小明不是我的朋友) gives none;
- wishes and possibilities (would, could, should, might, if …) and questions give none;
- an object that only points elsewhere (it, that, how …, you) gives none: whom it means is not
  in the clause;
- picture captions added to a turn ("[image: …]") are not the speaker's words and are not mined.

The rest is left to the episodes themselves, which stay searchable. Assistant and system turns
are not mined.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from graphmem.lang import HAN_CHARS, is_chinese, is_user_speaker
from graphmem.types import MAX_NAME
from graphmem.ingest.models import EpisodeView, ExtractionPlan, PlannedLink, PlannedMemory

MINED_ROLES = {"user"}

# --- sentence and clause splitting --------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;\n])|(?<=[.])\s+(?=[A-Z\"'(])")
_P = r"[，,。！？；;!?\n]"  # clause punctuation (zh + en)
_NP = r"[^，,。！？；;!?\n]"  # anything but clause punctuation
_CAPTION = re.compile(r"\s*\[image:[^\]]*\]", re.IGNORECASE)  # a picture's caption added to a turn
_QUESTION = re.compile(r"[?？]\s*[\"'”’)）]*$")
_LISTENER_TAG = re.compile(r"你|您|\byou\b", re.IGNORECASE)  # "…，你呢？", "…, do you?"
_ASKS = re.compile(
    r"为什么|什么|怎么|吗|呢|哪|谁|几|多少|\b(?:why|what|how|where|who|which|when|do|does|did|"
    r"is|are|can|could|would|should|have|has)\b",
    re.IGNORECASE,
)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


# --- phrase clean-up ----------------------------------------------------------------------
_EN_CUT = re.compile(
    r"\s+(?:because|but|although|though|since|so that|so|and I|and i|and we|which|when|while|"
    r"if|until|though|and (?:it|he|she|they|this|that|then|now|there))\b.*$|\s*[-–—]+\s.*$|"
    r"\s+[-–—]+$",
    re.IGNORECASE,
)
_EN_TRAIL = re.compile(
    r"\s+(?:a lot|so much|very much|too|as well|lately|recently|now|again|anymore|"
    r"really|though)$",
    re.IGNORECASE,
)
_ZH_CUT = re.compile(r"(?:因为|所以|但是|但|可是|不过|而且|然后|因此|于是).*$")
_ZH_TRAIL = re.compile(r"(?:了|啦|呀|啊|呢|吧|哦|的说|哈)+$")
_LEAD_ZH = re.compile(r"^(?:我们|我)(?:也|还|都|就|已经|终于|刚刚|刚|又)*")


def clean(phrase: str | None, chinese: bool, limit: int = 80) -> str | None:
    if not phrase:
        return None
    p = phrase.strip(" \t\"'“”‘’()[]（）「」、,，.。!！?？;；:：~")
    if chinese:
        p = _ZH_TRAIL.sub("", _ZH_CUT.sub("", p)).strip()
    else:
        p = _EN_TRAIL.sub("", _EN_CUT.sub("", p)).strip(" ,.;:!?")
    p = p.strip(" \t\"'“”‘’()[]（）「」、,，.。!！?？;；:：~")
    if not p:
        return None
    if len(p) > limit:
        cut = p[:limit]
        p = cut if chinese or " " not in cut else cut.rsplit(" ", 1)[0]
    return p[:MAX_NAME] or None


# --- patterns -----------------------------------------------------------------------------
@dataclass
class Found:
    memory_type: str
    topic: str
    object: str | None = None
    importance: float = 0.5
    attributes: dict[str, str] | None = None
    subject: str | None = None  # None: the speaker


_EN_RELATIONS = (
    "best friend|friend|wife|husband|partner|girlfriend|boyfriend|fiancée|fiancee|fiancé|fiance|"
    "sister|brother|mother|mom|mum|father|dad|son|daughter|boss|manager|colleague|coworker|co-worker|"
    "roommate|neighbou?r|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew|"
    "mentor|teacher|classmate|dog|cat"
)
_ZH_RELATIONS = (
    "好朋友|朋友|闺蜜|老婆|妻子|太太|丈夫|老公|男朋友|女朋友|未婚夫|未婚妻|姐姐|妹妹|哥哥|弟弟|妈妈|母亲|"
    "爸爸|父亲|儿子|女儿|同事|老板|领导|室友|邻居|表哥|表姐|表弟|表妹|同学|老师|爷爷|奶奶|外公|外婆|狗|猫"
)
_NAME_EN = r"[A-Z][a-zA-Z'-]+(?: [A-Z][a-zA-Z'-]+)?"
_NAME_ZH_FOLLOW = (
    r"(?=是|很|也|在|说|和|跟|喜欢|今天|昨天|明天|前天|上周|去|来|要|会|刚|已经|就|都|还|又|"
    r"的|给|对|把|被|，|,|。|！|？|!|\?|；|$|\s)"
)
# Words that cannot be a person's name in "my friend X" / "X is my friend": pronouns, determiners.
_EN_NOT_NAMES = {
    "i",
    "is",
    "and",
    "the",
    "this",
    "that",
    "these",
    "those",
    "it",
    "he",
    "she",
    "they",
    "we",
    "you",
    "there",
    "here",
    "who",
    "what",
    "which",
    "mine",
    "everyone",
    "someone",
    "nobody",
}
# Characters a Chinese name does not start or end with: negation and adverbs ("小明不是…", "…也是").
_ZH_NOT_NAME_EDGE = "不没也都还又才就只并真很太挺再"

_EN_PREF_VERBS = {
    "love": "love",
    "loves": "love",
    "like": "like",
    "enjoy": "enjoy",
    "adore": "love",
    "hate": "hate",
    "dislike": "dislike",
    "despise": "hate",
    "prefer": "prefer",
    "can't stand": "hate",
    "cannot stand": "hate",
    "don't like": "dislike",
    "do not like": "dislike",
    "really like": "like",
}
# "I don't love X" and the like: the negation stays in the topic (the consolidator reads it as a stance).
_EN_PREF_NEGATED = {"don't": "don't", "do not": "don't", "no longer": "no longer", "never": "never"}
_ZH_PREF = {
    "喜欢": "喜欢",
    "喜爱": "喜欢",
    "爱": "爱",
    "热爱": "爱",
    "讨厌": "讨厌",
    "恨": "讨厌",
    "不喜欢": "不喜欢",
    "不爱": "不喜欢",
    "受不了": "讨厌",
}
_ZH_PREF_POSITIVE = {"喜欢", "喜爱", "爱", "热爱"}
# Objects that only point elsewhere: what they mean is not in the clause.
_EN_POINTERS = {
    "it",
    "its",
    "it's",
    "that",
    "this",
    "them",
    "these",
    "those",
    "him",
    "her",
    "there",
    "here",
    "what",
    "how",
    "why",
    "whether",
    "if",
    "so",
    "something",
    "anything",
    "everything",
    "nothing",
    "one",
    "myself",
    "ourselves",
    "which",
    "who",
    "where",
    "when",
}
_EN_LISTENER = {"you", "your", "yours", "yourself", "yourselves", "ya", "u", "y'all"}
_ZH_POINTERS = {"你", "它", "他", "她", "这个", "那个", "这", "那", "什么", "谁", "哪", "哪个", "怎么"}

Rule = tuple[re.Pattern, Callable[[re.Match, bool], Found | None]]


def _en(regex: str) -> re.Pattern:
    return re.compile(regex, re.IGNORECASE)


def _relation_topic(rel: str, chinese: bool) -> str:
    rel = rel.lower()
    return {
        "mom": "mother",
        "mum": "mother",
        "dad": "father",
        "co-worker": "coworker",
        "neighbour": "neighbor",
        "fiancée": "fiancee",
        "fiancé": "fiance",
    }.get(rel, rel)


def _points_elsewhere(obj: str) -> bool:
    """An English object that names nothing by itself: it, that you …, how it …, your painting."""
    words = [w.strip(",.;:!?\"'").lower() for w in obj.split()]
    if not words:
        return True
    if any(w in _EN_LISTENER for w in words):
        return True
    first = words[0]
    if first in {"that", "this", "these", "those", "her"} and len(words) > 1:
        # a determiner before a noun names something ("that stuff I baked"); before a clause it does not
        return words[1] in _EN_POINTERS or words[1] in {
            "i",
            "we",
            "he",
            "she",
            "they",
            "is",
            "was",
            "are",
            "were",
            "'s",
            "the",
            "a",
            "an",
            "my",
        }
    return first in _EN_POINTERS


def _pref_en(m: re.Match, zh: bool) -> Found | None:
    obj = clean(m.group("obj"), False)
    if not obj:
        return None
    verb = _EN_PREF_VERBS.get(" ".join(m.group("verb").lower().split()), m.group("verb").lower())
    if obj.lower().startswith("to ") and verb in {"like", "love"}:  # "I'd like to ..." is a wish
        obj = re.sub(r"^(?:just|really|actually|always)\s+", "", obj[3:], flags=re.IGNORECASE)
    if obj.lower() in {"to", "too"} or _points_elsewhere(obj):
        return None
    neg = m.groupdict().get("neg")
    if neg:
        if verb not in {"like", "love", "enjoy", "prefer"}:  # "I don't hate X": no stance to keep
            return None
        neg = _EN_PREF_NEGATED[" ".join(neg.lower().split())]
        verb = "dislike" if (neg, verb) == ("don't", "like") else f"{neg} {verb}"
    return Found("OPINION", verb, obj, 0.5)


def _fan_en(topic: str) -> Callable:
    def make(m: re.Match, zh: bool) -> Found | None:
        obj = clean(m.group("obj"), False)
        return Found("OPINION", topic, obj, 0.5) if obj and not _points_elsewhere(obj) else None

    return make


def _favourite_en(m: re.Match, zh: bool) -> Found | None:
    what, obj = clean(m.group("what"), False, 40), clean(m.group("obj"), False)
    if not what or not obj or _points_elsewhere(obj):
        return None
    return Found("OPINION", f"favorite {what}", obj, 0.6)


def _fact_en(topic: str, importance: float = 0.6, banned: Iterable[str] = ()) -> Callable:
    def make(m: re.Match, zh: bool) -> Found | None:
        obj = clean(m.group("obj"), False)
        if not obj or any(obj.lower().startswith(b) for b in banned) or _points_elsewhere(obj):
            return None
        return Found("FACT", topic, obj, importance)

    return make


def _rel_en(m: re.Match, zh: bool) -> Found | None:
    name = re.sub(r"'s?$", "", m.group("name").strip())  # "my daughter Sara's birthday": Sara
    if not name or name.lower() in _EN_NOT_NAMES:
        return None
    return Found("RELATION", _relation_topic(m.group("rel"), False), name, 0.7)


def _pref_zh(m: re.Match, zh: bool) -> Found | None:
    obj = clean(m.group("obj"), True, 40)
    if not obj or obj.startswith("的") or obj in _ZH_POINTERS or obj[0] in "什谁哪吗":
        return None
    verb = _ZH_PREF.get(m.group("verb"), m.group("verb"))
    if m.group("neg"):
        if m.group("verb") not in _ZH_PREF_POSITIVE:  # 并不讨厌: no stance to keep
            return None
        verb = "不喜欢"
    return Found("OPINION", verb, obj, 0.5)


def _favourite_zh(m: re.Match, zh: bool) -> Found | None:
    what, obj = clean(m.group("what"), True, 20), clean(m.group("obj"), True, 40)
    return Found("OPINION", f"最喜欢的{what}", obj, 0.6) if what and obj else None


def _fact_zh(topic: str, importance: float = 0.6, banned: Iterable[str] = ()) -> Callable:
    def make(m: re.Match, zh: bool) -> Found | None:
        obj = clean(m.group("obj"), True, 40)
        if not obj or any(obj.startswith(b) for b in banned) or obj in _ZH_POINTERS:
            return None
        return Found("FACT", topic, obj, importance)

    return make


def _identity_zh(m: re.Match, zh: bool) -> Found | None:
    """我是老师 → 我 是 老师; not 我是说…, 我是昨天到的 (an emphasis, not who I am)."""
    found = _fact_zh(
        "是",
        0.5,
        banned=("说", "觉得", "想", "不", "没", "在", "真的", "因为", "从", "怎么", "什么", "为了", "这样", "那样"),
    )(m, zh)
    if found is None or found.object.endswith("的"):
        return None
    return found


def _rel_zh(m: re.Match, zh: bool) -> Found | None:
    name = m.group("name").strip()
    rel = m.group("rel")
    if not name or name in {"我", "你", "他", "她", "它", "这", "那", "谁"}:
        return None
    if name[0] in _ZH_NOT_NAME_EDGE or name[-1] in _ZH_NOT_NAME_EDGE:  # 小明不是我的朋友: not a friend
        return None
    attributes = {"程度": "好朋友"} if rel == "好朋友" else None
    return Found("RELATION", "朋友" if rel == "好朋友" else rel, name, 0.7, attributes)


# "X也是Y" is "X是Y"; "X可能是Y" is a guess, not a fact.
_ZH_X_ADVERB = re.compile(r"(?:也|都|还|就|又|才|真的|真|确实|其实|原来|一直|曾经|已经|并)$")
_ZH_X_GUESS = re.compile(r"(?:可能|应该|也许|大概|好像|似乎|一定|肯定|会)$")


def _x_is_y_zh(m: re.Match, zh: bool) -> Found | None:
    x, y = clean(m.group("x"), True, 20), clean(m.group("y"), True, 40)
    if not x or not y or x[0] in "这那它他她你我谁哪什如要假" or len(x) > 12 or y[0] in "不没":
        return None
    topic = "是"
    if x.endswith("不"):  # 小明不是医生: 小明 不是 医生, never 小明 是 医生
        x, topic = x[:-1], "不是"
    if _ZH_X_GUESS.search(x):
        return None
    x = _ZH_X_ADVERB.sub("", x)
    if not x or x[-1] in "不没":
        return None
    return Found("FACT", topic, y, 0.5, subject=x)


EN_RULES: list[Rule] = [
    (
        _en(
            rf"\bmy (?:all[- ]time |absolute |very |new )?favou?rite (?P<what>[a-z][\w' -]{{0,30}}?) "
            rf"(?:is|are|was|were|has to be|would be) (?P<obj>{_NP}+)"
        ),
        _favourite_en,
    ),
    (
        _en(
            rf"\bI (?:really |absolutely |just |truly |do |also |still |totally |kinda |kind of |"
            rf"genuinely |so )*(?P<verb>love|loves|like|enjoy|adore|hate|dislike|despise|prefer|can't stand|"
            rf"cannot stand|don't like|do not like) (?P<obj>{_NP}+)"
        ),
        _pref_en,
    ),
    (
        _en(
            rf"\bI (?:(?P<neg>don't|do not|no longer|never) (?:really |much |particularly |even )?)"
            rf"(?P<verb>love|like|enjoy|prefer) (?P<obj>{_NP}+)"
        ),
        _pref_en,
    ),
    (_en(rf"\bI(?:'m| am) (?:a (?:big |huge )?fan of) (?P<obj>{_NP}+)"), _fan_en("is a fan of")),
    (
        _en(
            rf"\bI(?:'m| am) (?:really |so |totally )?(?P<what>into|passionate about|fond of|obsessed with) "
            rf"(?P<obj>{_NP}+)"
        ),
        lambda m, zh: _fan_en(f"is {m.group('what').lower()}")(m, zh),
    ),
    (re.compile(rf"\b[Mm]y name is (?P<obj>{_NAME_EN})"), _fact_en("name", 0.8)),
    (re.compile(rf"\b(?:[Cc]all me|I go by) (?P<obj>{_NAME_EN})"), _fact_en("name", 0.8)),
    (
        _en(rf"\bI(?:'m| am)? (?:currently |now |still )?(?:work|working|employed) (?:at|for|in) (?P<obj>{_NP}+)"),
        _fact_en("works at", 0.6),
    ),
    (
        _en(rf"\bI(?:'m| am)? (?:currently |now |still )?(?:live|living|reside|residing|based) in (?P<obj>{_NP}+)"),
        _fact_en("lives in", 0.6),
    ),
    (_en(rf"\bI(?:'m| am) (?:originally )?from (?P<obj>{_NP}+)"), _fact_en("is from", 0.6)),
    (
        _en(rf"\bI(?:'m| am) (?:a|an) (?P<obj>{_NP}+)"),
        _fact_en("is a", 0.5, banned=("bit", "little", "lot", "big fan", "fan", "huge fan", "part of")),
    ),
    (re.compile(rf"\b[Mm]y (?P<rel>{_EN_RELATIONS}),? (?:(?:named|called) )?(?P<name>{_NAME_EN})\b"), _rel_en),
    (re.compile(rf"\b[Mm]y (?P<rel>{_EN_RELATIONS})'s name is (?P<name>{_NAME_EN})\b"), _rel_en),
    (
        re.compile(rf"\b(?P<name>{_NAME_EN}) (?:is|was) my (?:best |close |good |old )?(?P<rel>{_EN_RELATIONS})\b"),
        _rel_en,
    ),
]

_ZH_ADVERBS = r"(?:也|还|真的|真|很|非常|特别|最|超|超级|挺|蛮|一直|比较|都|就|好)"
ZH_RULES: list[Rule] = [
    (re.compile(rf"我最(?:喜欢|爱)的(?P<what>{_NP}{{1,10}}?)(?:是|就是)(?P<obj>{_NP}+)"), _favourite_zh),
    (
        re.compile(
            rf"我{_ZH_ADVERBS}*(?P<neg>不再|再也不|一点也不|一点都不|并不|从来不|从不|不太|不怎么|不是很|不是特别)?"
            rf"{_ZH_ADVERBS}*(?P<verb>不喜欢|喜欢|喜爱|讨厌|热爱|不爱|爱|恨|受不了)(?P<obj>{_NP}+)"
        ),
        _pref_zh,
    ),
    (
        re.compile(r"我(?:的名字)?(?:叫|是叫|名叫)(?P<obj>[^，,。！？；;!?\s]{1,12})"),
        _fact_zh("叫", 0.8, banned=("了", "他", "她", "你", "它", "人", "醒", "车", "外卖", "过", "着")),
    ),
    (re.compile(r"我的名字是(?P<obj>[^，,。！？；;!?\s]{1,12})"), _fact_zh("叫", 0.8)),
    (re.compile(rf"我(?:现在|目前|一直)?在(?P<obj>{_NP}{{1,30}}?)(?:工作|上班|任职|实习)"), _fact_zh("工作于", 0.6)),
    (re.compile(rf"我(?:现在|目前)?(?:就职于|供职于|任职于)(?P<obj>{_NP}{{1,30}})"), _fact_zh("工作于", 0.6)),
    (re.compile(rf"我(?:现在|目前|一直)?(?:住在|家在|居住在|生活在)(?P<obj>{_NP}{{1,30}})"), _fact_zh("住在", 0.6)),
    (re.compile(rf"我(?:来自|是从)(?P<obj>{_NP}{{1,20}}?)(?:来的|过来的|人|$|(?={_P}))"), _fact_zh("来自", 0.6)),
    (re.compile(rf"我是(?:一名|一个|一位|个|名|位)?(?P<obj>{_NP}{{1,30}})"), _identity_zh),
    (
        re.compile(
            rf"我的(?P<rel>{_ZH_RELATIONS})(?:是|叫|，|,)?(?P<name>[{HAN_CHARS}]{{1,3}}?|[A-Z][a-z]+)"
            rf"{_NAME_ZH_FOLLOW}"
        ),
        _rel_zh,
    ),
    (
        re.compile(
            rf"(?:^|[，,。！？!?])\s*(?P<name>[{HAN_CHARS}]{{2,4}}|[A-Z][a-z]+)(?:是|就是)我(?:的|最好的)"
            rf"(?P<rel>{_ZH_RELATIONS})"
        ),
        _rel_zh,
    ),
]
_ZH_X_IS_Y = re.compile(r"^(?P<x>[^，,。！？；;!?\s]{1,12}?)是(?P<y>[^，,。！？；;!?]{1,40})$")

# --- English clauses: subject, predicate, object -------------------------------------------
# A clause ends at a dash, a semicolon or a colon, and at a comma or a conjunction before a new
# subject ("…, it was so powerful", "… and I").
_EN_CLAUSE_END = re.compile(
    r"\s+[-–—]+\s+|\s*[;:]\s+|"
    r",\s+(?=(?:(?:and|but|so|or|then|plus|because|cause|since|though|although|while|as|after|before|until|"
    r"when|once|if|unless)\s+)?(?:it|it's|he|she|they|you|this|that|there)\b)|"
    r",\s+(?=(?:[\w']+\s+){0,3}(?:I|we)(?:'\w+)?\b)|"
    r"\s+(?=(?:and|but|so|because|cause|since|though|although|while|after|before|until|when|once|if|unless)\s+"
    r"(?:[\w']+\s+){0,2}(?:I|we)(?:'\w+)?\b)",
    re.IGNORECASE,
)
# Words that may stand before the subject of a clause that states a fact: interjections,
# conjunctions, discourse adverbs and time words. Not "if", "unless", "once" (a condition), nor
# anything else: "the city I live in" and "a road trip we took" are not about the speaker.
_EN_LEAD = frozenset(
    """
oh hey hi hello yeah yes yep yup wow whoa well so and but also plus actually anyway anyways btw honestly ok okay
lol haha um uh hmm right sure thanks then now today tonight recently lately finally just still again too really
by the way guess what because cause since after before when while though although as until till ever in on at
this last next past early earlier later ago morning afternoon evening night week weekend month year day days
weeks months years monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
two three few couple of man omg gosh speaking luckily sadly fortunately unfortunately you know
""".split()
)
_COMPANION = r"(?:[Mm]y|[Oo]ur) [a-z]+(?: [a-z]+)?|[A-Z][a-z]+"
_EN_COMPANION = re.compile(_COMPANION)
_EN_SUBJECT = re.compile(
    rf"(?:(?P<with>{_COMPANION}) and )?"
    r"(?P<subj>\bI|\bi|\b[Ww]e)(?P<contr>'m|'ve|'d|'ll|'re)?(?![\w'])"
)
# Words that open a condition, a guess or a question: a capitalised one is no speaker's name.
_EN_NOT_LEAD = {
    "if",
    "unless",
    "once",
    "whether",
    "maybe",
    "perhaps",
    "hopefully",
    "wish",
    "suppose",
    "imagine",
    "what",
    "why",
    "how",
    "where",
    "who",
    "which",
    "that",
    "the",
    "a",
    "an",
    "even",
    "whenever",
    "someday",
    "probably",
}
_EN_CONTRACTIONS = {"'m": "am", "'ve": "have", "'ll": "will", "'re": "are", "'d": "'d"}
_EN_NEGATED_AUX = {
    "don't": "do",
    "dont": "do",
    "doesn't": "does",
    "doesnt": "does",
    "didn't": "did",
    "didnt": "did",
    "can't": "can",
    "cant": "can",
    "cannot": "can",
    "won't": "will",
    "haven't": "have",
    "havent": "have",
    "hasn't": "has",
    "hadn't": "had",
    "isn't": "is",
    "aren't": "are",
    "wasn't": "was",
    "wasnt": "was",
    "weren't": "were",
    "couldn't": "could",
    "wouldn't": "would",
    "shouldn't": "should",
    "mustn't": "must",
    "ain't": "am",
}
_EN_BE = {"am", "are", "is", "was", "were", "be", "been", "being"}
_EN_HAVE = {"have", "has", "had"}
_EN_AUX = (
    _EN_BE
    | _EN_HAVE
    | {"do", "does", "did", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "'d"}
)
_EN_MODAL = {"would", "should", "could", "might", "may", "must", "shall"}  # a wish or a possibility
_EN_DROPPED_ADVERBS = {
    "just",
    "really",
    "actually",
    "finally",
    "also",
    "recently",
    "totally",
    "truly",
    "definitely",
    "kinda",
    "so",
    "even",
    "already",
    "currently",
    "now",
    "all",
    "both",
    "literally",
    "basically",
    "honestly",
    "seriously",
    "officially",
    "super",
    "lately",
    "first",
    "only",
    "sort",
    "absolutely",
    "somehow",
    "luckily",
}
_EN_KEPT_ADVERBS = {"always", "usually", "often", "sometimes", "rarely", "still"}
_EN_PARTICLES = {"up", "out", "off", "down", "back", "away", "over", "around", "along"}
_EN_PREPOSITIONS = {"about", "of", "for", "in", "into", "with", "to", "at", "by", "on", "from", "over", "as"}
# Verbs of saying, thinking and feeling: "I think …", "I told her …", "I wanted to tell you …"
# report or hedge; the fact, if any, is in what follows, which is not this clause's object.
_EN_NOT_FACT_VERBS = frozenset(
    """
think thinks thought guess guessed mean means meant know knows knew hope hopes hoped hoping wish wishes wished
feel feels felt feeling bet agree agreed wonder wondered wondering suppose supposed believe believed imagine
imagined understand understood appreciate appreciated remember remembered remembering forget forgot forgotten
say says said saying tell tells told telling ask asks asked asking thank thanked wait waiting need needs needed
mention mentioned realize realized realise realised hear heard recall recalled promise promised admit admitted
doubt doubted reckon share shared check checked let update chat chatted talk talked reach reached owe
""".split()
)
_EN_NOT_VERB = {
    "a",
    "an",
    "the",
    "my",
    "our",
    "some",
    "these",
    "those",
    "this",
    "that",
    "it",
    "to",
    "so",
    "very",
    "really",
    "pretty",
    "quite",
    "not",
    "no",
    "yes",
    "yeah",
    "all",
    "just",
    "more",
    "too",
    "last",
    "much",
    "many",
    "also",
    "still",
    "ever",
    "never",
    "always",
    "even",
    "only",
    "both",
    "sure",
    "glad",
    "sorry",
    "here",
    "there",
    "gonna",
    "wanna",
    "gotta",
    "can",
    "could",
    "would",
    "should",
    "might",
    "must",
    "will",
    "shall",
    "may",
    "do",
    "did",
    "does",
    "and",
    "or",
    "but",
    "if",
    "like",
    "in",
    "at",
    "on",
    "of",
    "for",
    "with",
    "from",
    "by",
    "as",
    "about",
    "one",
    "ok",
    "okay",
    "totally",
    "definitely",
    "actually",
    "honestly",
    "already",
    "hope",
    "think",
}
_EN_IRREGULAR_PAST = frozenset(
    """
went took made got saw ran had did met bought found gave felt came left kept lost won began built brought caught
taught told spent sent sold heard held drew drove flew grew knew swam sang ate drank wore chose broke fell rode
wrote woke sat stood threw thought became paid led fed fought hung slept spoke stole struck swore tore understood
shook sped forgave rang sank spun dug stuck swung hid bit lit slid fled bled bent lent meant dealt dreamt leapt
knelt wept swept crept sought froze rose wove dove arose awoke bore shone shot spat forgot trod overcame
""".split()
)
_EN_VERB_PREFIXES = ("re", "over", "under", "for", "with", "mis", "out", "up", "be")
_EN_IRREGULAR_PARTICIPLES = frozenset(
    """
been gone done seen taken given eaten written driven known grown shown flown drawn worn chosen broken fallen
ridden woken thrown become begun run sung swum got gotten made had met bought found felt kept lost won built
brought caught taught told spent sent sold heard held left paid read put set cut hit hurt quit spread born
""".split()
)
# Participles that say something happened ("I got married last June"), not how one felt ("I was tired").
_EN_EVENT_PARTICIPLES = {
    "born",
    "married",
    "engaged",
    "divorced",
    "promoted",
    "hired",
    "fired",
    "elected",
    "injured",
    "hurt",
    "diagnosed",
    "baptized",
    "baptised",
    "accepted",
    "admitted",
    "adopted",
    "discharged",
    "released",
    "vaccinated",
    "robbed",
    "evicted",
    "laid",
    "graduated",
}
_EN_SAME_IN_PAST = {
    "read",
    "put",
    "cut",
    "hit",
    "set",
    "let",
    "quit",
    "spread",
    "cost",
    "hurt",
    "beat",
    "bet",
    "shut",
    "split",
    "fit",
}
# Words left dangling at the end of an object once its time is taken out ("about five years ago").
_EN_DANGLING = {
    "about",
    "around",
    "for",
    "in",
    "on",
    "at",
    "to",
    "from",
    "of",
    "with",
    "by",
    "since",
    "until",
    "and",
    "or",
    "the",
    "a",
    "an",
    "like",
    "roughly",
    "nearly",
    "almost",
    "over",
    "some",
    "my",
    "our",
    "this",
    "that",
    "later",
    "earlier",
    "back",
    "during",
    "than",
    "just",
    "right",
    "only",
}
MAX_OBJECT_WORDS = 16  # a longer run-on object cannot be told where it ends: no memory


def _en_words(text: str) -> list[str]:
    return [w for w in text.split() if w]


def _bare(word: str) -> str:
    return word.strip(",.;:!?\"'()").lower()


def _en_lead_only(text: str) -> bool:
    """Whether what stands before a subject is only lead-in words (yeah, last week, Caroline)."""
    for word in _en_words(text):
        bare = word.strip(",.;:!?\"'()…")
        if not bare or bare[0].isdigit() or not any(ch.isalpha() for ch in bare):  # numbers, emoji, dashes
            continue
        if bare.lower() in _EN_NOT_LEAD or (
            bare.lower() not in _EN_LEAD and not (bare[0].isupper() and bare.isalpha())
        ):
            return False
    return True


def _en_segments(sentence: str) -> list[tuple[int, int]]:
    """The clauses of an English sentence as spans; a lead-in alone ("Last Friday,") joins the
    clause after it."""
    starts, ends = [0], []
    for m in _EN_CLAUSE_END.finditer(sentence):
        if _EN_COMPANION.fullmatch(sentence[starts[-1] : m.start()].strip(" ,")):
            continue  # "My colleagues and I went …": one subject, not two clauses
        if m.start() > starts[-1]:
            ends.append(m.start())
            starts.append(m.end())
    ends.append(len(sentence))
    spans = [(a, b) for a, b in zip(starts, ends) if sentence[a:b].strip()]
    merged: list[tuple[int, int]] = []
    pending = None
    for a, b in spans:
        if pending is not None:
            a, pending = pending, None
        if _en_lead_only(sentence[a:b]) and (a, b) != spans[-1]:
            pending = a
            continue
        merged.append((a, b))
    return merged


def _agree(word: str, third: bool) -> str:
    """An auxiliary agreeing with the subject: am/is, have/has, do/does (we're → I am / Caroline is)."""
    if word in {"am", "are", "is"}:
        return "is" if third else "am"
    if word in {"have", "has"}:
        return "has" if third else "have"
    if word in {"do", "does"}:
        return "does" if third else "do"
    if word in {"was", "were"}:
        return "was"
    return word


def _third_person_present(verb: str) -> str:
    if verb in {"have", "do", "go"}:
        return {"have": "has", "do": "does", "go": "goes"}[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _is_past(verb: str) -> bool:
    """A past (or same-in-past) form: -ed, went, retook, overcame, read."""
    if verb.endswith("ed") or verb in _EN_IRREGULAR_PAST or verb in _EN_SAME_IN_PAST:
        return True
    return any(verb.startswith(p) and verb[len(p) :] in _EN_IRREGULAR_PAST for p in _EN_VERB_PREFIXES)


def _is_participle(word: str) -> bool:
    return word.endswith("ed") or word in _EN_IRREGULAR_PARTICIPLES


def _en_object(words: list[str], time_text: str | None) -> str | None:
    """The object of a clause: up to where the clause ends, time words and fillers taken out."""
    text = " ".join(words)
    if time_text:
        text = re.sub(re.escape(time_text), " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    text = _EN_TRAIL.sub("", _EN_CUT.sub("", text)).strip(" ,.;:!?\"'")
    out = _en_words(text)
    if len(out) > MAX_OBJECT_WORDS:
        out = _en_words(text.split(",", 1)[0])
        if len(out) > MAX_OBJECT_WORDS:
            return None
    while out and (_bare(out[-1]) in _EN_DANGLING or not _bare(out[-1])):
        out.pop()
    return " ".join(out).strip(" ,.;:!?\"'")


def _en_clause_fact(segment: str, time_text: str | None, third: bool) -> Found | None:
    """A clause whose subject is the speaker, as subject + predicate + object.

    ``third``: the speaker is named (Caroline), so the verb agrees in the third person."""
    body = segment
    if time_text:  # the time and a word that only led to it ("about five years ago")
        body = re.sub(
            r"(?:\b(?:about|around|roughly|nearly|almost|over|since|for|in|on|at|during|by|from)\s+)?"
            + re.escape(time_text),
            " ",
            body,
            count=1,
            flags=re.IGNORECASE,
        )
    body = body.replace("’", "'")
    m = _EN_SUBJECT.search(body)
    if m is None or not _en_lead_only(body[: m.start()]):
        return None
    words = [w for w in _en_words(body[m.end() :]) if any(ch.isalnum() for ch in w)]
    tokens: list[str] = []  # the predicate before its verb: auxiliaries, kept adverbs
    contr = (m.group("contr") or "").lower()
    if contr:
        tokens.append(_EN_CONTRACTIONS[contr])
    negated, i = False, 0
    while i < len(words):
        w = words[i].lower().replace("’", "'")
        nxt = _bare(words[i + 1]) if i + 1 < len(words) else ""
        if w in _EN_NEGATED_AUX:
            tokens.append(_EN_NEGATED_AUX[w])
            negated = True
        elif w in {"not", "never"} or (w == "no" and nxt == "longer"):
            negated = True
            i += w == "no"
        elif w in _EN_AUX:
            tokens.append(w)
        elif w == "used" and nxt == "to":
            tokens.append("used to")
            i += 1
        elif w in {"kind", "sort"} and nxt == "of":
            i += 1
        elif w in _EN_DROPPED_ADVERBS:
            pass
        elif w in _EN_KEPT_ADVERBS:
            tokens.append(w)
        else:
            break
        i += 1
    if negated or i >= len(words):
        return None
    auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    if any(a in _EN_MODAL for a in auxes):
        return None
    raw = words[i]
    verb = _bare(raw)
    if "'d" in tokens:  # I'd been / I'd gone: had; I'd love / I'd go: would
        if not _is_participle(verb):
            return None
        tokens = ["had" if t == "'d" else t for t in tokens]
        auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    rest = words[i + 1 :]
    if verb in {"gonna", "going"} and (verb == "gonna" or (rest and _bare(rest[0]) == "to")):
        after = _bare(rest[1]) if verb == "going" and len(rest) > 1 else (_bare(rest[0]) if rest else "")
        goes_somewhere = verb == "going" and (
            after in {"a", "an", "the", "my", "our", "this", "that", "some"}
            or (len(rest) > 1 and rest[1][:1].isupper())
            or after[:1].isdigit()
        )
        if not goes_somewhere:  # going to + verb: a plan ("was going to": one given up)
            if any(a in {"was", "were"} for a in auxes):
                return None
            tokens = (tokens or ["am"]) + ["going to"]
            rest = rest[1:] if verb == "going" else rest
            if not rest:
                return None
            raw, verb, rest = rest[0], _bare(rest[0]), rest[1:]
            auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    if auxes == ["had"] and not _is_participle(verb):  # "I had a great time": had is the verb
        tokens, auxes, raw, verb, rest = [t for t in tokens if t != "had"], [], "had", "had", words[i:]
    if (
        not raw[:1].islower()
        or not verb.isalpha()
        or verb in _EN_NOT_VERB
        or verb in _EN_NOT_FACT_VERBS
        or verb in _EN_POINTERS
    ):
        return None
    last = auxes[-1] if auxes else None
    predicate = [verb]
    if last in _EN_BE and not verb.endswith("ing") and verb != "going":
        # be + adjective or participle: only with its preposition ("passionate about", "born in")
        if rest and _bare(rest[0]) in _EN_PREPOSITIONS and verb not in _EN_PREPOSITIONS:
            predicate.append(_bare(rest[0]))
            rest = rest[1:]
        elif not (time_text and not rest and verb in _EN_EVENT_PARTICIPLES):  # "I was born in 1990"
            return None
    elif last in _EN_HAVE and not _is_participle(verb):
        return None
    elif last in {"do", "does"}:  # an emphatic "I do love": the verb alone
        tokens = [t for t in tokens if t not in {"do", "does"}]
        auxes = [t for t in auxes if t not in {"do", "does"}]
    if rest and _bare(rest[0]) in _EN_PARTICLES and predicate == [verb] and not raw.endswith((",", ".")):
        predicate.append(_bare(rest[0]))
        rest = rest[1:]
    if raw.endswith((",", ".", "!", "?", ";")):
        rest = []
    if rest and rest[0].lower() == "to" and len(rest) > 1 and _bare(rest[1]) in _EN_NOT_FACT_VERBS:
        return None  # "I wanted to tell …": what follows is the point
    if third and not auxes and not _is_past(verb) and predicate[0] == verb:
        predicate[0] = _third_person_present(verb)
    head = [_agree(t, third) for t in tokens]
    topic = " ".join(head + predicate)
    obj = _en_object(rest, time_text)
    if obj is None or (obj == "" and rest and not time_text):
        return None
    if obj and _points_elsewhere(obj):
        return None
    if not obj and not time_text:
        return None
    companion = m.group("with")
    attributes = {"with": companion} if companion and companion.lower() not in _EN_LEAD else None
    return Found("EVENT" if time_text else "FACT", topic[:MAX_NAME], obj or None, 0.5, attributes)


# --- causal clauses -----------------------------------------------------------------------
_ZH_CAUSAL = [
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,]\s*(?:所以|因此|于是|才|就)(?P<b>.+)$"),
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,](?P<b>.+)$"),
    re.compile(r"^(?P<b>.+?)[，,]\s*(?:是)?因为(?P<a>.+)$"),
    re.compile(r"^(?P<a>.+?)[，,]?\s*(?:所以|因此|于是|导致|结果)(?P<b>.+)$"),
]
_EN_CAUSAL = [
    re.compile(r"^because (?:of )?(?P<a>[^,]+), (?:so )?(?P<b>.+)$", re.IGNORECASE),
    re.compile(r"^(?P<b>.+?),? because (?:of )?(?P<a>[^,;]+)", re.IGNORECASE),
    re.compile(
        r"^(?P<a>.+?)(?:,| -|;) (?:so|therefore|which is why|that's why|and so) "
        r"(?P<b>(?:I|we|he|she|they|it|my|our)\b.+)$",
        re.IGNORECASE,
    ),
]
# What may stand before 我 in a clause about the speaker (times are taken out before).
_ZH_LEAD = re.compile(
    r"^(?:[，,、\s]|嗯|啊|哦|哈哈|哈|对了|其实|不过|而且|但是|可是|然后|后来|另外|还有|最近|刚才|"
    r"刚刚|终于|结果|总之|说真的|老实说|你知道吗|你知道|你猜怎么着|你猜|告诉你|跟你说|今天|昨天|"
    r"昨晚|前天|明天|周末|上周|这周|下周|早上|上午|中午|下午|晚上|早饭|午饭|晚饭|放学后|下班后)+"
)
# After 我: a possessive or a kin word makes the clause about someone else (我的朋友…, 我妈妈…).
_ZH_NOT_ME = re.compile(
    rf"^(?:(?![和跟与同给对被把在向从])(?:(?![了过着])[^的，,]){{0,3}}的|家|们家|{_ZH_RELATIONS}|妈|爸)"
)
# After 我: a guess, a wish or a thought (我可能…, 我想…, 我觉得…) states no fact.
_ZH_NOT_FACT = re.compile(
    r"^(?:可能|也许|大概|应该|想|希望|要是|如果|觉得|认为|以为|听说|猜|感觉|知道|记得|相信|不知道|"
    r"怎么|为什么)"
)
_ZH_SPACE = re.compile(rf"(?<=[{HAN_CHARS}，,])\s+|\s+(?=[{HAN_CHARS}，,])")  # a space left where a time was


_EN_VERBISH = {
    "is",
    "was",
    "are",
    "were",
    "has",
    "had",
    "have",
    "will",
    "would",
    "can",
    "could",
    "did",
    "does",
    "do",
    "got",
    "gets",
    "kept",
    "broke",
    "went",
    "came",
    "made",
    "said",
    "became",
    "felt",
    "looked",
    "seemed",
    "took",
    "gave",
    "ran",
    "fell",
    "left",
    "told",
    "won",
    "lost",
    "began",
    "started",
    "stopped",
    "makes",
    "keeps",
    "needs",
    "wants",
    "loves",
    "hates",
    "likes",
}
_EN_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those"}
# A pronoun subject names nobody the clause says: "it really bugged me" is no fact about anything.
_EN_PRONOUN_SUBJECTS = {
    "i",
    "we",
    "you",
    "it",
    "he",
    "she",
    "they",
    "this",
    "that",
    "there",
    "these",
    "those",
    "which",
    "who",
    "what",
    "everyone",
    "someone",
    "something",
    "everything",
}


def _third_person(text: str, time_text: str | None) -> Found | None:
    """A causal clause about something else ("the train broke down"): its own subject and verb."""
    body = text.replace(time_text, " ") if time_text else text
    words = " ".join(body.split()).strip(" ,.;!?").split(" ")
    first = words[0].lower().split("'")[0] if words else ""
    if not first or first in _EN_PRONOUN_SUBJECTS or first in _EN_LISTENER:
        return None
    for i, word in enumerate(words[:5]):
        w = word.lower()
        if i and (w in _EN_VERBISH or (w.endswith("ed") and len(w) > 3)):
            subject = " ".join(x for x in words[:i] if x.lower() not in _EN_DETERMINERS)
            if not subject or any(x.lower() in _EN_PRONOUN_SUBJECTS | _EN_LISTENER for x in words[:i]):
                return None
            obj = clean(" ".join(words[i + 1 :]), False)
            if obj and _points_elsewhere(obj):
                return None
            return Found("EVENT" if time_text else "FACT", w, obj, 0.5, subject=subject[:MAX_NAME])
    return None


class RuleExtractor:
    """``extract(episodes) -> ExtractionPlan``: memories per turn, linked to that turn."""

    name = "rules"

    def __init__(self, find_time: Callable | None = None, normalize: Callable | None = None):
        from graphmem.timeparse import find_time_range, normalize_time

        self._find_time = find_time or find_time_range
        self._normalize = normalize or normalize_time

    def extract(self, episodes: list[EpisodeView]) -> ExtractionPlan:
        plan = ExtractionPlan()
        for ep in episodes:
            if ep.role not in MINED_ROLES:
                continue
            self._episode(ep, plan)
        return plan

    # --- one turn ---
    def _episode(self, ep: EpisodeView, plan: ExtractionPlan) -> None:
        seen: set[tuple] = set()
        speaker_named = not is_user_speaker(ep.speaker)

        def add(found: Found, chinese: bool, time_text: str | None) -> str | None:
            subject = found.subject or (
                ep.speaker.strip() if speaker_named and ep.speaker else ("我" if chinese else "I")
            )
            attributes = dict(found.attributes or {})
            if time_text:
                attributes.setdefault("时间" if chinese else "time", time_text)
            relative = False
            for k, v in attributes.items():
                if v == time_text:
                    absolute = self._absolute(v, ep)
                    attributes[k] = absolute or v
                    relative = relative or absolute is None
            memory = {
                "subject": subject[:MAX_NAME],
                "memory_type": found.memory_type,
                "topic": found.topic[:MAX_NAME],
                "object": found.object,
                "attributes": attributes,
                "importance": found.importance,
            }
            ident = (subject.lower(), found.memory_type, found.topic.lower(), (found.object or "").lower())
            if ident in seen:
                return None
            seen.add(ident)
            key = f"{ep.id}:{len(seen)}"
            plan.memories.append(
                PlannedMemory(
                    key=key,
                    memory=memory,
                    episode_ids=[ep.id],
                    reference_time=ep.timestamp.isoformat(),
                    session_id=ep.session_id or None,
                    relative=relative,
                )
            )
            return key

        for sentence in sentences(_CAPTION.sub("", ep.content)):
            sentence = _statement_part(sentence)
            if not sentence:  # a question asks; it states nothing
                continue
            chinese = is_chinese(sentence)
            if not chinese:
                sentence = sentence.replace("’", "'")
            cause_effect = self._causal(sentence, chinese)
            if cause_effect:
                keys = []
                for clause in cause_effect:
                    time_text = self._time(clause, ep)
                    found = self._clause(clause, chinese, time_text, generic=True, third=speaker_named)
                    keys.append(add(found[0], chinese, time_text) if found else None)
                if keys[0] and keys[1]:
                    plan.links.append(
                        PlannedLink(source=keys[0], target=keys[1], relation_type="because", importance=0.6)
                    )
                continue
            if chinese:
                time_text = self._time(sentence, ep)
                for found in self._clause(sentence, chinese, time_text, generic=False):
                    add(found, chinese, time_text if found.memory_type == "EVENT" else None)
                continue
            framing = None  # a time said in a clause of its own ("Last week was wild - I …")
            for a, b in _en_segments(sentence):
                segment = sentence[a:b].strip()
                own = self._time(segment, ep)
                time_text = own or framing
                found = self._clause(segment, False, time_text, generic=False, third=speaker_named)
                for f in found:
                    add(f, False, time_text if f.memory_type == "EVENT" else None)
                framing = own if own and not found else (None if own else framing)

    def _absolute(self, text: str, ep: EpisodeView) -> str | None:
        """The time as an absolute value (昨天 said on 2025-11-05 → 2025-11-04) when that reads back
        the same from any reference time; None: keep the words, read against the turn's time."""
        try:
            tv = self._normalize(text, ep.timestamp)
            if not tv.parsed:
                return None
            shown = tv.display()
            again = self._normalize(shown, ep.timestamp.replace(year=ep.timestamp.year + 7))
        except Exception:  # noqa: BLE001 - unreadable: keep the words
            return None
        same = again.parsed and again.start == tv.start and again.granularity == tv.granularity
        return shown if same else None

    def _time(self, text: str, ep: EpisodeView) -> str | None:
        try:
            hit = self._find_time(text, ep.timestamp)
        except Exception:  # noqa: BLE001 - a time we cannot read is no time
            return None
        return hit[2] if hit else None

    def _causal(self, sentence: str, chinese: bool) -> tuple[str, str] | None:
        for pattern in _ZH_CAUSAL if chinese else _EN_CAUSAL:
            m = pattern.match(sentence.strip(" 。.!！?？"))
            if m:
                a, b = m.group("a").strip(" ，,"), m.group("b").strip(" ，,。.!！")
                if len(a) >= 2 and len(b) >= 2:
                    return a, b
        return None

    def _clause(
        self, text: str, chinese: bool, time_text: str | None, *, generic: bool, third: bool = False
    ) -> list[Found]:
        """What a clause (an English one, a Chinese sentence, or a causal clause) says: the
        specific patterns, else an event (timed) or, in a causal clause, a fact."""
        found: list[Found] = []
        for pattern, make in ZH_RULES if chinese else EN_RULES:
            for m in pattern.finditer(text):
                if (
                    not chinese
                    and m.group(0)[:2] in {"I ", "I'", "i "}
                    and not _en_lead_only(_lead_before(text, m.start()))
                ):
                    continue  # "the city I live in": the speaker is not this clause's subject
                if not chinese and _cut_inside_phrase(text, m):
                    continue  # "passionate about creating a safe, inviting place": cut mid-phrase
                f = make(m, chinese)
                if f is not None:
                    found.append(f)
        if chinese and not found:
            m = _ZH_X_IS_Y.match(text.strip(" 。！？!?"))
            if m:
                f = _x_is_y_zh(m, True)
                if f is not None:
                    found.append(f)
        if found:
            if time_text:
                found = [
                    Found(
                        f.memory_type,
                        f.topic,
                        f.object,
                        f.importance,
                        {**(f.attributes or {}), ("时间" if chinese else "time"): time_text},
                        f.subject,
                    )
                    for f in found
                ]
            return found
        if not (generic or time_text):
            return []
        if chinese:
            return self._generic_zh(text, time_text, generic=generic)
        event = _en_clause_fact(text, time_text, third)
        if event is None and generic:
            event = _third_person(text, time_text)
        return [event] if event else []

    @staticmethod
    def _generic_zh(text: str, time_text: str | None, *, generic: bool) -> list[Found]:
        """A Chinese clause about the speaker as its predicate, kept whole: 失眠 / 去超市买了苹果;
        EVENT when timed. Outside a causal clause, each comma clause that opens with 我 (after
        lead-in words) is one; a clause about someone else (天气真好, 我妈妈…) is none."""
        if generic:
            body = text.replace(time_text, " ") if time_text else text
            body = _ZH_SPACE.sub("", " ".join(body.split())).strip(" ，,。！？!?")
            stripped = _LEAD_ZH.sub("", body)
            if stripped != body and _ZH_NOT_ME.match(stripped):
                return []
            topic = clean(stripped, True, 30)
            return [Found("EVENT" if time_text else "FACT", topic, None, 0.5)] if topic else []
        if time_text and re.search(re.escape(time_text) + "的", text):
            return []  # 秋天的叶子: a time word naming a thing, not when
        out = []
        for clause in re.split(r"[，,；;：:]", text):
            body = clause.replace(time_text, " ") if time_text else clause
            body = _ZH_LEAD.sub("", _ZH_SPACE.sub("", " ".join(body.split())).strip(" 。！？!?"))
            if not body.startswith("我"):
                continue
            stripped = _LEAD_ZH.sub("", body)
            if _ZH_NOT_ME.match(stripped) or _ZH_NOT_FACT.match(stripped):
                continue
            topic = clean(stripped, True, 30)
            if topic:
                out.append(Found("EVENT" if time_text else "FACT", topic, None, 0.5))
        return out


def _cut_inside_phrase(text: str, m: re.Match) -> bool:
    """Whether an English object stops at a comma inside its noun phrase ("a safe, inviting place")."""
    obj = m.groupdict().get("obj")
    return bool(obj) and text[m.end() : m.end() + 1] == "," and re.search(r"\b(?:a|an|the)\s+\w+$", obj) is not None


def _statement_part(sentence: str) -> str | None:
    """The sentence, or what it states before a question put back to the listener
    ("我最喜欢春天了，你呢？" → 我最喜欢春天了); None for a question."""
    if not _QUESTION.search(sentence):
        return sentence
    head, _, tail = re.sub(r"[?？\s\"'”’)）]+$", "", sentence).rpartition("，" if "，" in sentence else ",")
    if head and _LISTENER_TAG.search(tail) and not _ASKS.search(head):
        return head
    return None


def _lead_before(text: str, position: int) -> str:
    """What stands before ``position`` in its own clause: after the last clause break."""
    before = text[:position]
    cut = max((m.end() for m in _EN_CLAUSE_END.finditer(before)), default=0)
    for m in re.finditer(r"[,;:!?.]", before):
        cut = max(cut, m.end())
    return before[cut:]
