"""The lexer: time components, the pattern registry the Chinese, English and numeric patterns
register into, and the tokens of a text (components, fillers, separators, range words, junk).

A pattern is a regex and a handler that turns its match into components (``_C``). At each
position the longest match wins; between equally long ones, the pattern registered first
(``normalize.py`` imports zh, numeric, en in that order).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple


def _norm_text(text: str) -> str:
    """NFKC + lower-case, character by character so indices stay aligned with ``text``."""
    if text.isascii():
        return text.lower()
    out = []
    for ch in text:
        c = unicodedata.normalize("NFKC", ch)
        if len(c) != 1:
            c = ch
        low = c.lower()
        out.append(low if len(low) == 1 else c)
    return "".join(out)


_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
    "a couple": 2,
}


def _num(tok: str | None) -> int | None:
    """Arabic, Chinese (一…九十, 两, 二〇二五) or English (one…twelve, a, a couple of) number."""
    if tok is None:
        return None
    tok = re.sub(r"\s+", " ", tok.strip())
    if not tok:
        return None
    if tok.isascii() and tok.isdigit():
        return int(tok) if len(tok) <= 6 else None
    if tok in _EN_NUM:
        return _EN_NUM[tok]
    if "十" in tok:
        head, _, tail = tok.partition("十")
        if len(head) > 1 or len(tail) > 1:
            return None
        tens = _CN_DIGIT.get(head) if head else 1
        ones = _CN_DIGIT.get(tail) if tail else 0
        if not tens or ones is None:
            return None
        return tens * 10 + ones
    if len(tok) == 1:
        return _CN_DIGIT.get(tok)
    if len(tok) == 4 and all(c in _CN_DIGIT and c != "两" for c in tok):  # 二〇二五
        return int("".join(str(_CN_DIGIT[c]) for c in tok))
    return None


STRONG, WEAK, VERYWEAK = 2, 1, 0


class _C(NamedTuple):
    kind: str
    val: Any
    strength: int = STRONG


class _Pat(NamedTuple):
    lang: str  # "zh", "en" or "*" (language-neutral)
    first: str  # which characters a match can start with: a=letter d=digit c=cjk p=punct
    rx: Any  # the regex source here; compiled by _patterns_for (lazily: import stays cheap)
    handler: Callable[[re.Match[str]], list[_C] | None]


_PATTERNS: list[_Pat] = []


def _pat(lang: str, first: str, regex: str):
    def deco(fn):
        _PATTERNS.append(_Pat(lang, first, regex, fn))
        return fn

    return deco


def _alt(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True))


CN = "[零〇一二两三四五六七八九十]"
NUM = rf"(?:[0-9]+|{CN}+)"
WB = r"(?![a-z0-9])"  # English word end


# ---- shared component builders ------------------------------------------------------


def _ago(count: str, unit: str, sign: int) -> list[_C] | None:
    if count == "半":
        half = {"hour": ("minute", 30), "month": ("day", 15), "year": ("month", 6)}
        if unit not in half:
            return None
        unit2, halved = half[unit]
        if unit2 == "day":  # 半个月前 ≈ the week 15 days back
            return [_C("ago", (15, "day_week", sign))]
        return [_C("ago", (halved, unit2, sign))]
    n = _num(count)
    if n is None or n > 100000:
        return None
    return [_C("ago", (n, unit, sign))]


# how many units "a few" and "several" make in a rolling window (not in "a few days ago": a point
# that vague is left unplaced)
_WINDOW_FEW = {"几": 3, "few": 3, "several": 5}


def _window(count: str, unit: str) -> list[_C] | None:
    if count in _WINDOW_FEW:
        return [_C("window", (_WINDOW_FEW[count], unit))]
    if count == "半":
        if unit == "month":
            return [_C("window", (15, "day"))]
        if unit == "year":
            return [_C("window", (6, "month"))]
        return None
    n = _num(count)
    if not n or n > 100000 or unit not in ("day", "week", "month", "year"):
        return None
    return [_C("window", (n, unit))]


# ---- fillers, separators, connectives -----------------------------------------------

_FILLER_EN = re.compile(
    r"(?:on|in|at|of|the|during|around|about|approximately|approx\.?|roughly|circa|ca\.|by|from|since|between|sometime\s+on)(?![a-z0-9])"
    r"|(?:early|late|mid)(?:-|(?![a-z0-9]))"
)
_FILLER_ZH = re.compile(r"(?:的|在|于|从|自|大概|大约|约莫|约|差不多|左右|前后)")
_CONN = re.compile(r"(?:到|至|~|-|–|—|和|与|跟)|(?:to|until|till|through|thru|and)(?![a-z0-9])")
_BREAK = set("。!！?？;；\n\r")
_SEP = set(" \t,，、.:：()（）[]【】\"'“”‘’/·")


class _Tok(NamedTuple):
    kind: str  # comp | filler | sep | conn | break | junk
    start: int
    end: int
    comps: list[_C] | None = None


def _is_ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _char_class(ch: str) -> str:
    if ch.isascii():
        if ch.isdigit():
            return "d"
        if ch.isalpha():
            return "a"
        return "p"
    return "c"


@functools.lru_cache(maxsize=16)
def _patterns_for(langs: tuple[str, ...]) -> dict[str, list[_Pat]]:
    table: dict[str, list[_Pat]] = {"a": [], "d": [], "c": [], "p": []}
    for p in _PATTERNS:
        if p.lang != "*" and p.lang not in langs:
            continue
        compiled = p._replace(rx=_compiled(p.rx))
        for cls in p.first:
            table[cls].append(compiled)
    return table


@functools.cache
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _tokens(s: str, langs: tuple[str, ...], stop_on_junk: bool) -> Iterator[_Tok]:
    table = _patterns_for(langs)
    use_en = "en" in langs
    use_zh = "zh" in langs
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch.isspace() and ch not in _BREAK:
            i += 1
            continue
        if not (_is_ascii_alnum(ch) and i > 0 and _is_ascii_alnum(s[i - 1])):
            found = None
            cands: list[tuple[int, int, re.Match[str], _Pat]] = []
            for p in table[_char_class(ch)]:
                m = p.rx.match(s, i)
                if m and m.end() > i:
                    cands.append((m.end(), -len(cands), m, p))
            if cands:
                cands.sort(reverse=True)
                for end, _, m, p in cands:
                    comps = p.handler(m)
                    if comps:
                        found = _Tok("comp", i, end, comps)
                        break
            if found:
                yield found
                i = found.end
                continue
        if ch in _BREAK:
            yield _Tok("break", i, i + 1)
            i += 1
            continue
        m = _CONN.match(s, i)
        if m and (not ch.isascii() or not ch.isalpha() or i == 0 or not _is_ascii_alnum(s[i - 1])):
            if ch.isalpha() and ch.isascii() and not use_en:
                m = None
            if m:
                yield _Tok("conn", i, m.end())
                i = m.end()
                continue
        if ch in _SEP:
            yield _Tok("sep", i, i + 1)
            i += 1
            continue
        if use_en and ch.isascii() and ch.isalpha() and (i == 0 or not _is_ascii_alnum(s[i - 1])):
            m = _FILLER_EN.match(s, i)
            if m:
                yield _Tok("filler", i, m.end())
                i = m.end()
                continue
        if use_zh and not ch.isascii():
            m = _FILLER_ZH.match(s, i)
            if m:
                yield _Tok("filler", i, m.end())
                i = m.end()
                continue
        j = i + 1
        if _is_ascii_alnum(ch):
            while j < n and _is_ascii_alnum(s[j]):
                j += 1
        yield _Tok("junk", i, j)
        if stop_on_junk:
            return
        i = j
