"""The offline rule-based extractor, Chinese and English.

It reads a window of turns in order, as a listener would, and keeps what each says as whole
facts: subject, topic and object from one clause, with the turn it came from. Whom a clause is
about comes first (``rules_zh.subject_of`` / ``rules_en.subject_of``): the speaker (我 / I; a
named speaker by name), a person by name, by role (我表妹, my piano teacher: the person named in
that role, in this window or an earlier one that the pipeline's ``people_known`` brings in), or by
pronoun (她 / he: the person named last whom it fits, ``people.People``). What it says of them
comes next (``predicates``), each reading naming its kind (``schema.Kind``) and, for where someone
lives, works or studies, the slot it sets or ends:

- residence and moves: 我住在北京 / 我搬到上海了 / 我不住在广州了, I live in Boston / I moved to
  Chicago / I don't live in London anymore;
- work and school: 我在腾讯工作 / 入职 / 辞职 / 换了工作 / 考上 / 毕业, I work at / joined / quit /
  got laid off / study at / enrolled at / graduated from;
- relations: 我表妹小雯 / 小雯是我表妹, my cousin Ruth / Ruth is my cousin (a RELATION memory, and
  the person becomes the subject of what the clause goes on to say);
- likes and dislikes, and their end: 我爱喝可乐 / 我不再喝可乐了 / 戒了, I love coffee / I don't drink
  coffee anymore / I stopped / no longer;
- possessions (有 / 买了 / 养了, have / own / bought / adopted), plans and intentions (打算 / 准备 /
  想, going to / planning to / want to, a clause about a time to come), name, origin, identity;
- events: a timed clause kept whole as its subject's predicate, with its time and place
  (我昨天在星巴克见了小雯 → 见了小雯, 地点 星巴克; I ran into a friend at the airport last night);
- causes: 因为/由于…所以…, …害得…, X是因为Y, because / so / that's why, and a sentence opening
  with 所以 / so / that's why after one that said something: a memory for the cause, one for the
  effect, and a causal link from the cause to the effect.

It is deliberately conservative, a wrong memory being worse than none:
- a clause counts only where its subject opens it (after words such as "yeah", "last week",
  其实), so "the city I live in" or "a bike ride we took" is nobody's fact, and a pronoun that fits
  no one named gives nothing;
- a negated English clause ("I didn't go", "I've never been") gives no memory unless it is a
  stance or an end (I don't like → dislike, I no longer eat → no longer eat); a Chinese clause
  is kept verbatim as its predicate, negation included (我没睡好 → 没睡好); a negated relation
  (小明不是我的朋友) gives none;
- wishes and possibilities (would, could, might, if …), what used to be (以前, used to) and
  questions give none; an object that only points elsewhere (it, that, how …, you) gives none;
- picture captions added to a turn ("[image: …]") are not the speaker's words and are not mined.

The rest is left to the episodes themselves, which stay searchable. Assistant and system turns
are not mined. The output is ``schema.Extraction``, checked by ``schema.to_plan`` as the LLM
extractor's is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from pydantic import ValidationError as PydanticValidationError

from ..lang import HAN_CHARS, is_chinese, is_user_speaker
from ..lexicon.roles import role_of
from ..lexicon.topics import slot_of
from ..types import MAX_NAME
from . import rules_en, rules_zh
from .models import EpisodeView, ExtractionPlan
from .people import People, owner_key, theirs
from .phrases import _EN_CUT, _EN_TRAIL, _LEAD_ZH, Found, clean, without_dangling
from .schema import ExtractedLink, ExtractedMemory, Extraction, to_plan

MINED_ROLES = {"user"}
WHOLE_LIMIT = 40  # characters of a clause kept whole as its subject's predicate; a longer one is not kept

# --- sentence and clause splitting --------------------------------------------------------
_SENTENCE_END = re.compile(
    r"(?<=[。！？!?；;\n])|(?<![A-Z][a-z]\.)(?<!\b[A-Z]\.)(?<!Mrs\.)(?<=[.])\s+(?=[A-Z\"'(])"
)  # not after a title or an initial (Mrs. Lee, Dr. Wu, St. Mary's, J. Smith)
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


_ZH_RELATIONS = (
    "好朋友|朋友|闺蜜|老婆|妻子|太太|丈夫|老公|男朋友|女朋友|未婚夫|未婚妻|姐姐|妹妹|哥哥|弟弟|妈妈|母亲|"
    "爸爸|父亲|儿子|女儿|同事|老板|领导|室友|邻居|表哥|表姐|表弟|表妹|同学|老师|爷爷|奶奶|外公|外婆|狗|猫"
)

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


_EN_END_POINTERS = {"it", "them", "that", "this", "those", "these", "him", "her"}
# a pointer a verb's particle or "happen" follows, anywhere in the phrase: "pass it on to others",
# "keep it up", "help make that happen"
_EN_POINTER_PARTICLE = re.compile(
    r"\b(?:it|them) (?:on|up|off|out|down|back|over|away|happen|work)\b|\b(?:that|this) happen\b", re.IGNORECASE
)
# An object that says how, not what: "worked hard", "pulled together", "did well"; no memory.
_EN_EMPTY_OBJECTS = frozenset(
    "hard|together|well|a lot|lots|so much|too much|much|again|too|more|better|fine|ok|okay|out|around|"
    "a bit|a little|forever|anyway|alright|a great time|a good time|great|good".split("|")
)


def _ends_on_pointer(phrase: str) -> bool:
    """An English phrase whose end points back instead of naming: "help people go through it",
    "love doing that", "make it happen", "sat with her"; what it is about was said before, not here.
    ("a song that moved me" names a song: "that" before the last word leads a clause.)"""
    words = [w.strip(",.;:!?\"'").lower() for w in phrase.split()]
    return bool(words) and (
        words[-1] in _EN_END_POINTERS
        or (len(words) > 1 and words[-2] in {"it", "them"})
        or _EN_POINTER_PARTICLE.search(phrase) is not None
    )


def _says_how_only(obj: str) -> bool:
    """An object that is only how it was done ("really hard", "so well")."""
    words = [_bare(w) for w in obj.split()]
    said = " ".join(w for w in words if w not in _EN_DROPPED_ADVERBS and w not in {"very", "pretty", "quite"})
    return said in _EN_EMPTY_OBJECTS


# The head of a noun phrase a relative clause says when, why or how of: "the day I met him" is no deed
# done to a day.
_EN_NOT_DONE_TO = frozenset("day time moment year week month night morning evening weekend summer way reason".split())
_EN_NP_DETERMINERS = frozenset("this that the a an my our".split())
_EN_WHEN_AFTER = re.compile(
    r"(?:(?:a few|a couple of|a|one|two|three|several|\d+) (?:days?|weeks?|months?|years?) ago|last \w+|yesterday|"
    r"today|recently|earlier|this (?:week|month|year|morning))\b",
    re.IGNORECASE,
)
_EN_STRANDED = frozenset("to at in on for with about from into".split())


def _relative_deed(segment: str, time_text: str | None) -> Found | None:
    """A thing named before the speaker says what they did to it: "this pride parade I went to a few
    weeks ago", "the space I designed", "that cake I baked for her" → (I) went to / designed / baked
    it. Only a determiner and up to three plain words before "I", a past deed after it."""
    words = _en_without_time(segment, time_text).replace("’", "'").split()
    for i, w in enumerate(words):
        if w not in {"I", "we", "We"} or i < 2 or i + 1 >= len(words):
            continue
        verb = _bare(words[i + 1])
        if not _is_past(verb) or (verb in _EN_NOT_DONE and verb != "made") or verb in _EN_NOT_FACT_VERBS:
            continue
        j = i - 1
        while j >= 0 and i - j <= 4 and _bare(words[j]) not in _EN_NP_DETERMINERS:
            plain = re.fullmatch(r"[A-Za-z][\w'-]*", words[j])
            if not plain or _bare(words[j]) in _EN_PREPOSITIONS | _EN_POINTERS | {
                "and",
                "or",
                "but",
                "so",
                "is",
                "was",
            }:
                break
            j -= 1
        if j < 0 or _bare(words[j]) not in _EN_NP_DETERMINERS or j == i - 1:
            continue
        head = _bare(words[i - 1])
        if head in _EN_NOT_DONE_TO or words[i - 1].endswith((",", ".")):
            continue
        topic = verb
        # "went to" at the end, or before the time: the preposition was the thing's
        stranded = re.search(
            rf"\b(?:I|we) {re.escape(words[i + 1])} (?P<prep>{'|'.join(_EN_STRANDED)})\b\s*(?P<next>.*)$", segment
        )
        if stranded and (
            not stranded.group("next").strip(" ,.!?")
            or (
                time_text and re.match(rf"(?:on |in |at |during )?{re.escape(time_text)}", stranded.group("next"), re.I)
            )
            or _EN_WHEN_AFTER.match(stranded.group("next"))
        ):
            topic = f"{verb} {stranded.group('prep')}"
        said = [words[j].lower(), *words[j + 1 : i - 1], _bare(words[i - 1])]  # "This book" → this book
        thing = " ".join(said)
        return Found("EVENT", topic, thing, 0.5, kind="event")
    return None


def _talked_about(verb: str, rest: list[str]) -> bool:
    """ "talked about my transgender journey": a talk given on something named is a deed ("talked
    to him", "talked about it" are not)."""
    return (
        verb in {"talked", "spoke"}
        and len(rest) > 1
        and _bare(rest[0]) == "about"
        and _bare(rest[1]) in {"my", "our", "the", "a", "an"}
    )


def _en_reaction(predicate: str) -> bool:
    """A predicate that only answers the other speaker: "totally agree", "really hope so", "bet"
    ("forgot my umbrella" says what happened)."""
    words = [_bare(w) for w in predicate.split()]
    while words and words[0] in _EN_DROPPED_ADVERBS:
        words = words[1:]
    return bool(words) and words[0] in _EN_NOT_FACT_VERBS and all(w in _EN_POINTERS for w in words[1:])


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
    r"(?:[\w']+\s+){0,2}(?:I|we)(?:'\w+)?\b)|"
    # "… and my mom is a doctor": a new subject said by whose it is
    r"\s+(?=(?:and|but|while)\s+(?:my|our)\s+[\w']+(?:\s+[\w']+)?\s+(?:is|was|are|were|works|worked|lives|lived)\b)",
    re.IGNORECASE,
)
# Words that may stand before the subject of a clause that states a fact: interjections,
# conjunctions, discourse adverbs and time words. Not "if", "unless", "once" (a condition), nor
# anything else: "the city I live in" and "a bike ride we took" are not about the speaker.
_EN_LEAD = frozenset(
    """
oh hey hi hello yeah yes yep yup wow whoa well so and but also plus actually anyway anyways btw honestly ok okay
lol haha um uh hmm right sure thanks then now today tonight recently lately finally just still again too really
by the way guess what because cause since after before when while though although as until till ever in on at
this last next past early earlier later ago morning afternoon evening night week weekend month year day days
weeks months years monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
two three few couple of man omg gosh speaking luckily sadly fortunately unfortunately you know fyi
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
# Verbs an emphatic do stands before ("I do love it", "she did go"); before anything else do is the verb.
_EN_DO_EMPHASIS = frozenset(
    """
love like enjoy hope want miss need remember think believe know feel have care mean appreciate agree understand
wish get go see try make take come look seem want wonder get not never always still really also just
""".split()
)
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
# What someone else said is a thing they did ("Ms Harper said my daughter concentrates well"), kept
# with what they said; the speaker's own "I said / I told her" still frames what follows.
_EN_REPORTED = frozenset({"say", "says", "said", "tell", "tells", "told", "mention", "mentioned"})
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
knelt wept swept crept sought froze rose wove dove arose awoke bore shone shot spat forgot trod overcame said laid
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
MAX_OBJECT_WORDS = 16  # a longer run-on object cannot be told where it ends: no memory


def _en_words(text: str) -> list[str]:
    return [w for w in text.split() if w]


def _bare(word: str) -> str:
    return word.strip(",.;:!?\"'()").lower()


def _en_lead_only(text: str) -> bool:
    """Whether what stands before a subject is only lead-in words (yeah, last week, a name: Sam)."""
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
    """An auxiliary agreeing with the subject: am/is, have/has, do/does (we're → I am / Dana is)."""
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


def _said_of_named(rest: str) -> str:
    """A first-person predicate as said of a named speaker: its first verb in the third person
    ("am gonna keep it up" → "is gonna keep it up", "totally agree" → "totally agrees")."""
    words = rest.split()
    i = 0
    while i < len(words) - 1 and words[i].lower() in _EN_DROPPED_ADVERBS | _EN_KEPT_ADVERBS:
        i += 1
    w = words[i].lower() if words else ""
    if w in {"am", "have", "do"}:
        words[i] = _agree(w, True)
    elif w in {"don't", "haven't"}:
        words[i] = {"don't": "doesn't", "haven't": "hasn't"}[w]
    elif w.isalpha() and w not in _EN_AUX and w not in _EN_MODAL and w not in {"was", "were", "can", "will"}:
        if not _is_past(w) and not w.endswith(("ing", "s")):
            words[i] = _third_person_present(w)
    return " ".join(words)


# Past verbs that say no deed of their own: a state, a stance, a try or a report
_EN_NOT_DONE = frozenset(
    "had was were did got made used wanted loved liked enjoyed hated tried seemed looked sounded felt thought "
    "needed meant kept let put figured noticed".split()
)


# What "made" is followed by when it made a thing ("made a painting", "made my own pots")
_MADE_WHAT = frozenset("a an another some my our two three four five several".split())

# An object that points at what was said before ("that movie", "it", "them"): no deed of its own
_SAID_BEFORE = re.compile(r"^(?:it|that|this|these|those|them)\b|^one$", re.IGNORECASE)


# A chat sentence that leaves its "I" out: a past verb first, then what it was done to ("Took a
# short trip to Rome", "Lost my job yesterday", "Just started doing aerial yoga"), not how someone
# feels ("Excited for the future!", "Impressed by your work") nor a question ("Got any tips?").
_ELIDED = re.compile(
    r"^(?P<adverbs>(?:(?:just|also|finally|recently|actually)\s+)*)(?P<verb>[A-Z][a-z]+|[a-z]+) "
    r"(?=(?:a|an|the|my|our|some|up|off|\w+ing|(?P<to>to) [a-z]+)\b)",
    re.IGNORECASE,
)
_ELIDED_BEFORE_TO = frozenset("started began decided went came moved headed".split())


def _with_elided_subject(sentence: str) -> str:
    text = rules_en.EN_LEAD.sub("", sentence)
    m = _ELIDED.match(text)
    if m is None or text.rstrip().endswith("?"):
        return sentence
    verb = m.group("verb").lower()
    if not _is_past(verb) or verb in _EN_NOT_DONE or (m.group("to") and verb not in _ELIDED_BEFORE_TO):
        return sentence
    return f"{sentence[: len(sentence) - len(text)]}I {m.group('adverbs')}{verb} {text[m.end() :]}"


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
    return " ".join(without_dangling(out)).strip(" ,.;:!?\"'")


def _en_without_time(text: str, time_text: str | None) -> str:
    """An English clause with its time taken out, and a word that only led to it ("about five
    years ago", "on Sunday")."""
    if not time_text:
        return text
    return re.sub(
        r"(?:\b(?:about|around|roughly|nearly|almost|over|since|for|in|on|at|during|by|from)\s+)?"
        + re.escape(time_text),
        " ",
        text,
        count=1,
        flags=re.IGNORECASE,
    )


def _en_clause_fact(
    segment: str, time_text: str | None, third: bool, negation: bool = False, bare: bool = False
) -> Found | None:
    """A clause whose subject is the speaker, as subject + predicate + object.

    ``third``: the speaker is named (Dana), so the verb agrees in the third person. ``negation``: a
    negated clause is kept, "not" in its topic (said of someone named: "doesn't work on Wednesdays"
    is what they do; the speaker's own "I don't know" says nothing). ``bare``: a verb alone is kept
    (a habit: "I run" every morning)."""
    body = _en_without_time(segment, time_text).replace("’", "'")
    m = _EN_SUBJECT.search(body)
    if m is None or not _en_lead_only(body[: m.start()]):
        return None
    words = [w for w in _en_words(body[m.end() :]) if any(ch.isalnum() for ch in w)]
    tokens: list[str] = []  # the predicate before its verb: auxiliaries, kept adverbs
    contr = (m.group("contr") or "").lower()
    if contr:
        tokens.append(_EN_CONTRACTIONS[contr])
    negated, i, do_verb = False, 0, False
    while i < len(words):
        w = words[i].lower().replace("’", "'")
        nxt = _bare(words[i + 1]) if i + 1 < len(words) else ""
        if w in _EN_NEGATED_AUX:
            tokens.append(_EN_NEGATED_AUX[w])
            negated = True
        elif w in {"not", "never"} or (w == "no" and nxt == "longer"):
            negated = True
            i += w == "no"
        elif w in {"do", "does", "did"} and nxt and nxt not in _EN_DO_EMPHASIS and nxt not in _EN_AUX:
            do_verb = True
            break  # "he does tai chi": do is the verb ("I do love jazz": only emphasis)
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
    if (negated and not negation) or i >= len(words):
        return None
    auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    if any(a in _EN_MODAL for a in auxes) or (negated and not auxes):  # "never eats": not read
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
        or (verb in _EN_NOT_VERB and not do_verb)
        or (verb in _EN_NOT_FACT_VERBS and not (third and verb in _EN_REPORTED) and not _talked_about(verb, rest))
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
    elif last in {"do", "does"} and not negated:  # an emphatic "I do love": the verb alone
        tokens = [t for t in tokens if t not in {"do", "does"}]
        auxes = [t for t in auxes if t not in {"do", "does"}]
    happened = False  # "got married", "got promoted": what happened, said with no object
    if verb in {"got", "get", "gets", "getting"} and rest and _bare(rest[0]) in _EN_EVENT_PARTICIPLES:
        predicate.append(_bare(rest[0]))
        rest, happened = rest[1:], True
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
    if negated:  # "does not work", "has not seen"
        head = [*head, "not"]
    topic = " ".join(head + predicate)
    obj = _en_object(rest, time_text)
    if obj is None or (obj == "" and rest and not time_text):
        return None
    if obj and _points_elsewhere(obj):
        return None
    if not obj and not time_text and not happened and not (bare and not rest and not auxes):
        return None
    companion = m.group("with")
    attributes = {"with": companion} if companion and companion.lower() not in _EN_LEAD else None
    return Found("EVENT" if time_text else "FACT", topic[:MAX_NAME], obj or None, 0.5, attributes)


# --- causal clauses -----------------------------------------------------------------------
_ZH_CAUSAL = [
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,]\s*(?:所以|因此|于是|才|就)(?P<b>.+)$"),
    re.compile(r"^(?:因为|由于)(?P<a>.+?)[，,](?P<b>.+)$"),
    re.compile(r"^(?P<b>.+?)[，,]\s*(?:是)?因为(?P<a>.+)$"),
    re.compile(r"^(?P<b>.+?)(?:是|都是|就是)(?:因为|由于)(?P<a>.+)$"),
    re.compile(r"^(?P<a>.+?)[，,]?\s*(?:所以|因此|于是|导致|结果|害得|搞得|弄得|使得)(?P<b>.+)$"),
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
# What someone else says, asks or thinks reports; it is not what they do. Nor is what they are
# or are not (是 / 不是: an identity the specific readings take; a negated one gives none).
_ZH_REPORTS = re.compile(
    r"^(?:[也还都就又并]*)(?:不是|是|说|问|告诉|跟我说|让我|叫我|要我|觉得|认为|以为|想|希望|好像|可能|应该|也许|不知道|知道)"
)
# How often someone does something: a habit, not a date ("every Saturday" is no one Saturday).
_DAY_NAMES = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_EN_OFTEN = re.compile(
    rf"\b(?:(?:every|each) (?:other |single )?(?:day|morning|afternoon|evening|night|week|weekend|month|year|"
    rf"summer|winter|{_DAY_NAMES})|on (?:the )?(?:weekends|weekdays|weeknights|(?:{_DAY_NAMES})s)|"
    r"(?:once|twice|three times|four times|a few times|\d+ times) (?:a|per) (?:day|week|month|year)|daily|weekly)\b",
    re.IGNORECASE,
)
_ZH_OFTEN = re.compile(
    r"(?:每(?:天|日|晚|周|星期|个星期|个周末|个月|年|逢)(?:[一二三四五六日天末])?|天天|平时|平常|"
    r"(?:周末|晚上|早上|下班后|放学后)?(?:经常|常常|通常))"
    r"(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?(?:都|也|会)?"
)


# A habit that says only how many times (去三次, "go twice"): what is done was said before.
_HOW_MANY_TIMES = re.compile(r"^(?:去|来|做|练|go|goes|do|does)?\s*(?:[一二两三四五六七八九十几\d]+次|once|twice)$")

_BARE_GO = {"去", "来", "go", "goes", "come", "comes"}

# A cause or an effect kept whole is none when it only says what someone knows or thinks is so
# ("so I know I'll be ok", 所以我相信会好的): the clause after the verb is the point, and read
# whole with it, it makes a fact of the knowing (Ivy knows I'll be ok). Feelings stay (觉得很累).
_EN_THOUGHT = re.compile(
    r"^(?:(?:just|really|still|also|now|do|did|kind of|kinda)\s+)*"
    r"(?:know|knew|think|thought|guess|believe|suppose|bet|reckon|hope|doubt|imagine|realized?|realised?|"
    r"figured?|wonder|am sure|was sure|'m sure)\s+"
    r"(?:that|I|I'll|I'm|I'd|I've|you|you'll|you're|he|he'll|he's|she|she'll|she's|it|it'll|it's|we|we'll|"
    r"we're|they|they'll|they're|there|everything|things)\b",
    re.IGNORECASE,
)
_ZH_THOUGHT = re.compile(
    r"^(?:[也还都就又]*)(?:知道|认为|以为|相信|猜|觉得)(?:我|你|他|她|它|自己|大家|一切|事情|会|能|一定|肯定|应该)"
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
    words = " ".join(_en_without_time(text, time_text).split()).strip(" ,.;!?").split(" ")
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


# A plan's time that ended more than this before the turn, named without a year or a word for the
# past (last, ago, 上, 去年, 前, 昨), is read as the next such time.
PLAN_GRACE = timedelta(days=7)
# a day of the week alone ("on Friday", 周五, 星期天): a plan's is the next one, even a day after it
_WEEKDAY = re.compile(
    r"^(?:on |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day\W*$|^(?:这|本)?(?:周|星期|礼拜)[一二三四五六日天]\W*$",
    re.IGNORECASE,
)
_NAMED_PAST = re.compile(r"\b(?:last|ago|yesterday|before|previous|earlier)\b|[上去前昨]|\d{4}|年", re.IGNORECASE)


# after a job said in the same sentence, the next one (以前在阿里工作，后来去了腾讯): a workplace named
# whole, not a place (后来去了日本) nor an errand (后来去了超市买菜). English says "then joined …"; its
# "then I moved to Google" is left as a move: without a list of places, a city and a company look alike.
_ZH_THEN_WENT = re.compile(
    r"^(?:后来|然后|之后|再后来)(?:又|就)?(?:去了|到了|进了|跳槽到了?|跳到了|换到了)(?P<obj>[^，,。！？]{2,12}?)(?:工作|上班)?(?:了)?$"
)


# a cause said of "it" doing something (it kept me up at night): "it" is what the effect is about
_IT_DID = re.compile(
    r"^\s*(?P<it>it|It) (?!(?:is|was|'s|will|would|can|could|may|might|must|should|does|did|has|had|isn't|wasn't|"
    r"doesn't|didn't|rained|snowed|poured|seems|seemed|looks|looked|feels|felt|sounds|sounded)\b)[a-z]+\b"
)


class RuleExtractor:
    """``extract(episodes, people) -> ExtractionPlan``: memories per turn, linked to that turn.

    ``people`` (``people.People``): the people the group already knows by role (the pipeline
    reads them from the database); the extractor adds those the turns name as it reads them, in
    order, so a pronoun or a role means whom the conversation so far means by it."""

    name = "rules"
    uses_people = True

    def __init__(self, find_time: Callable | None = None, normalize: Callable | None = None):
        from ..timeparse import find_time_range, normalize_time

        self._find_time = find_time or find_time_range
        self._normalize = normalize or normalize_time

    def extract(self, episodes: list[EpisodeView], people: People | None = None) -> ExtractionPlan:
        extraction, absolute = self.read(episodes, people)
        return to_plan(extraction, episodes, absolute=absolute)

    def read(self, episodes: list[EpisodeView], people: People | None = None) -> tuple[Extraction, set[str]]:
        """The extraction of a window of turns, and the ids of its memories whose times are absolute."""
        reader = _Reader(self, people.copy() if people is not None else People())
        for turn, ep in enumerate(episodes, 1):
            if ep.role in MINED_ROLES:
                reader.episode(turn, ep)
        return Extraction(memories=reader.memories, links=reader.links), reader.absolute

    def _absolute(self, text: str, ep: EpisodeView, ahead: bool = False) -> str | None:
        """The time as an absolute value (昨天 said on 2025-11-05 → 2025-11-04) when that reads back
        the same from any reference time; None: keep the words, read against the turn's time.
        ``ahead`` (a plan): a time named without its year that has passed is the next one ("in
        May" said in November is next May, "on Friday" said on a Wednesday this Friday; a yearless
        time read alone is the last one)."""
        try:
            tv = self._normalize(text, ep.timestamp)
            if not tv.parsed:
                return None
            grace = timedelta(0) if _WEEKDAY.search(text) else PLAN_GRACE  # "on Friday" for a plan: the coming one
            passed = tv.end is not None and tv.end <= ep.timestamp - grace
            if ahead and passed and not _NAMED_PAST.search(text):
                # a weekday that has passed is next week's; a month or a date, next year's
                for then in (ep.timestamp + timedelta(days=7), ep.timestamp.replace(year=ep.timestamp.year + 1)):
                    later = self._normalize(text, then)
                    if later.parsed and later.start is not None and later.start > ep.timestamp:
                        tv = later
                        break
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
        if not hit:
            return None
        # "since last March": the reader's words start at "last"; the span starts at "since"
        since = re.search(r"\bsince\s+" + re.escape(hit[2]), text, re.IGNORECASE)
        return since.group(0) if since and not hit[2].lower().startswith("since") else hit[2]

    def _causal(self, sentence: str, chinese: bool) -> tuple[str, str] | None:
        for pattern in _ZH_CAUSAL if chinese else _EN_CAUSAL:
            m = pattern.match(sentence.strip(" 。.!！?？"))
            if m:
                a, b = m.group("a").strip(" ，,"), m.group("b").strip(" ，,。.!！")
                if len(a) >= 2 and len(b) >= 2:
                    return a, b
        return None

    @staticmethod
    def _generic_zh(text: str, time_text: str | None, *, generic: bool) -> list[Found]:
        """A Chinese clause about the speaker as its predicate, kept whole: 失眠 / 去超市买了苹果;
        EVENT when timed. Outside a causal clause, each comma clause that opens with 我 (after
        lead-in words) is one; a clause about someone else (天气真好, 我妈妈…) is none."""
        if generic:
            body = text.replace(time_text, " ") if time_text else text
            body = _ZH_SPACE.sub("", " ".join(body.split())).strip(" ，,。！？!?")
            stripped = _LEAD_ZH.sub("", body)
            if (stripped != body and _ZH_NOT_ME.match(stripped)) or _ZH_THOUGHT.match(stripped):
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


def _statement_part(sentence: str) -> str | None:
    """The sentence, or what it states before a question put back to the listener
    ("我最喜欢秋天，你呢？" → 我最喜欢秋天); None for a question."""
    if not _QUESTION.search(sentence):
        return sentence
    body = re.sub(r"[?？\s\"'”’)）]+$", "", sentence)
    for sep in ("，" if "，" in sentence else ",", " - ", " – ", " — "):
        head, _, tail = body.rpartition(sep)
        if head and (_LISTENER_TAG.search(tail) or _OFFER.match(tail.strip())) and not _ASKS.search(head):
            return head
    return None


# An offer put to the listener after a statement: "I finished a new vase - want to see a pic?"
_OFFER = re.compile(r"^(?:wanna|want to|care to) (?:see|hear|know)\b", re.IGNORECASE)


# A sentence that opens with these gives the effect of what the sentence before said.
_ZH_THEREFORE = re.compile(r"^(?:所以|因此|于是|结果|这就是为什么|这也是为什么)[，,]?\s*")
_EN_THEREFORE = re.compile(
    r"^(?:so|that's why|that is why|this is why|which is why|because of that|as a result)[,]?\s+", re.I
)


_EN_PLACE = re.compile(r"\b(?:at|in) (?:the |a |an )?(?P<place>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*|[a-z]+)$")


# words after "in" / "at" that say how, not where ("moving in together", "in advance", "at all")
_NOT_PLACES = frozenset(
    "home all time bed person general fact together advance love trouble touch mind charge tears shock "
    "fact particular short turn total private public secret peace front return".split()
)


def _with_place(found: Found) -> Found:
    """An English event's place, where its object ends with one (at the airport, in Soho)."""
    if found.memory_type == "EVENT" and found.object:
        m = _EN_PLACE.search(found.object)
        if m and m.group("place").lower() not in _NOT_PLACES:
            found.attributes = {**(found.attributes or {}), "place": m.group("place")}
    return found


def _of_what_is(rest: str) -> list[Found]:
    """Her shop is called Petal, his knee is bad: what a thing of theirs is (``_of_relative`` names whose)."""
    m = re.match(r"^(?:is|are|was|were) (?P<how>called |named )?(?P<what>[^,;:!?]+)", rest.strip(" ."))
    what = clean(m.group("what"), False, 60) if m else None
    if not m or not what or what.split()[0].lower() in {"not", "never", "no"} or _points_elsewhere(what):
        return []
    return [Found("FACT", "is called" if m.group("how") else "is", what, 0.5)]


def _of_relative(found: Found, role: str, chinese: bool) -> None:
    """What a person's relative does, kept as the person's (老周的老伴喜欢养兰花 → 老周 老伴喜欢养 兰花;
    Ruth's husband builds boats → Ruth husband builds boats): it sets none of the person's own slots."""
    found.topic = (f"{role}{found.topic}" if chinese else f"{role} {found.topic}")[:MAX_NAME]
    found.slot, found.ends = None, False
    found.kind = "event" if found.memory_type == "EVENT" else "fact"
    if found.memory_type == "RELATION":
        found.memory_type = "FACT"


class _Reader:
    """One window of turns read in order: the memories and links found, the people met."""

    def __init__(self, rules: RuleExtractor, people: People):
        self.rules = rules
        self.people = people
        self.memories: list[ExtractedMemory] = []
        self.links: list[ExtractedLink] = []
        self.absolute: set[str] = set()
        self._seen: set[tuple] = set()
        self._said_here = True  # whether the time being read is said in the clause being read

    # --- one turn ---
    def episode(self, turn: int, ep: EpisodeView) -> None:
        self.turn, self.ep = turn, ep
        self.owner = owner_key(ep.speaker)
        self.named = not is_user_speaker(ep.speaker)
        self.speaker = ep.speaker.strip() if self.named and ep.speaker else None
        self.people.speaker, self.people.turn = self.speaker, turn
        self._seen = set()
        last: str | None = None  # the last memory of the sentence before (a "so …" sentence's cause)
        for said in sentences(_CAPTION.sub("", ep.content)):
            sentence = _statement_part(said)
            if not sentence:  # a question asks; it states nothing
                last = None
                continue
            chinese = is_chinese(sentence)
            mentions = self.people.mentions
            if not chinese:
                sentence = rules_en.said_plainly(_with_elided_subject(sentence.replace("’", "'")))
            else:
                sentence = rules_zh.said_plainly(sentence)
            therefore = (_ZH_THEREFORE if chinese else _EN_THEREFORE).match(sentence)
            if therefore and last is not None:
                ids = self._sentence(sentence[therefore.end() :], chinese)
                if ids:
                    self.links.append(ExtractedLink(cause=last, effect=ids[0]))
                last = ids[-1] if ids else None
                self.people.bring_up(sentence, mentions)
                continue
            ids = self._sentence(sentence, chinese)
            last = ids[-1] if ids else None
            self.people.bring_up(sentence, mentions)

    def _sentence(self, sentence: str, chinese: bool) -> list[str]:
        """The memories of one sentence (their ids): a cause and its effect, linked, or its clauses."""
        cause_effect = self.rules._causal(sentence, chinese)
        if cause_effect:
            main: list[str | None] = []
            clauses = list(cause_effect)
            said_of = None if chinese else _IT_DID.match(clauses[0])
            if said_of:  # "I quit coffee because it kept me up": "it" is the thing the effect is about
                people, self.people = self.people, self.people.copy()  # a look ahead: learns no one
                try:
                    effect = self._clause(clauses[1], False, None, carried=None, generic=True)[0]
                finally:
                    self.people = people
                thing = next((f.object for f in effect if f.object and f.memory_type != "RELATION"), None)
                if thing and len(thing.split()) <= 4:
                    clauses[0] = thing + clauses[0][said_of.end("it") :]
            for clause in clauses:
                time_text = self.rules._time(clause, self.ep)
                found = self._clause(clause, chinese, time_text, carried=None, generic=True)[0]
                added = [self.add(f, chinese, time_text) for f in found]
                lead = [i for f, i in zip(found, added) if i and f.memory_type != "RELATION"] or [i for i in added if i]
                main.append(lead[0] if lead else None)
            if main[0] and main[1]:
                self.links.append(ExtractedLink(cause=main[0], effect=main[1]))
            return [i for i in main if i]
        ids: list[str | None] = []
        if not chinese:
            for f in rules_en.sentence_facts(sentence, self.named):
                ids.append(self.add(f, False, None))
        if chinese:
            sentence, met = rules_zh.introduced(sentence, self.people, self.owner)
            ids.extend(self.add(f, True, None) for f in met)
            time_text = self.rules._time(sentence, self.ep)
            if time_text and re.search(re.escape(time_text) + "的", sentence):
                time_text = None  # 秋天的叶子: a time word naming a thing, not when
            carried = None
            worked: Found | None = None  # a job said earlier in the sentence
            for clause in re.split(r"[，,；;：:]", sentence):
                # the sentence's time dates each clause's event, but a time to come only the clause that
                # says it (我表妹下个月来看我，她还给我做了一个书架: the shelf is made already)
                self._said_here = bool(time_text and time_text in clause)
                when = time_text if self._said_here or not rules_zh.is_future(time_text) else None
                went = _ZH_THEN_WENT.match(clause.strip(" 。！？!?")) if worked is not None else None
                joined = went.group("obj") if went and worked is not None else None
                if joined and rules_zh.is_workplace(joined) and worked is not None:
                    found = [Found("FACT", "入职", joined, 0.7, subject=worked.subject, kind="work", slot="employer")]
                else:
                    found, carried = self._read(clause, True, when, carried)
                worked = next((f for f in found if f.kind == "work"), worked)
                ids.extend(self.add(f, True, when) for f in found)
            self._said_here = True
            return [i for i in ids if i]
        framing = None  # a time said in a clause of its own ("Last month was busy - I …")
        for a, b in _en_segments(sentence):
            segment = sentence[a:b].strip()
            own = self.rules._time(segment, self.ep)
            time_text = own or framing
            found, _ = self._read(segment, False, time_text, None)
            if not found and (deed := _relative_deed(segment, time_text)) is not None:
                found = [self._to_person(deed)]
            ids.extend(self.add(f, False, time_text) for f in found)
            framing = own if own and not found else (None if own else framing)
        return [i for i in ids if i]

    def _clause(
        self, text: str, chinese: bool, time_text: str | None, *, carried, generic: bool, habitual: bool = False
    ) -> tuple[list[Found], object]:
        """What a clause says: the relations it names, then its subject's predicate (a specific
        reading first, else, when timed or a cause or an effect, the clause kept whole)."""
        if chinese:
            body = text.replace(time_text, " ") if time_text else text
            body = _ZH_SPACE.sub("", " ".join(body.split())).strip(" 。！？!?")
        else:
            body = " ".join(_en_without_time(text, time_text).split())
        lang = rules_zh if chinese else rules_en
        found: list[Found] = []
        if not chinese:  # Chinese sentences are read for them whole, before their clauses
            body, met = rules_en.introduced(body, self.people, self.owner)
            found.extend(met)
            if met and " name is " not in body:  # the name said after the clause is no part of it
                text = rules_en.without_name_said_after(text)
        if chinese:
            said = rules_zh.attribute(body, carried)
            if said is None and time_text:  # 我的生日是三月五号: the value is the time itself
                said = rules_zh.attribute(_ZH_SPACE.sub("", " ".join(text.split())).strip(" 。！？!?"), carried)
            if said is not None:
                return [*found, said], carried
        if (named := lang.role_of_someone(body, self.people, self.owner)) is not None:
            return [*found, named], carried
        if (ended := lang.partner_ended(body, self.people, self.owner)) is not None:  # a breakup, a divorce
            ended.memory_type = "EVENT" if time_text else "FACT"
            return [*found, ended], carried
        subj = (
            rules_zh.subject_of(body, self.people, self.owner, carried)
            if chinese
            else rules_en.subject_of(body, self.people, self.owner)
        )
        found.extend(lang.stated_people(body, self.people, self.owner))
        if found and lang.said_together(body):  # 我跟小静是大学同学: the relation is all it says
            return found, carried
        if subj is None and chinese and carried is None and not found:
            subj = self._unsaid_me(body, time_text)
        if subj is None and chinese and time_text and carried is None and not found:
            subj = rules_zh.we_then(body, time_text)
        if subj is None:
            if chinese and not found:
                m = _ZH_X_IS_Y.match(rules_zh.ZH_LEAD.sub("", body))
                f = _x_is_y_zh(m, True) if m else None
                if f is not None:
                    found.append(f)
                elif generic:
                    found.extend(self.rules._generic_zh(text, time_text, generic=True))
            elif not chinese and generic and not found:
                event = _third_person(text, time_text)
                found.extend([event] if event else [])
            return found, carried
        if subj.relation is not None:
            found.append(subj.relation)
        if subj.described is not None:
            found.append(subj.described)
        if subj.together is not None:
            found.append(subj.together)
        mine = lang.said_mine(subj.rest, subj.name, self.people, self.owner) if subj.name and not subj.of_role else None
        if mine is not None:  # "He is my college roommate" / 他是我大学室友, said of someone named before
            return [*found, mine], subj
        # "my parents love …" agrees as "I love …" does; anyone else named: "Ruth loves …"
        plural = not chinese and subj.name is not None and self.people.together(subj.name)
        third = (subj.name is not None or self.named) and not plural
        thing = subj.of_role is not None and role_of(subj.of_role) is None  # her shop, his knee
        preds = (
            rules_zh.predicates(subj.rest, bool(time_text), time_text)
            if chinese
            else (_of_what_is(subj.rest) if thing else []) or rules_en.predicates(subj.rest, third, time_text)
        )
        if not preds and time_text and time_text in text:  # a time word that is the object (我最喜欢春天)
            preds = self._liking_a_time(" ".join(text.split()), chinese, subj, third, carried)
        if not preds and (time_text or generic or habitual or subj.name is not None) and subj.rest:
            preds = self._whole(text, subj, chinese, time_text, generic, habitual)
        if not preds and subj.of_role and not chinese:
            preds = _of_what_is(subj.rest)
        if not preds and not chinese and subj.name is None and not (time_text or generic or habitual):
            preds = self._done(body)
        if not preds and chinese and subj.name is None and not time_text and not generic and subj.rest:
            preds = self._with_person(text, subj)
        for f in preds:
            f.subject = subj.name
            if plural:
                f.topic = rules_en.plural(f.topic)
            if subj.of_role:
                _of_relative(f, subj.of_role, chinese)
            elif f.memory_type == "RELATION" and f.object:  # 跟小李结婚了: 小李 is known by that role
                self.people.learn(f.object, f.topic, owner=owner_key(subj.name) if subj.name else self.owner)
        return found + preds, subj

    def _unsaid_me(self, body: str, time_text: str | None):
        """上个月搬到上海了, 刚换了工作, 最近在学吉他: a Chinese sentence that opens with its predicate
        leaves 我 unsaid. The speaker, when a specific reading takes the predicate (a clause kept
        whole needs its subject said: 今天天气真好 is no one's; 就要开学了 says what is coming, not
        what the speaker means to do)."""
        said = rules_zh.ZH_LEAD.sub("", body)
        if re.match(r"^(?:就|快|马上)?(?:要|会|将)", said):
            return None
        people = self.people.copy()
        implied = rules_zh.subject_of("我" + said, people, self.owner, None)
        if implied is None or implied.name is not None or implied.relation is not None:
            return None
        if not rules_zh.predicates(implied.rest, bool(time_text), time_text):
            return None
        return implied

    def _read(self, text: str, chinese: bool, time_text: str | None, carried) -> tuple[list[Found], object]:
        """A clause outside a cause: a habit where it says how often and states one, else ``_clause``."""
        often = (_ZH_OFTEN if chinese else _EN_OFTEN).search(text)
        if often is not None:
            found, subj = self._habit(text, often, chinese, carried)
            if any(f.memory_type != "RELATION" for f in found):
                return found, subj
        return self._clause(text, chinese, time_text, carried=carried, generic=False)

    def _habit(self, text: str, often: re.Match, chinese: bool, carried) -> tuple[list[Found], object]:
        """A clause that says how often (I swim every Saturday, 我每天早上跑步): what its subject does,
        kept as a fact with how often, read without the phrase and dated by no time in it."""
        rest = f"{text[: often.start()]}{'' if chinese else ' '}{text[often.end() :]}"
        found, subj = self._clause(" ".join(rest.split()), chinese, None, carried=carried, generic=False, habitual=True)
        phrase = often.group(0).rstrip("都也会")
        found = [  # 我每周去三次, "I go every day": to where?
            f for f in found if not (_HOW_MANY_TIMES.match(f.topic) or (f.topic in _BARE_GO and not f.object))
        ]
        for f in found:
            if f.kind in ("event", "fact"):  # a liking or a plan says no more for it
                f.memory_type, f.kind = "FACT", "fact"
                f.attributes = {**(f.attributes or {}), ("频率" if chinese else "how often"): phrase}
        return found, subj

    def _done(self, text: str) -> list[Found]:
        """What the speaker did, said in the simple past with what they did it to ("I took a pottery
        class", "we adopted a rescue dog"): an event, undated when the clause says no time. Not "have
        done" (what someone has ever done, "I've seen that film") nor "am doing" (often how someone
        is: "staying positive")."""
        f = _en_clause_fact(text, None, self.named)
        if f is None or not f.object or slot_of(f.topic) or _SAID_BEFORE.match(f.object):
            return []  # a slot's word ("joined a gym") is the slot's reading or none
        verb = f.topic.split()[0]
        made = verb == "made" and f.object.split()[0].lower() in _MADE_WHAT  # made a painting, not made me cry
        if not _is_past(verb) or (verb in _EN_NOT_DONE and verb != "had" and not made):
            return []
        f.memory_type, f.kind = "EVENT", "event"
        f.object = re.sub(r"(?:\s+(?:recently|lately|too|as well|again|already|so far))+$", "", f.object, flags=re.I)
        done = self._to_person(_with_place(f))
        if verb == "had" and done.object not in self.people.names.values():
            return []  # "had a great time" is how it went; "had lunch with Chloe", time spent with her
        return [done]

    def _to_person(self, f: Found) -> Found:
        """ "sold my old fridge to Brenda (at the market)": the person a deed was done to or with, when
        known by name, is its object, so the deed and what is said of them meet at one node."""
        obj = f.object or ""
        for said in sorted(self.people.names.values(), key=len, reverse=True):
            m = re.search(rf"\b{re.escape(said)}\b", obj)
            if not m or m.start() == 0:
                continue
            after = obj[m.end() :].strip()
            where = re.fullmatch(r"(?:at|in|on|via) (?:the |a |an )?(?P<where>.+)", after)
            if after and not where:
                break  # more is said after the person than where: kept whole
            f.topic, f.object = f"{f.topic} {obj[: m.start()].strip()}"[:MAX_NAME], said
            if where:
                f.attributes = {**(f.attributes or {}), "place": where.group("where")}
            break
        return f

    def _with_person(self, text: str, subj) -> list[Found]:
        """我把旧冰箱卖给了陈阿姨: what the speaker did with someone named, the person its object, so
        the memory and what is said of them later meet at one node."""
        who = rules_zh.person_in(subj.rest, self.people)
        if who is None:
            return []
        found = self.rules._generic_zh(text, None, generic=False)
        if len(found) != 1 or who not in found[0].topic or found[0].topic.endswith(("吗", "吧")):
            return []
        topic = found[0].topic.replace(who, "", 1).strip(" ，,")
        if not topic or topic == found[0].topic:
            return []
        self.people.learn(who)
        return [Found("EVENT", topic, who, 0.5, kind="event")]

    def _liking_a_time(self, text: str, chinese: bool, subj, third: bool, carried) -> list[Found]:
        """A preference whose object the time reader took for a time (我最喜欢春天, I love Sundays)."""
        people = self.people.copy()
        again = (
            rules_zh.subject_of(text, people, self.owner, carried)
            if chinese
            else rules_en.subject_of(text, people, self.owner)
        )
        if again is None or again.name != subj.name:
            return []
        kept = rules_zh.predicates(again.rest, False) if chinese else rules_en.predicates(again.rest, third, None)
        return [f for f in kept if f.kind == "preference"]

    def _whole(
        self, text: str, subj, chinese: bool, time_text: str | None, generic: bool, habitual: bool = False
    ) -> list[Found]:
        """A clause no specific reading took, kept whole as its subject's predicate (an event when
        timed); in a cause or an effect, whatever it says (没吃早饭, didn't sleep well, was awful)."""
        found = self._whole_clause(text, subj, chinese, time_text, generic, habitual)
        if found or not generic:
            return found
        rest = clean(subj.rest, chinese, MAX_NAME)
        if rest and (_ZH_THOUGHT if chinese else _EN_THOUGHT).match(rest):
            return []
        if not rest or len(rest) > WHOLE_LIMIT or (not chinese and _points_elsewhere(rest)):
            return []  # nothing, a clause cut at the limit (a part of what it said), or one about "it"
        if not chinese and subj.name is None and _en_reaction(rest):
            return []
        if not chinese and subj.name is None and self.named:
            rest = _said_of_named(rest)  # "I'm thrilled" said by Ivy: Ivy is thrilled
        return [Found("EVENT" if time_text else "FACT", rest, None, 0.5)]

    def _whole_clause(
        self, text: str, subj, chinese: bool, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        if chinese:
            if subj.name is None and not (time_text and re.match(r"^\s*在", subj.rest)):
                return self.rules._generic_zh(text, time_text, generic=generic)
            if time_text:
                if subj.name is not None and _ZH_REPORTS.match(subj.rest):
                    return []  # 老马说明年…: what he says, not what he does
                event = rules_zh.event(subj.rest, time_text if self._said_here else None)
                return [event] if event else []
            habit = rules_zh.event(subj.rest) if not _ZH_REPORTS.match(subj.rest) else None
            if habit is None or habit.kind == "plan":
                return []
            habit.memory_type, habit.kind = "FACT", "fact"  # 他每天在公园打太极: what they do
            return [habit]
        if subj.name is None:
            event = _en_clause_fact(text, time_text, self.named, bare=habitual)
            if event is None and generic:
                event = _third_person(text, time_text)
            return [_with_place(event)] if event else []
        words = subj.rest.split()
        if not words:
            return []
        lead = 0  # adverbs before the verb stay as said: "still lives" → "I still live"
        while lead < len(words) - 1 and words[lead].lower() in _EN_DROPPED_ADVERBS | _EN_KEPT_ADVERBS:
            lead += 1
        first = words[lead].lower()
        base = {"is": "am", "has": "have", "does": "do", "goes": "go", "was": "was"}.get(first)
        if base is None:
            base = first[:-1] if first.endswith("s") and not first.endswith("ss") and len(first) > 3 else first
        said = "I " + " ".join(words[:lead] + [base] + words[lead + 1 :])
        event = _en_clause_fact(said, time_text, True, True, bare=habitual)
        return [_with_place(event)] if event else []

    # --- one memory ---
    def add(self, found: Found, chinese: bool, time_text: str | None) -> str | None:
        mine = self.speaker  # a named speaker's "my …" is theirs: Ivy's kids, 小王的女儿
        subject = theirs(found.subject, mine) if found.subject else (mine or ("我" if chinese else "I"))
        topic, obj = theirs(found.topic, mine, lead=False), theirs(found.object, mine) if found.object else None
        attributes = dict(found.attributes or {})
        if time_text and found.memory_type == "EVENT":
            attributes.setdefault("时间" if chinese else "time", time_text)
        relative = False
        for k, v in attributes.items():
            if v == time_text:
                absolute = self.rules._absolute(v, self.ep, ahead=found.kind == "plan")
                attributes[k] = absolute or v
                relative = relative or absolute is None
            else:
                attributes[k] = theirs(v, mine)
        if not chinese and found.kind != "relation" and _ends_on_pointer(obj or topic):
            return None
        if not chinese and obj and _says_how_only(obj):
            return None
        ident = (subject.lower(), found.memory_type, topic.lower(), (obj or "").lower())
        if ident in self._seen:
            return None
        self._seen.add(ident)
        if obj:
            self.people.mention(obj)
            if found.topic in ("是", "is a") and found.subject and self.people.knows(subject):
                self.people.describe(subject, obj)  # "the retired teacher" may mean them later
        mid = f"m{len(self.memories) + 1}"
        try:
            memory = ExtractedMemory.model_validate(
                {
                    "id": mid,
                    "turn": self.turn,
                    "kind": "event" if found.kind == "fact" and found.memory_type == "EVENT" else found.kind,
                    "subject": subject[:MAX_NAME],
                    "memory_type": found.memory_type,
                    "topic": topic[:MAX_NAME],
                    "object": obj,
                    "attributes": attributes,
                    "importance": found.importance,
                    "slot": found.slot,
                    "ends": found.ends,
                }
            )
        except PydanticValidationError:  # a phrase no memory can hold (too long, a control character)
            return None
        self.memories.append(memory)
        if not relative:
            self.absolute.add(mid)
        return mid
