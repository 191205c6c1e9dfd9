"""Building Lucene queries for the fulltext indexes from untrusted text.

The text is escaped term by term (no Lucene syntax from a user or an LLM survives) and
passed as a parameter; the group narrowing is a quoted phrase on the indexed group_id.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ..lang import CJK_CHARS  # what the cjk analyzer splits into bigrams

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_CJK_RUN = re.compile(f"([{CJK_CHARS}]+)")
_TOKEN = re.compile(r"\w+", re.UNICODE)
_KEYWORDS = {"AND", "OR", "NOT", "TO"}


def escape_terms(text: str, max_terms: int = 64) -> list[str]:
    terms = []
    for token in _TOKEN.findall(text):
        if token in _KEYWORDS:
            token = token.lower()
        terms.append(_SPECIAL.sub(r"\\\1", token))
    return terms[:max_terms]


def group_query(
    text: str,
    group_id: str,
    field: str | tuple[str, ...] = "text",
    names: Collection[str] = (),
    name_field: str = "speaker",
) -> str | None:
    """``field:(a b c) AND group_id:"g"^0`` (several fields: ``(f1:(…) OR f2:(…)) AND …``);
    None when the text has no searchable term.

    ``names``: terms (as ``escape_terms`` returns them, any case) searched in ``name_field``
    only: a participant's name in a turn is mostly how the other one addresses them ("Glad it
    helped, Priya!"), so it says who the turn is spoken to, not what it is about.

    The group clause filters but adds nothing to the score (boost 0), so a BM25 score is the
    text's alone and can be compared with the best of its search."""
    terms = escape_terms(text)
    if not terms:
        return None
    group = _SPECIAL.sub(r"\\\1", group_id)
    fields = (field,) if isinstance(field, str) else field
    named = {n.casefold() for n in names}
    clauses = []
    for f in fields:
        kept = terms if f == name_field or name_field not in fields else [t for t in terms if t.casefold() not in named]
        if kept:
            clauses.append(f"{f}:({' '.join(kept)})")
    if not clauses:
        return None
    text_clause = " OR ".join(clauses)
    if len(clauses) > 1:
        text_clause = f"({text_clause})"
    return f'{text_clause} AND group_id:"{group}"^0'


def query_terms(text: str, max_terms: int = 64) -> list[str]:
    """The distinct terms of a lexical query, each to be scored on its own: the words of
    ``escape_terms``, with a run of CJK characters split into the overlapping bigrams the
    ``cjk`` analyzer indexes (a single character stays whole)."""
    terms: list[str] = []
    for token in escape_terms(text, max_terms):
        for part in _CJK_RUN.split(token):
            if not part:
                continue
            if _CJK_RUN.fullmatch(part) and len(part) > 1:
                terms.extend(part[i : i + 2] for i in range(len(part) - 1))
            else:
                terms.append(part)
    return list(dict.fromkeys(t.casefold() for t in terms))[:max_terms]


def term_probes(
    text: str,
    group_id: str,
    field: str | tuple[str, ...] = "text",
    names: Collection[str] = (),
    name_field: str = "speaker",
) -> list[dict[str, str]]:
    """One ``group_query`` per term of the text (``query_terms``): with them a search scores
    each term by how rare it is in the group, not in the whole index (``search_*_terms``)."""
    probes = []
    for term in query_terms(text):
        lucene = group_query(term, group_id, field, names, name_field)
        if lucene:
            probes.append({"term": term, "lucene": lucene})
    return probes


def name_probes(text: str, group_id: str, field: str = "speaker") -> list[dict[str, str]]:
    """One Lucene query per term of the text, ``field:term AND group_id:"g"^0``: a hit says the
    term is (part of) a name in that field within the group (``search_name_terms``)."""
    group = _SPECIAL.sub(r"\\\1", group_id)
    return [{"term": t, "lucene": f'{field}:({t}) AND group_id:"{group}"^0'} for t in dict.fromkeys(escape_terms(text))]
