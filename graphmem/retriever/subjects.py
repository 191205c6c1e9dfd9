"""Subject-centred questions ("What does Priya like?", "小明喜欢什么？") are answered by
everything that person is known for, often in words the question does not use; the nearest
texts alone give the few closest facts, often several of one topic. So a query that names a
subject of the group (a ``:Subject`` looked up by name, ``cues.name_candidates``) also gathers up to
``limits.subject_cap`` of their newest memories and seeds the one nearest the query of each of
their topics. The user and the agent are not named this way: most memories are theirs.
"""

from __future__ import annotations

from .context import SearchContext
from .evidence import Candidate, memory_candidate
from .rank import SubjectScope, score_order


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
