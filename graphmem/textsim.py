"""Lexical overlap that works for Chinese and English alike (character bigrams + words)."""
from __future__ import annotations

import re
import unicodedata

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def lexical_units(text: str) -> set[str]:
    text = unicodedata.normalize("NFKC", text).casefold()
    units: set[str] = set()
    for word in _WORD.findall(text):
        cjk = "".join(ch for ch in word if _CJK.match(ch))
        rest = _CJK.sub(" ", word).split()
        units.update(w for w in rest if len(w) > 1 or w.isdigit())
        if cjk:
            units.update(cjk[i:i + 2] for i in range(len(cjk) - 1))
            units.update(cjk)
    return units


def overlap(query: str, text: str) -> float:
    """Share of the query's units found in the text, in [0, 1]."""
    q = lexical_units(query)
    if not q:
        return 0.0
    return len(q & lexical_units(text)) / len(q)
