"""Lexical overlap that works for Chinese and English alike (character bigrams + words)."""

from __future__ import annotations

import re
import unicodedata

from .lang import HAN

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
# about ("how many": a count), and in BM25 they favour long turns full of them ("What did you do ...?").
STOPWORDS = frozenset(
    """
a an the of to in on at for and or nor is are was were be been being am do does did doing done what
when where who whom whose which why how that this these those with from by as it its has have having
had i you he she they we his her hers their theirs our ours my mine your yours me him them us about
after before would could should will shall can may might must not no so than then there here into
out up down over any some all more most other such only own same too very just also if but because
while during s t ever yet let lets tell know think many much
""".split()
)


def content_words(text: str) -> str:
    """The text without English stop words (for a lexical query); the text itself when nothing
    else is left. Chinese is kept whole: the ``cjk`` analyzer splits it into bigrams."""
    words = _WORD.findall(text)
    kept = [w for w in words if w.casefold() not in STOPWORDS]
    return " ".join(kept) if kept else text


_DIGITS = re.compile(r"\d+")


def numbers_differ(a: str, b: str) -> bool:
    """Whether two names carry different numbers: iPhone 14 / iPhone 15, 3月5日 / 5月3日, Room 101 /
    Room 102 name different things however close their embeddings (which barely see digits)."""
    na = _DIGITS.findall(unicodedata.normalize("NFKC", a or ""))
    nb = _DIGITS.findall(unicodedata.normalize("NFKC", b or ""))
    return na != nb
