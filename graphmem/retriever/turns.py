"""Turn seeds: the conversation turns (``:Episode``) that match a query, and the turns around them.

Turns are matched by meaning (a long turn also by its sentences) and by words (the ``english``
fulltext index, stems and speaker included, for a query without CJK; else ``cjk``), then the
turns right before and after them are read as their context (``Turns.find``). A turn stands for
the memories extracted from it, or for itself when nothing was. A query word that names a
speaker is matched against who said a turn, not what was said (a CJK query names a speaker by
holding their whole name). ``rank.py`` reads the evidence (``evidence.Turn``).
"""

from __future__ import annotations

import re

from ..store.fulltext import CJK_CHARS, escape_terms, group_query, name_probes, term_probes
from ..store.vector import to_cosine
from .context import Later, SearchContext
from .corpus import TurnFinds, Turns, TurnWords
from .evidence import Candidate, Turn, memory_candidate

_CJK = re.compile(f"[{CJK_CHARS}]")
EVIDENCE_KEYS = ("id", "content", "timestamp", "session_id", "speaker", "role")


def episode_fulltext_index(words: str) -> tuple[str, tuple[str, ...]]:
    """The fulltext index (and its fields) for a query's words: the ``english`` one, stemmed and
    with the speaker beside the content, when the query has no CJK character; else ``cjk``."""
    if _CJK.search(words):
        return "episode_content", ("content",)
    return "episode_content_english", ("content", "speaker")


def ask_speakers(ctx: SearchContext, turns: Turns, words: str) -> Later[list[str]] | None:
    """Which query words name a speaker of the group (an English query), asked in the background."""
    index, fields = episode_fulltext_index(words)
    if "speaker" not in fields or not escape_terms(words):
        return None
    return turns.speaker_terms(ctx, name_probes(words, ctx.group_id), index)


def speakers(
    ctx: SearchContext, turns: Turns, words: str, asked: Later[list[str]] | None, strategy: list[str]
) -> list[str]:
    """The speakers the query names: its words that name one, or for a CJK query (no words to
    probe) the whole names (two characters or more) it holds."""
    by_name = "speaker" in episode_fulltext_index(words)[1]
    if asked is not None:
        named = asked()
    elif by_name:
        named = []
    else:
        text = ctx.query.casefold()
        named = [n for n in turns.group_speakers(ctx) if len(n) >= 2 and n.casefold() in text]
    if named:
        others = ctx.profile.conversation.speaker_weight
        strategy.append(
            f"episodes: {', '.join(named)} matched as speaker"
            + (", not in what was said" if by_name else "")
            + (f"; turns by anyone else at {others:g} x their similarity" if others < 1 else "")
        )
    return named


def turn_words(ctx: SearchContext, words: str, named: list[str], limit: int) -> TurnWords | None:
    """The query's words for the turns: term by term in a group up to ``limit`` turns, else one
    Lucene query; a speaker's name searched in who spoke only. None: no word to match."""
    index, fields = episode_fulltext_index(words)
    if ctx.episodes > limit:
        lucene = group_query(words, ctx.group_id, field=fields, names=named)
        return TurnWords(index, fields, [], lucene, named) if lucene else None
    probes = term_probes(words, ctx.group_id, field=fields, names=named)
    return TurnWords(index, fields, probes, None, named) if probes else None


def turn_lists(
    found: TurnFinds, turns: dict[str, Turn], with_episodes: bool, strategy: list[str]
) -> dict[str, list[Candidate]]:
    """Ranked lists of matched turns (vector, fulltext, and the turns right before and after
    those: "context"); ``turns`` collects every turn seen, with its neighbours."""
    for hit in found.nearest:
        _turn(turns, hit).sentences_read = True  # scored with its sentences already
    lists = {"episode_vector": _list(found.nearest, with_episodes)}
    if found.words is not None:
        for r in found.words:
            t = _turn(turns, r)
            t.bm25, t.word_hits = r["bm25"], found.word_hits
        lists["episode_fulltext"] = _list(found.words, with_episodes)
    context = _neighbours(turns, found.context)
    if context:
        strategy.append(f"episodes: {len(context)} neighbouring turns read as context")
        lists["episode_context"] = _list(context, with_episodes)
    return lists


