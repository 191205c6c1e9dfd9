"""The offline rule-based extractor, Chinese and English.

It reads what a speaker says about themselves and turns it into memories whose subject is
the speaker (the user's own turns: 我 / I; a named speaker such as LoCoMo's "Caroline": that
name):

- preferences: 我喜欢/我爱/我讨厌/我最喜欢的X是Y, I like/love/enjoy/hate/prefer, my favourite X is Y → OPINION;
- facts: 我叫/我的名字是/我在X工作/我住在/我是, my name is, I work at, I live in, I'm from,
  I am a, and X是Y → FACT;
- relations: 我的朋友X / X是我的朋友, my friend X / my wife X / X is my sister → RELATION;
- events: a clause about the speaker with a time expression (昨天, last weekend, 8 May 2023)
  → EVENT with a time attribute, normalised against the turn's timestamp when written;
- 因为…所以… / because / so → a memory for the cause, one for the effect, and a causal link
  from the cause to the effect.

It is deliberately conservative: it finds what is said plainly and leaves the rest to the
episodes themselves, which stay searchable. Assistant and system turns are not mined.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from ..lang import HAN_CHARS, is_chinese, is_user_speaker
from ..types import MAX_NAME
from .models import EpisodeView, ExtractionPlan, PlannedLink, PlannedMemory

MINED_ROLES = {"user"}

# --- sentence and clause splitting --------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;\n])|(?<=[.])\s+(?=[A-Z\"'(])")
_P = r"[，,。！？；;!?\n]"          # clause punctuation (zh + en)
_NP = r"[^，,。！？；;!?\n]"         # anything but clause punctuation


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


# --- phrase clean-up ----------------------------------------------------------------------
_EN_CUT = re.compile(r"\s+(?:because|but|although|though|since|so that|so|and I|and i|and we|which|when|while|"
                     r"if|until|though|and (?:it|he|she|they|this|that|then|now|there))\b.*$", re.IGNORECASE)
_EN_TRAIL = re.compile(r"\s+(?:a lot|so much|very much|too|as well|lately|recently|now|again|anymore|"
                       r"really|though)$", re.IGNORECASE)
_ZH_CUT = re.compile(r"(?:因为|所以|但是|但|可是|不过|而且|然后|因此|于是).*$")
_ZH_TRAIL = re.compile(r"(?:了|啦|呀|啊|呢|吧|哦|的说|哈)+$")
_LEAD_EN = re.compile(r"^(?:i|we)(?:'ve|'m|'d|'ll)?\s+(?:(?:have|has|had|am|was|were|will|would|just|"
                      r"finally|also|recently|really|actually|already|been|still|even|totally)\s+)*", re.IGNORECASE)
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
    subject: str | None = None         # None: the speaker


_EN_RELATIONS = ("best friend|friend|wife|husband|partner|girlfriend|boyfriend|fiancée|fiancee|fiancé|fiance|"
                 "sister|brother|mother|mom|mum|father|dad|son|daughter|boss|manager|colleague|coworker|co-worker|"
                 "roommate|neighbou?r|cousin|aunt|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew|"
                 "mentor|teacher|classmate|dog|cat")
_ZH_RELATIONS = ("好朋友|朋友|闺蜜|老婆|妻子|太太|丈夫|老公|男朋友|女朋友|未婚夫|未婚妻|姐姐|妹妹|哥哥|弟弟|妈妈|母亲|"
                 "爸爸|父亲|儿子|女儿|同事|老板|领导|室友|邻居|表哥|表姐|表弟|表妹|同学|老师|爷爷|奶奶|外公|外婆|狗|猫")
_NAME_EN = r"[A-Z][a-zA-Z'-]+(?: [A-Z][a-zA-Z'-]+)?"
_NAME_ZH_FOLLOW = (r"(?=是|很|也|在|说|和|跟|喜欢|今天|昨天|明天|前天|上周|去|来|要|会|刚|已经|就|都|还|又|"
                   r"的|给|对|把|被|，|,|。|！|？|!|\?|；|$|\s)")

_EN_PREF_VERBS = {"love": "love", "loves": "love", "like": "like", "enjoy": "enjoy", "adore": "love",
                  "hate": "hate", "dislike": "dislike", "despise": "hate", "prefer": "prefer",
                  "can't stand": "hate", "cannot stand": "hate", "don't like": "dislike",
                  "do not like": "dislike", "really like": "like"}
_ZH_PREF = {"喜欢": "喜欢", "喜爱": "喜欢", "爱": "爱", "热爱": "爱", "讨厌": "讨厌", "恨": "讨厌",
            "不喜欢": "不喜欢", "不爱": "不喜欢", "受不了": "讨厌"}

Rule = tuple[re.Pattern, Callable[[re.Match, bool], Found | None]]


def _en(regex: str) -> re.Pattern:
    return re.compile(regex, re.IGNORECASE)


def _relation_topic(rel: str, chinese: bool) -> str:
    rel = rel.lower()
    return {"mom": "mother", "mum": "mother", "dad": "father", "co-worker": "coworker",
            "neighbour": "neighbor", "fiancée": "fiancee", "fiancé": "fiance"}.get(rel, rel)


def _pref_en(m: re.Match, zh: bool) -> Found | None:
    obj = clean(m.group("obj"), False)
    if not obj or obj.lower() in {"it", "that", "this", "them", "you", "to", "so", "too"}:
        return None
    verb = _EN_PREF_VERBS.get(" ".join(m.group("verb").lower().split()), m.group("verb").lower())
    if obj.lower().startswith("to ") and verb in {"like", "love"}:      # "I'd like to ..." is a wish
        obj = obj[3:]
    return Found("OPINION", verb, obj, 0.5)


def _fan_en(m: re.Match, zh: bool) -> Found | None:
    obj = clean(m.group("obj"), False)
    return Found("OPINION", "is a fan of", obj, 0.5) if obj else None


def _favourite_en(m: re.Match, zh: bool) -> Found | None:
    what, obj = clean(m.group("what"), False, 40), clean(m.group("obj"), False)
    return Found("OPINION", f"favorite {what}", obj, 0.6) if what and obj else None


def _fact_en(topic: str, importance: float = 0.6, banned: Iterable[str] = ()) -> Callable:
    def make(m: re.Match, zh: bool) -> Found | None:
        obj = clean(m.group("obj"), False)
        if not obj or any(obj.lower().startswith(b) for b in banned):
            return None
        return Found("FACT", topic, obj, importance)
    return make


def _rel_en(m: re.Match, zh: bool) -> Found | None:
    name = m.group("name").strip()
    if name.lower() in {"i", "is", "and", "the"}:
        return None
    return Found("RELATION", _relation_topic(m.group("rel"), False), name, 0.7)


def _pref_zh(m: re.Match, zh: bool) -> Found | None:
    obj = clean(m.group("obj"), True, 40)
    if not obj or obj.startswith("的") or obj in {"你", "它", "这个", "那个"}:
        return None
    return Found("OPINION", _ZH_PREF.get(m.group("verb"), m.group("verb")), obj, 0.5)


def _favourite_zh(m: re.Match, zh: bool) -> Found | None:
    what, obj = clean(m.group("what"), True, 20), clean(m.group("obj"), True, 40)
    return Found("OPINION", f"最喜欢的{what}", obj, 0.6) if what and obj else None


def _fact_zh(topic: str, importance: float = 0.6, banned: Iterable[str] = ()) -> Callable:
    def make(m: re.Match, zh: bool) -> Found | None:
        obj = clean(m.group("obj"), True, 40)
        if not obj or any(obj.startswith(b) for b in banned):
            return None
        return Found("FACT", topic, obj, importance)
    return make


def _rel_zh(m: re.Match, zh: bool) -> Found | None:
    name = m.group("name").strip()
    rel = m.group("rel")
    if not name or name in {"我", "你", "他", "她", "它", "这", "那", "谁"}:
        return None
    attributes = {"程度": "好朋友"} if rel == "好朋友" else None
    return Found("RELATION", "朋友" if rel == "好朋友" else rel, name, 0.7, attributes)


def _x_is_y_zh(m: re.Match, zh: bool) -> Found | None:
    x, y = clean(m.group("x"), True, 20), clean(m.group("y"), True, 40)
    if not x or not y or x[0] in "这那它他她你我谁哪什" or len(x) > 12:
        return None
    return Found("FACT", "是", y, 0.5, subject=x)


EN_RULES: list[Rule] = [
    (_en(rf"\bmy (?:all[- ]time |absolute |very |new )?favou?rite (?P<what>[a-z][\w' -]{{0,30}}?) "
         rf"(?:is|are|was|were|has to be|would be) (?P<obj>{_NP}+)"), _favourite_en),
    (_en(rf"\bI (?:really |absolutely |just |truly |do |also |still |totally |kinda |kind of |"
         rf"genuinely |so )*(?P<verb>love|loves|like|enjoy|adore|hate|dislike|despise|prefer|can't stand|"
         rf"cannot stand|don't like|do not like) (?P<obj>{_NP}+)"), _pref_en),
    (_en(rf"\bI(?:'m| am) (?:a (?:big |huge )?fan of|really into|into|passionate about|fond of|obsessed with) "
         rf"(?P<obj>{_NP}+)"), _fan_en),
    (re.compile(rf"\b[Mm]y name is (?P<obj>{_NAME_EN})"), _fact_en("name", 0.8)),
    (re.compile(rf"\b(?:[Cc]all me|I go by) (?P<obj>{_NAME_EN})"), _fact_en("name", 0.8)),
    (_en(rf"\bI(?:'m| am)? (?:currently |now |still )?(?:work|working|employed) (?:at|for|in) (?P<obj>{_NP}+)"),
     _fact_en("works at", 0.6)),
    (_en(rf"\bI(?:'m| am)? (?:currently |now |still )?(?:live|living|reside|residing|based) in (?P<obj>{_NP}+)"),
     _fact_en("lives in", 0.6)),
    (_en(rf"\bI(?:'m| am) (?:originally )?from (?P<obj>{_NP}+)"), _fact_en("is from", 0.6)),
    (_en(rf"\bI(?:'m| am) (?:a|an) (?P<obj>{_NP}+)"),
     _fact_en("is a", 0.5, banned=("bit", "little", "lot", "big fan", "fan", "huge fan"))),
    (re.compile(rf"\b[Mm]y (?P<rel>{_EN_RELATIONS}),? (?:(?:named|called|is|was) )?(?P<name>{_NAME_EN})\b"), _rel_en),
    (re.compile(rf"\b(?P<name>{_NAME_EN}) (?:is|was) my (?:best |close |good |old )?(?P<rel>{_EN_RELATIONS})\b"), _rel_en),
]

ZH_RULES: list[Rule] = [
    (re.compile(rf"我最(?:喜欢|爱)的(?P<what>{_NP}{{1,10}}?)(?:是|就是)(?P<obj>{_NP}+)"), _favourite_zh),
    (re.compile(rf"我(?:也|还|真的|真|很|非常|特别|最|超|超级|挺|蛮|一直|比较|都|就|好)*"
                rf"(?P<verb>不喜欢|喜欢|喜爱|讨厌|热爱|不爱|爱|恨|受不了)(?P<obj>{_NP}+)"), _pref_zh),
    (re.compile(rf"我(?:的名字)?(?:叫|是叫|名叫)(?P<obj>[^，,。！？；;!?\s]{{1,12}})"), _fact_zh("名字", 0.8)),
    (re.compile(rf"我的名字是(?P<obj>[^，,。！？；;!?\s]{{1,12}})"), _fact_zh("名字", 0.8)),
    (re.compile(rf"我(?:现在|目前|一直)?在(?P<obj>{_NP}{{1,30}}?)(?:工作|上班|任职|实习)"), _fact_zh("工作单位", 0.6)),
    (re.compile(rf"我(?:现在|目前)?(?:就职于|供职于|任职于)(?P<obj>{_NP}{{1,30}})"), _fact_zh("工作单位", 0.6)),
    (re.compile(rf"我(?:现在|目前|一直)?(?:住在|家在|居住在|生活在)(?P<obj>{_NP}{{1,30}})"), _fact_zh("居住地", 0.6)),
    (re.compile(rf"我(?:是|来自)(?P<obj>{_NP}{{1,20}})人"), _fact_zh("籍贯", 0.6)),
    (re.compile(rf"我是(?:一名|一个|一位|个|名|位)?(?P<obj>{_NP}{{1,30}})"),
     _fact_zh("身份", 0.5, banned=("说", "觉得", "想", "不是", "在", "真的", "因为", "从"))),
    (re.compile(rf"我的(?P<rel>{_ZH_RELATIONS})(?:是|叫|，|,)?(?P<name>[{HAN_CHARS}]{{1,3}}?|[A-Z][a-z]+)"
                rf"{_NAME_ZH_FOLLOW}"), _rel_zh),
    (re.compile(rf"(?:^|[，,。！？!?])\s*(?P<name>[{HAN_CHARS}]{{2,4}}|[A-Z][a-z]+)(?:是|就是)我(?:的|最好的)"
                rf"(?P<rel>{_ZH_RELATIONS})"), _rel_zh),
]
_ZH_X_IS_Y = re.compile(rf"^(?P<x>[^，,。！？；;!?\s]{{1,12}}?)是(?P<y>[^，,。！？；;!?]{{1,40}})$")

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
    re.compile(r"^(?P<a>.+?)(?:,| -|;) (?:so|therefore|which is why|that's why|and so) "
               r"(?P<b>(?:I|we|he|she|they|it|my|our)\b.+)$", re.IGNORECASE),
]
_EN_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|we|we're|we've|my|our|me|us)\b", re.IGNORECASE)
_ZH_FIRST_PERSON = re.compile(r"我")
_EN_NOT_VERB = {"a", "an", "the", "my", "our", "some", "these", "those", "this", "that", "it", "to", "so",
                "very", "really", "pretty", "quite", "not", "no", "yes", "yeah", "all", "just", "more", "too",
                "last", "much", "many", "also", "still", "ever", "never", "always", "even", "only", "both",
                "sure", "glad", "sorry", "here", "there", "too", "gonna", "wanna", "think", "guess", "mean",
                "know", "hope", "wish", "feel", "felt", "bet", "agree", "see", "can", "could", "would",
                "should", "might", "must", "will", "shall", "may", "do", "did", "does"}
_EN_I = re.compile(r"\b(?:I|we)\b(?:'\w+)?", re.IGNORECASE)
_EN_OTHER_SUBJECT = re.compile(r"^(?:it|he|she|they|this|that|there|you|the|a|an|his|her|their|its)\b",
                               re.IGNORECASE)


_EN_VERBISH = {"is", "was", "are", "were", "has", "had", "have", "will", "would", "can", "could", "did", "does",
               "do", "got", "gets", "kept", "broke", "went", "came", "made", "said", "became", "felt", "looked",
               "seemed", "took", "gave", "ran", "fell", "left", "told", "won", "lost", "began", "started",
               "stopped", "makes", "keeps", "needs", "wants", "loves", "hates", "likes"}
_EN_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those"}


def _third_person(text: str, time_text: str | None) -> Found | None:
    """A causal clause about something else ("the train broke down"): its own subject and verb."""
    body = text.replace(time_text, " ") if time_text else text
    words = " ".join(body.split()).strip(" ,.;!?").split(" ")
    for i, word in enumerate(words[:5]):
        w = word.lower()
        if i and (w in _EN_VERBISH or (w.endswith("ed") and len(w) > 3)):
            subject = " ".join(x for x in words[:i] if x.lower() not in _EN_DETERMINERS)
            if not subject:
                return None
            obj = clean(" ".join(words[i + 1:]), False)
            return Found("EVENT" if time_text else "FACT", w, obj, 0.5, subject=subject[:MAX_NAME])
    return None


class RuleExtractor:
    """``extract(episodes) -> ExtractionPlan``: memories per turn, linked to that turn."""

    name = "rules"

    def __init__(self, find_time: Callable | None = None, normalize: Callable | None = None):
        from ..timeparse import find_time_range, normalize_time
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
            subject = found.subject or (ep.speaker.strip() if speaker_named and ep.speaker else
                                        ("我" if chinese else "I"))
            attributes = dict(found.attributes or {})
            if time_text:
                attributes.setdefault("时间" if chinese else "time", time_text)
            relative = False
            for k, v in attributes.items():
                if v == time_text:
                    absolute = self._absolute(v, ep)
                    attributes[k] = absolute or v
                    relative = relative or absolute is None
            memory = {"subject": subject[:MAX_NAME], "memory_type": found.memory_type,
                      "topic": found.topic[:MAX_NAME], "object": found.object, "attributes": attributes,
                      "importance": found.importance}
            ident = (subject.lower(), found.memory_type, found.topic.lower(), (found.object or "").lower())
            if ident in seen:
                return None
            seen.add(ident)
            key = f"{ep.id}:{len(seen)}"
            plan.memories.append(PlannedMemory(key=key, memory=memory, episode_ids=[ep.id],
                                               reference_time=ep.timestamp.isoformat(),
                                               session_id=ep.session_id or None, relative=relative))
            return key

        for sentence in sentences(ep.content):
            chinese = is_chinese(sentence)
            cause_effect = self._causal(sentence, chinese)
            if cause_effect:
                keys = []
                for clause in cause_effect:
                    time_text = self._time(clause, ep)
                    found = self._clause(clause, chinese, time_text, generic=True)
                    keys.append(add(found[0], chinese, time_text) if found else None)
                if keys[0] and keys[1]:
                    plan.links.append(PlannedLink(source=keys[0], target=keys[1],
                                                  relation_type="because", importance=0.6))
                continue
            time_text = self._time(sentence, ep)
            for found in self._clause(sentence, chinese, time_text, generic=False):
                add(found, chinese, time_text if found.memory_type == "EVENT" else None)

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
        for pattern in (_ZH_CAUSAL if chinese else _EN_CAUSAL):
            m = pattern.match(sentence.strip(" 。.!！?？"))
            if m:
                a, b = m.group("a").strip(" ，,"), m.group("b").strip(" ，,。.!！")
                if len(a) >= 2 and len(b) >= 2:
                    return a, b
        return None

    def _clause(self, text: str, chinese: bool, time_text: str | None, *, generic: bool) -> list[Found]:
        """What a sentence (or a causal clause) says: the specific patterns, else an event or a fact."""
        found: list[Found] = []
        for pattern, make in (ZH_RULES if chinese else EN_RULES):
            for m in pattern.finditer(text):
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
                found = [Found(f.memory_type, f.topic, f.object, f.importance,
                               {**(f.attributes or {}), ("时间" if chinese else "time"): time_text}, f.subject)
                         for f in found]
            return found
        first_person = (_ZH_FIRST_PERSON if chinese else _EN_FIRST_PERSON).search(text)
        if not (generic or (time_text and first_person)):
            return []
        event = self._generic(text, chinese, time_text)
        if event is None and generic and not chinese:
            event = _third_person(text, time_text)
        return [event] if event else []

    @staticmethod
    def _generic(text: str, chinese: bool, time_text: str | None) -> Found | None:
        """A clause as topic (+ object): 失眠 / "went" + "to a support group"; EVENT when timed."""
        body = text.replace(time_text, " ") if time_text else text
        body = " ".join(body.split())
        if chinese:
            body = _LEAD_ZH.sub("", body.strip(" ，,。！？!?"))
            topic = clean(body, True, 30)
            if not topic:
                return None
            return Found("EVENT" if time_text else "FACT", topic, None, 0.5)
        body = body.strip(" ,.;!?")
        me = _EN_I.search(body)
        if me is None:                      # only what the speaker says they did or are
            return None
        body = _LEAD_EN.sub("", body[me.start():])
        words = body.split(" ", 1)
        verb = words[0] if words else ""
        if not verb.isalpha() or not verb.islower() or verb in _EN_NOT_VERB:
            return None
        topic = clean(verb, False, 40)
        obj = clean(words[1], False) if len(words) > 1 else None
        if not topic or (obj is None and not time_text):
            return None
        return Found("EVENT" if time_text else "FACT", topic, obj, 0.5)
