"""Building Lucene queries for the fulltext indexes from untrusted text.

The text is escaped term by term (no Lucene syntax from a user or an LLM survives) and
passed as a parameter; the group narrowing is a quoted phrase on the indexed group_id.
"""
from __future__ import annotations

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_TOKEN = re.compile(r"\w+", re.UNICODE)
_KEYWORDS = {"AND", "OR", "NOT", "TO"}


def escape_terms(text: str, max_terms: int = 64) -> list[str]:
    terms = []
    for token in _TOKEN.findall(text):
        if token in _KEYWORDS:
            token = token.lower()
        terms.append(_SPECIAL.sub(r"\\\1", token))
    return terms[:max_terms]


def group_query(text: str, group_id: str, field: str | tuple[str, ...] = "text") -> str | None:
    """``field:(a b c) AND group_id:"g"^0`` (several fields: ``(f1:(…) OR f2:(…)) AND …``);
    None when the text has no searchable term.

    The group clause filters but adds nothing to the score (boost 0), so a BM25 score is the
    text's alone and can be compared with the best of its search."""
    terms = escape_terms(text)
    if not terms:
        return None
    group = _SPECIAL.sub(r"\\\1", group_id)
    fields = (field,) if isinstance(field, str) else field
    text_clause = " OR ".join(f'{f}:({" ".join(terms)})' for f in fields)
    if len(fields) > 1:
        text_clause = f"({text_clause})"
    return f'{text_clause} AND group_id:"{group}"^0'