def _neighbours(turns: dict[str, Turn], rows: list[dict]) -> list[dict]:
    """Adds the turns right before and after the turns in ``turns`` (``rows``, as
    ``search_episode_neighbours`` returns them); returns the rows of the turns not there yet."""
    context: list[dict] = []
    for r in rows:
        n, of = _turn(turns, r), turns[r["of"]]
        if of.id not in n.neighbours:
            n.neighbours.append(of.id)
        if n.id not in of.neighbours:
            of.neighbours.append(n.id)
        if r["before"]:
            of.previous = n.id
        else:
            n.previous = of.id
        if r["new"] and all(c["episode"]["id"] != n.id for c in context):
            context.append(r)
    return context


def attach_sources(
    ctx: SearchContext,
    turns: Turns,
    candidates: list[Candidate],
    seen: dict[str, Turn],
    early: tuple[set[str], Later[list[dict]]] | None,
    single: set[str],
) -> None:
    """The turns the memory candidates were extracted from, where the turn lists did not already
    bring them: each memory's ``support``, each turn's cosine. ``early``: the ids already asked
    about and the answer in flight; ``single``: memories read with their only source turn."""
    by_id = {c.id: c for c in candidates if c.kind == "memory"}
    if not by_id:
        return
    asked, rows = set(), []
    if early is not None:
        asked, rows = early[0], [r for r in early[1]() if r["of"] in by_id]
    rest = [i for i in by_id if i not in asked and i not in single]
    if rest:
        rows += turns.sources(ctx, rest)()
    for r in rows:
        c, e = by_id[r["of"]], r["episode"]
        _turn(seen, r)
        if e["id"] not in c.support:
            c.support.append(e["id"])


def attach_sentences(ctx: SearchContext, turns: Turns, seen: dict[str, Turn]) -> None:
    """The closest sentence's cosine of the turns the vector searches did not already read with
    their sentences (found by words or as neighbours)."""
    unread = [tid for tid, t in seen.items() if not t.sentences_read]
    if unread:
        for tid, c in turns.sentences(ctx, unread).items():
            seen[tid].sentence = c


def _turn(turns: dict[str, Turn], hit: dict) -> Turn:
    e = hit["episode"]
    if e["id"] not in turns:
        cosine = to_cosine(hit["score"] or 0.5)
        told = {"speaker": e.get("speaker"), "role": e.get("role"), "said_at": e.get("timestamp")}
        turns[e["id"]] = Turn(e["id"], e.get("content") or "", cosine, **told)
    return turns[e["id"]]


def _list(hits: list[dict], with_episodes: bool) -> list[Candidate]:
    """A turn stands for the memories extracted from it, or for itself when nothing was."""
    out: dict[str, Candidate] = {}
    for hit in hits:
        episode = hit["episode"]
        evidence = {key: episode.get(key) for key in EVIDENCE_KEYS}
        for item in hit["memories"]:
            c = out.get(item["memory"]["id"])
            if c is None:
                c = out[item["memory"]["id"]] = memory_candidate(item)
            if all(e["id"] != episode["id"] for e in c.episodes):
                c.episodes.append(evidence)
            if episode["id"] not in c.support:
                c.support.append(episode["id"])
        if not hit["memories"] and hit["extracted"] == 0 and with_episodes and episode["id"] not in out:
            cosine = to_cosine(hit["score"] or 0.5)
            out[episode["id"]] = Candidate(
                episode["id"], "episode", episode, cosine, episodes=[evidence], support=[episode["id"]]
            )
    return list(out.values())
