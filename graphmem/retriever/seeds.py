"""Seeds: the direct matches a search starts from, written once over a corpus (``corpus.py``).

Ranked lists, merged (``evidence.fuse``): the memories nearest the query ("vector"), those its
content words match ("fulltext", weighed as ``rank.WordHits`` says), the best of each topic of a
subject it names ("subject", ``subjects.py``), and in a conversation group the turns that match
and the turns around them (``turns.py``). The reads are ordered so that a corpus can overlap
them: what needs no embedding first (an in-process corpus sends its word queries before the
query is embedded), then the turns' round trip, then the memories' while it runs.
"""

from __future__ import annotations

from typing import Any

from ..cues import name_candidates
from ..textsim import content_words
from .context import SearchContext
from .corpus import Corpus
from .evidence import Candidate, SeedReport, Turn, fuse, memory_candidate
from .subjects import subject_seeds
from .turns import ask_speakers, attach_sentences, attach_sources, speakers, turn_lists, turn_words


def matched_by(ctx: SearchContext, subject_cap: int) -> tuple[str, list[str]]:
    """The words a search's memories are matched by, and the subjects' names it may say (none: ``subject_cap`` 0)."""
    return content_words(ctx.query), (name_candidates(ctx.query) if ctx.memories and subject_cap else [])


def find_seeds(ctx: SearchContext, corpus: Corpus, subject_cap: int, exact_limit: int, sent: Any = None) -> SeedReport:
    """The candidates of one search (``subject_cap`` 0: no subject list; ``exact_limit``: the largest group whose
    turns are matched term by term; ``sent``: the memories' word and subject queries, sent with the probe)."""
    strategy: list[str] = []
    words, named = matched_by(ctx, subject_cap)
    memories, turns = corpus.memories, corpus.turns
    names = ask_speakers(ctx, turns, words) if ctx.episodes else None
    by_words, about_job = memories.matches(ctx, words, named, sent) if ctx.memories else (None, None)
    said, turn_job = [], None
    if ctx.episodes:  # who the query names, then the turns its words match
        said = speakers(ctx, turns, words, names, strategy)
        asked = turn_words(ctx, words, said, exact_limit)
        turn_job = turns.find(ctx, turns.ask_words(ctx, asked) if asked else None, strategy)
    fulltext = None
    if by_words is not None:
        rows, hits = by_words()
        fulltext = [memory_candidate(r, r["bm25"], hits) for r in rows]
    subject, about = subject_seeds(ctx, about_job(), strategy) if about_job is not None else ([], None)
    known, nearest = memories.nearest(ctx, strategy) if ctx.memories else ([], None)
    early = None
    if ctx.episodes:  # the source turns of the memories known so far, asked while the rest is read
        ids = list(dict.fromkeys(known + [c.id for c in (fulltext or []) + subject]))
        early = (set(ids), turns.sources(ctx, ids)) if ids else None
    lists: dict[str, list[Candidate]] = {}
    if nearest is not None:
        lists["vector"] = [memory_candidate(r) for r in nearest()]
    if fulltext is not None:
        lists["fulltext"] = fulltext
    if subject:
        lists["subject"] = subject
    seen: dict[str, Turn] = {}
    found = turn_job() if turn_job is not None else None
    if found is not None:
        lists.update(turn_lists(found, seen, ctx.with_episodes, strategy))
    candidates = fuse(lists)
    if found is not None:
        attach_sources(ctx, turns, candidates, seen, early, found.single)
        attach_sentences(ctx, turns, seen)
    return SeedReport(candidates, strategy, seen, said, about)
