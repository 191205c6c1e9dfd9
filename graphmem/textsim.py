"""Lexical overlap that works for Chinese and English alike (character bigrams + words)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .lang import CJK_CHARS, HAN

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


def cjk_share(text: str) -> float:
    """Share of the text's letters that are CJK characters (0 for English, 1 for Chinese)."""
    if text.isascii():
        return 0.0
    letters = _LETTER.findall(text)
    if not letters:
        return 0.0
    return sum(1 for ch in letters if HAN.match(ch)) / len(letters)


_WORD_CHAR, _CJK_CHAR = re.compile(r"\w"), re.compile(f"[{CJK_CHARS}]")


def says_word(word: str, text: str) -> bool:
    """``word`` in ``text`` as whole words: not inside a longer word, though Chinese may touch it
    (关于Ruth你记得什么). A plain search, not a pattern per word: compiling one (its CJK class) costs
    milliseconds, and the walk asks this of every name it meets."""
    at = text.find(word)
    while at >= 0 and word:
        edges = (text[at - 1 : at], text[at + len(word) : at + len(word) + 1])
        if all(not ch or not _WORD_CHAR.match(ch) or _CJK_CHAR.match(ch) for ch in edges):
            return True
        at = text.find(word, at + 1)
    return False


def lexical_units(text: str) -> set[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    units: set[str] = set()
    for word in _WORD.findall(text):
        if word.isascii():  # no CJK character in it: the word itself (as below, faster)
            if len(word) > 1 or word.isdigit():
                units.add(word)
            continue
        cjk = "".join(ch for ch in word if HAN.match(ch))
        rest = HAN.sub(" ", word).split()
        units.update(w for w in rest if len(w) > 1 or w.isdigit())
        if cjk:
            units.update(cjk[i : i + 2] for i in range(len(cjk) - 1))
            units.update(cjk)
    return units


def overlap(query: str, text: str) -> float:
    """Share of the query's units found in the text, in [0, 1]."""
    return overlap_units(lexical_units(query), lexical_units(text))


def overlap_units(query: set[str], text: set[str]) -> float:
    """``overlap`` of two texts' ``lexical_units``."""
    if not query:
        return 0.0
    return len(query & text) / len(query)


# English function and question words: they say what kind of answer is wanted, not what it is
# about ("how many different …": a count of distinct things), and in BM25 they favour long turns
# full of them ("What did you do ...?").
STOPWORDS = frozenset(
    """
a an the of to in on at for and or nor is are was were be been being am do does did doing done what
when where who whom whose which why how that this these those with from by as it its has have having
had i you he she they we his her hers their theirs our ours my mine your yours me him them us about
after before would could should will shall can may might must not no so than then there here into
out up down over any some all more most other such only own same too very just also if but because
while during s t ever yet let lets tell know think many much different various distinct total
""".split()
)


# The Chinese words that frame a question the same way (多少个不同的国家: a count of distinct things)
ZH_FRAMING = re.compile(r"多少[个次种位家本部场回]?|几[个次种位家本部场回]|哪些|各种各样的?|各种|不同的?|一共|总共")


def content_words(text: str) -> str:
    """The text without English stop words and Chinese framing words (for a lexical query); the
    text itself when nothing else is left. Chinese is otherwise kept whole: the ``cjk`` analyzer
    splits it into bigrams."""
    words = _WORD.findall(ZH_FRAMING.sub(" ", text))
    kept = [w for w in words if w.casefold() not in STOPWORDS]
    return " ".join(kept) if kept else text


_DIGITS = re.compile(r"\d+")


def numbers_differ(a: str, b: str) -> bool:
    """Whether two names carry different numbers: iPhone 14 / iPhone 15, 3月5日 / 5月3日, Room 101 /
    Room 102 name different things however close their embeddings (which barely see digits)."""
    na = _DIGITS.findall(unicodedata.normalize("NFKC", a or ""))
    nb = _DIGITS.findall(unicodedata.normalize("NFKC", b or ""))
    return na != nb


# --- what a statement is about, and whether it says something changed ---------------------------
# words that say something changed: 换了 改去 不再 放弃 搬到 辞职; switched, gave up, no longer, instead, now
CHANGE_ZH = re.compile(
    r"换|改|不再|放弃|转学|转到|调到|调去|调回|搬|辞职|离职|跳槽|退了|卖了|买了|分手|升职|升为|当上|成了|变成|开始|涨|降|"
    r"去世|领养|现在|如今|最近|新"
)
CHANGE_EN = re.compile(
    r"\b(?:now|nowadays|these days|lately|recently|any ?more|no longer|instead|switch(?:ed)?|chang(?:ed|e)|swapped|"
    r"replaced|moved|sold|bought|adopted|gave up|given up|quit|left|cancell?ed|stopped|started|joined|took up|raised|"
    r"lowered|transferred|went up|went down|"
    r"taken up|gone|became|become|promoted|new|again|broke up|split up|passed away|died|not \w+ing)\b",
    re.IGNORECASE,
)
# characters too common in Chinese to say what a statement is about (a pair with one is no evidence)
_ZH_FUNCTION = set("我你他她它们的了是在有和跟也都就还很这那个一不吗呢吧啊把被给从到去来要会能说里么什")
_CJK_RUN = re.compile(rf"[{CJK_CHARS}]+")
_EN_WORD = re.compile(r"[a-z0-9]+")
_LIGHT = frozenset(
    "got get gets getting go goes going went make made makes take took takes put puts really been".split()
)
STEM = 4  # English words are compared by their first this many letters (drive / driving, vegan / veganism)
# two statements are about the same thing when they share a unit said in at most SAME_THING_DF of
# the results (a unit many results say, a name in a chat, is not what any one is about), and such
# units are at least SAME_THING_SHARE of the shorter one's: a long turn shares a rare word by chance
SAME_THING_DF = 3
SAME_THING_SHARE = 0.2


_ATTRIBUTES = re.compile(r"\s*[(（][^()（）]*[:：][^()（）]*[)）]\s*$")  # a memory text's "(time: 2025)"


def says_change(text: str) -> bool:
    """Whether a statement says something changed (换成电信了, "I sold the Fiesta")."""
    text = _ATTRIBUTES.sub("", text)
    return bool(CHANGE_ZH.search(text) or CHANGE_EN.search(text))


def things(text: str) -> set[str]:
    """What a statement is about, as comparable units: English content words (their first STEM
    letters) and Chinese character pairs without function characters; change words and a memory
    text's attributes ("(time: 2025)") are not things."""
    plain = CHANGE_EN.sub(" ", CHANGE_ZH.sub(" ", _ATTRIBUTES.sub("", text))).casefold()
    units = {w[:STEM] for w in _EN_WORD.findall(plain) if len(w) > 2 and w not in STOPWORDS and w not in _LIGHT}
    for run in _CJK_RUN.findall(plain):
        units.update(run[i : i + 2] for i in range(len(run) - 1) if not (_ZH_FUNCTION & set(run[i : i + 2])))
    return units


def same_thing(a: set[str], b: set[str], df: Counter[str]) -> bool:
    """Whether two statements' ``things`` say they are about the same thing (SAME_THING_DF)."""
    shared = {u for u in a & b if df[u] <= SAME_THING_DF}
    return bool(shared) and len(shared) >= SAME_THING_SHARE * min(len(a), len(b))


@dataclass(frozen=True)
class Fit:
    """How well a text fits a part of a question (its description of someone, what it asks of them) as a query's
    similarity: (1 − w)·cosine to the part's vector + w·the share of its words (``words``) the text says; one below
    any other (by 1) when it says more of the question's other part (``apart``): "Priya is my colleague" says whom
    "the colleague who lives in Leeds" means, not what is asked of her."""

    embedding: Any  # the part's vector (a Future of it)
    words: set[str]
    w: float
    apart: set[str] = field(default_factory=set)

    def of(self, cosine: float | None, text: str) -> float:
        units = lexical_units(text)
        fit = (1 - self.w) * (cosine or 0.0) + self.w * overlap_units(self.words, units)
        # the other part's words, not pairs of characters: 工程 of 南京科创工程有限公司 is in 首席工程师 too
        apart = {u for u in self.apart if u.isascii() and u.isalpha()}
        return fit - 1 if overlap_units(apart, units) > overlap_units(self.words, units) else fit

    def says_some(self, text: str) -> bool:
        """Whether ``text`` says any of the part's words (always, for a part without words): the one a question
        describes is said with a word of the description (我参观的那个: 参观), not only near it in meaning."""
        return not self.words or bool(self.words & lexical_units(text))
