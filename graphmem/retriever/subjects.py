"""Subject-centred questions ("What does Priya like?", "小明喜欢什么？") are answered by
everything that person is known for, often in words the question does not use; the nearest
texts alone give the few closest facts, often several of one topic. So a query that names a
subject of the group (a ``:Subject`` looked up by name) also gathers up to
``limits.subject_cap`` of their newest memories and seeds the one nearest the query of each of
their topics. The user and the agent are not named this way: most memories are theirs.
"""

from __future__ import annotations

import re

from ..lang import CJK_CHARS
from ..lexicon.roles import ZH_ROLES
from ..textsim import STOPWORDS
from ..types import normalize_name
from .context import SearchContext
from .evidence import Candidate, memory_candidate
from .rank import SubjectScope, score_order

MAX_WORDS = 3  # a name is at most this many words ("Jean Luc Picard")
MAX_HAN = 4  # ... or this many CJK characters (欧阳小明)
_LETTERS = f"[^\\W_{CJK_CHARS}]+"  # a word's letters and digits, CJK apart
_WORD = re.compile(f"{_LETTERS}(?:[-'’]{_LETTERS})*")
_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$", re.IGNORECASE)


def name_candidates(query: str, limit: int = 200) -> list[str]:
    """The normalised names a query could be naming: its runs of up to MAX_WORDS words ("'s" dropped; one word not a
    stop word), the substrings of 2 to MAX_HAN characters of its CJK runs, a role said bare as the speaker's."""
    out: dict[str, None] = {}
    words = [_POSSESSIVE.sub("", w) for w in _WORD.findall(query)]
    for n in range(1, MAX_WORDS + 1):
        for i in range(len(words) - n + 1):
            run = words[i : i + n]
            if n == 1 and run[0].casefold() in STOPWORDS:
                continue
            out[normalize_name(" ".join(run))] = None
    for run in _CJK_RUN.findall(query):
        for size in range(2, MAX_HAN + 1):
            for i in range(len(run) - size + 1):
                out[normalize_name(run[i : i + size])] = None
                if run[i : i + size] in ZH_ROLES:  # 舅舅的单位…: the speaker's, as the reader names them (我舅舅)
                    out["我" + run[i : i + size]] = None
    return [n for n in out if n and not n.startswith("@")][:limit]


def best_of_each_topic(rows: list[dict], k: int) -> list[dict]:
    """Of a subject's memories (rows {memory, topic, score}), the nearest to the query of each
    topic (a memory without a topic stands alone), the best ``k`` of those, best first."""
    best: dict[str, dict] = {}
    for r in rows:
        if r.get("score") is None:
            continue
        key = r.get("topic") or f"#{r['memory']['id']}"
        seen = best.get(key)
        if seen is None or score_order(r["score"]) > score_order(seen["score"]):  # a tie: the newer
            best[key] = r
    return sorted(best.values(), key=lambda r: (-score_order(r["score"]), r["memory"]["id"]))[:k]


def subject_seeds(
    ctx: SearchContext, rows: list[dict], strategy: list[str]
) -> tuple[list[Candidate], SubjectScope | None]:
    """The memories of the subjects the query names (``Memories.subject``): the best of each of
    their topics as a seed list, and all of them as the scope that weighs every memory."""
    named, gathered = [], []
    for row in rows:
        mine = [r for r in row["rows"] if r["memory"]["group_id"] == ctx.group_id]  # defence in depth
        if mine:
            named.append(f"{row['subject']} ({len(mine)})")
            gathered.extend(mine)
    if not gathered:
        return [], None
    best = best_of_each_topic(gathered, ctx.k)
    weight = ctx.profile.conversation.speaker_weight
    strategy.append(
        f"subject: the query names {', '.join(named)}: the best of each of their topics "
        f"({len(best)})" + (f"; memories about anyone else at {weight:g} x their similarity" if weight < 1 else "")
    )
    return [memory_candidate(r) for r in best], SubjectScope(frozenset(r["memory"]["id"] for r in gathered), weight)
