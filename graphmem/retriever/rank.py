"""Ranking: every number that turns evidence into a rank (seed 004 §5.2, §5.3).

The seed finders (``seeds.py``, ``turns.py``) and the walk (``expand.py``) return evidence —
cosines, word hits with the statistics to weigh them, who said a turn and what surrounds it,
the turns a memory was extracted from, how far through the graph a memory lies — and this
module alone turns it into a score, with the parameters of one ``RankingProfile`` (config:
``[retrieval.ranking]`` for "default", ``[retrieval.profiles.<name>]`` for others; the
built-in "recall" ranks by relevance alone). The final score:

    score = α·similarity + β·importance + γ·1/(1+distance) + δ·time_decay + ε·access

Every part is in [0, 1]:

- ``similarity``: how well the text answers the query, meaning and words blended:
  (1 − w)·cosine + w·lexical, w the profile's ``similarity.lexical_weight`` for an English
  query and ``lexical_weight_cjk`` for a Chinese one (a mixed query in proportion). lexical is
  the text's word evidence in [0, 1] (``word_evidence``): in a group up to
  ``limits.exact_scan_limit`` texts absolute, its matched words' IDF in the group against
  ``lexical_full`` of the most the query's words could carry; in a larger group its BM25 over
  the best hit of this search. Cosine alone misses names and rare words, BM25 alone misses
  paraphrases. Word evidence counts only as far as query and text share a script
  (``shared_script``): a memory in the other language is judged by its meaning alone. For a
  model that cannot read part of the query (Chinese for an English-only model:
  ``unknown_share``) w grows to 0.5 for that part and lexical becomes character-bigram and
  word overlap (``graphmem.textsim``).
- Conversation turns (``conversation`` lifts): a turn is read in its context,
  (own + c·best neighbour)/(1 + c); a reply to a question is at least r × the question's
  similarity; when the query names a speaker, a turn by someone else counts at s × its
  similarity; a long turn is at least ``sentence_weight`` × its closest sentence's cosine. A
  memory extracted from turns takes ``source_weight`` of the best of those turns' similarity
  and the rest its own (only the memory of that turn closest to the query; its siblings take
  ``sibling_share``), because what was said is the evidence and an extractor's sentence a
  fragment of it.
- ``importance``: the memory's own 0–1 importance.
- ``distance``: 1/(1+hops): 1 for a direct match, 1/2 one hop away, 1/3 two hops away.
- ``time_decay``: exp(−λ·days) since the memory happened (``occurred_at``, else
  ``created_at``), λ per memory type (``retrieval.decay``); a time after the reference counts
  as now.
- ``access``: min(1, log(1+count)/log(1+20)) × (0.5 + 0.5·exp(−days since the last read / 30)).

A time range read from the query (``time_range`` rules) picks the seeds; when a match outside
it is ``slack`` more similar than the best inside, it is dropped; otherwise the matches outside
follow at ``outside`` × their similarity.

Where the database ranks. Three cuts happen inside Cypher because only the top of a large
set comes back, and each takes its numbers from the profile as parameters:
``search_turns.cypher`` ranks turns by the better of their own cosine and
``sentence_weight`` × their closest sentence's (``sentence_lift`` is the same formula here);
the ``*_fulltext_terms`` queries sum Lucene's per-term score × the term's IDF in the group
(``group_idf`` here), so the top k by words is the group's own; ``search_expand`` keeps a
level's best by α·cosine + β·importance (``prerank_params``; ``prerank`` makes the same cut
here when the process computed the cosines itself), the two parts of the score that vary
within one level of the walk.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..config import DecayRates, RankingProfile
from ..store.vector import to_cosine
from ..textsim import cjk_share, lexical_units, overlap_units
from ..types import ScoreParts

ACCESS_SATURATION = 20  # reads at which the frequency part reaches 1
ACCESS_RECENCY_DAYS = 30.0  # e-folding time of the recency of the last read
UNREAD_LEXICAL = 0.5  # word share of the part of a query the model cannot read
FALLBACK_SEEDS = 3  # when no candidate reaches the floor, the closest this many seed anyway
RRF_K = 60  # reciprocal-rank fusion: Σ 1/(RRF_K + rank), used only to break ties
# a text's words are full evidence when they carry this share of the most the query's words could
# carry in the group (every one of them said in just one text of the group)
LEXICAL_FULL = 0.5
LEXICAL_SEED = 0.5  # a candidate whose words cover this share of the query's is a seed whatever its similarity
SENTENCE_WEIGHT = 0.9  # a long turn is at least this × its closest sentence's cosine
REPLY_WEIGHT = 0.9  # a reply to a question is at least this × the question's similarity
SIBLING_SHARE = 0.5  # source share of a turn's memories other than the one closest to the query
TIME_RANGE_SLACK = 0.1  # a range read from the query is dropped when a match outside is this much closer


# --- word evidence ---------------------------------------------------------------------------
def group_idf(df: int, n: int) -> float:
    """A term's IDF among a group's ``n`` texts when ``df`` hold it (BM25's form; the
    ``*_fulltext_terms`` queries compute the same in Cypher)."""
    return math.log(1.0 + (max(n, 1) - df + 0.5) / (df + 0.5))


def lexical_scale(terms: int, n: int, full: float) -> float:
    """What a text's summed term scores are divided by to give its word evidence in [0, 1]:
    ``full`` × ``terms`` × the IDF of a term said in one of the group's ``n`` texts. Absolute,
    not the best hit's share: when the query's words are common in the group, no text gets full
    marks for them, and the meaning decides."""
    return full * max(terms, 1) * group_idf(1, n)


@dataclass(frozen=True)
class WordHits:
    """How one fulltext list's scores read as evidence: ``terms`` the query's probed terms over
    a group of ``n`` texts, searched term by term (``exact``) or by one Lucene query whose best
    hit scored ``best``."""

    terms: int
    n: int
    exact: bool
    best: float = 0.0


def word_evidence(bm25: float | None, hits: WordHits, profile: RankingProfile) -> float | None:
    """A text's word evidence in [0, 1] from its raw fulltext score (None: not a word hit)."""
    if bm25 is None:
        return None
    scale = lexical_scale(hits.terms, hits.n, LEXICAL_FULL) if hits.exact else (hits.best or 1.0)
    return max(0.0, min(1.0, bm25 / scale))


def sentence_lift(own: float, sentence: float, profile: RankingProfile) -> float:
    """A turn is as close to the query as the better of itself and ``sentence_weight`` × its
    closest sentence (cosines)."""
    return max(own, SENTENCE_WEIGHT * sentence)


def prerank_params(profile: RankingProfile) -> dict[str, float]:
    """The parameters of ``search_expand``'s cut of a level: α·cosine + β·importance."""
    return {"alpha": profile.weights.alpha_similarity, "beta": profile.weights.beta_importance}


def prerank(rows: list[dict], keep: int, profile: RankingProfile) -> list[dict]:
    """``search_expand``'s cut of a level made here, for a caller that computed the cosines itself
    (the group's vectors held): the best ``keep`` rows ({memory, score}) by α·cosine +
    β·importance, with the query's defaults (a missing cosine reads as unrelated, a missing
    importance as 0.5)."""
    w = profile.weights

    def value(row: dict) -> float:
        importance = row["memory"].get("importance")
        cosine = to_cosine(0.5 if row["score"] is None else row["score"])
        return w.alpha_similarity * cosine + w.beta_importance * (0.5 if importance is None else importance)

    return sorted(rows, key=value, reverse=True)[:keep]


def dialogue_query(whole: Any, latest: Any, profile: RankingProfile) -> list[float]:
    """The vector a dialogue query searches with: its user lines' vector (``whole``) and its
    latest user line's (``latest``) at ``conversation.latest_turn_weight``, unit length."""
    import numpy as np

    w = profile.conversation.latest_turn_weight
    v = (1.0 - w) * np.asarray(whole, dtype=np.float32) + w * np.asarray(latest, dtype=np.float32)
    n = float(np.linalg.norm(v))
    return (v / n).tolist() if n > 0 else list(whole)


# --- similarity --------------------------------------------------------------------------------
class Similarity:
    """Similarity of texts to one query under one profile: cosine blended with word evidence,
    and the conversation lifts (see the module's docstring)."""

    def __init__(self, query: str, profile: RankingProfile, unread: float | None = None):
        """``unread``: the share of the query the embedding model cannot read (None: its CJK
        share, as for an English-only model)."""
        self.query = query
        self.profile = profile
        self.script = cjk_share(query)
        self._scripts: dict[str, float] = {}
        blend = profile.similarity
        base = blend.lexical_weight + (blend.lexical_weight_cjk - blend.lexical_weight) * self.script
        self.unread = self.script if unread is None else max(0.0, min(1.0, unread))
        self.weight = base + (UNREAD_LEXICAL - base) * self.unread
        self.lifts = profile.conversation
        self._units: set[str] | None = None  # the query's lexical units, read once
        self._text_units: dict[str, set[str]] = {}  # a text is scored several times in one search

    def __call__(self, cosine: float | None, text: str | None, words: float | None = None) -> float:
        """``words``: the text's word evidence in [0, 1] (``word_evidence``), None when it was not a hit."""
        cos = max(0.0, min(1.0, cosine or 0.0))
        weight = self.weight * self.shared_script(text or "")
        if weight <= 0.0:
            return cos
        lexical = 0.0
        if self.unread:
            lexical += self.unread * self.overlap(text or "")
        if self.unread < 1.0 and words:
            lexical += (1.0 - self.unread) * max(0.0, min(1.0, words))
        return (1.0 - weight) * cos + weight * lexical

    def of(self, item: Any) -> float:
        """The similarity of a seed candidate or a turn from its evidence: cosine, text, and its
        raw fulltext score with the statistics of the list that found it (``word_hits``)."""
        cosine, sentence = item.cosine, getattr(item, "sentence", None)
        if sentence is not None:
            cosine = sentence_lift(cosine, sentence, self.profile)
        return self(
            cosine,
            item.text,
            word_evidence(item.bm25, item.word_hits, self.profile) if item.word_hits is not None else None,
        )

    def shared_script(self, text: str) -> float:
        """How much of its script a text shares with the query, in [0, 1]: 1 for two English or two
        Chinese texts, 0 for an English query and a Chinese text."""
        if not text:
            return 1.0
        theirs = self._scripts.get(text)
        if theirs is None:  # a text is scored several times in one search
            theirs = self._scripts[text] = cjk_share(text)
        return min(self.script, theirs) + min(1.0 - self.script, 1.0 - theirs)

    def words_cover(self, text: str) -> bool:
        """The text's words cover ``lexical_seed`` of the query's: a seed whatever its similarity."""
        return self.overlap(text) >= LEXICAL_SEED

    def overlap(self, text: str) -> float:
        """``textsim.overlap`` of the query and ``text`` (each text's units read once per search)."""
        if self._units is None:
            self._units = lexical_units(self.query)
        units = self._text_units.get(text)
        if units is None:
            units = self._text_units[text] = lexical_units(text)
        return overlap_units(self._units, units)

    def in_context(self, own: float, neighbours: list[float]) -> float:
        """A turn's similarity read with the turns around it."""
        c = self.lifts.context_weight
        if not neighbours or c <= 0:
            return own
        return (own + c * max(neighbours)) / (1.0 + c)

    def as_reply(self, in_context: float, question: float) -> float:
        """A reply to a question is at least ``reply_weight`` × as similar as the question: the
        question names what the reply is about ("Where did you find him?" → "Next to the bakery!")."""
        return max(in_context, REPLY_WEIGHT * question)

    def as_extracted(self, own: float, source: float, lead: bool = True) -> float:
        """A memory extracted from turns, ``source`` the best of those turns' similarity (in
        context): ``source_weight`` of it for the ``lead`` (the turn's memory closest to the
        query), ``sibling_share`` for its siblings, so one turn's fragments do not crowd the top."""
        w = self.lifts.source_weight if lead else SIBLING_SHARE
        return (1.0 - w) * own + w * source

    def as_said_by(self, similarity: float, speaker: str | None, named: list[str]) -> float:
        """A turn said by someone other than the speakers the query names counts at
        ``speaker_weight`` × its similarity: "What has Priya painted?" is answered by what Priya
        said, not by Tomasz's "Wow, Priya!". A turn without a speaker is left as it is."""
        if not named or not speaker or names_speaker(speaker, named):
            return similarity
        return self.lifts.speaker_weight * similarity


_QUESTION = re.compile(r"[?？]")
_WORD = re.compile(r"\w+")


def names_speaker(speaker: str, named: list[str]) -> bool:
    """One of the ``named`` words is a word of the speaker's name (case-insensitive): "priya"
    names "Priya", "Luc" names "Jean-Luc"."""
    words = {w.casefold() for w in _WORD.findall(speaker)}
    return any(n.casefold() in words for n in named)


def is_reply(asked: Any, turn: Any) -> bool:
    """``turn`` (a ``turns.Turn``) answers ``asked``, the turn right before it: ``asked`` holds a
    question mark and someone else says ``turn``: another speaker, or without speaker names
    another role (the assistant answering the user)."""
    who, said = asked.speaker or asked.role, turn.speaker or turn.role
    return bool(_QUESTION.search(asked.text)) and who is not None and said is not None and who != said


# --- the seeds' blend -------------------------------------------------------------------------------
def turn_similarities(turns: dict[str, Any], speakers: list[str], similarity: Similarity) -> dict[str, float]:
    """Each matched turn's similarity in context: own (cosine + words), read with its
    neighbours, lifted as a reply to a question, weighed by who said it."""
    own = {t.id: similarity.of(t) for t in turns.values()}
    out = {tid: similarity.in_context(own[tid], [own[n] for n in t.neighbours if n in own]) for tid, t in turns.items()}
    for tid, t in turns.items():
        asked = turns.get(t.previous) if t.previous in own else None
        if asked is not None and is_reply(asked, t):
            out[tid] = similarity.as_reply(out[tid], own[asked.id])
    if speakers:  # the question names who it is about: what they said comes first
        for tid, t in turns.items():
            out[tid] = similarity.as_said_by(out[tid], t.speaker, speakers)
    return out


def rank_candidates(
    candidates: Iterable[Any],
    turns: dict[str, Any],
    speakers: list[str],
    similarity: Similarity,
    outside: set[str] = frozenset(),
    kept: float = 0.0,
    in_context: dict[str, float] | None = None,
) -> list[tuple[Any, float]]:
    """Every seed candidate with its similarity, best first: a turn by its similarity in
    context; a memory extracted from matched turns mostly by the best of them
    (``Similarity.as_extracted``); ``outside`` a time range read from the query at ``kept`` ×
    that. Ties go to the candidate found higher by more lists (reciprocal-rank fusion)."""
    candidates = list(candidates)
    if in_context is None:
        in_context = turn_similarities(turns, speakers, similarity)
    sims = {
        c.id: in_context[c.id] if c.kind == "episode" and c.id in in_context else similarity.of(c) for c in candidates
    }
    source: dict[str, str] = {}  # memory id -> the best of the turns it was extracted from
    lead: dict[str, str] = {}  # turn id -> the memory from it closest to the query
    for c in candidates:
        support = [t for t in c.support if t in in_context]
        if support and c.kind == "memory":
            source[c.id] = t = max(support, key=in_context.__getitem__)
            if t not in lead or sims[c.id] > sims[lead[t]]:
                lead[t] = c.id
    scored = []
    for c in candidates:
        sim = sims[c.id]
        if c.id in source:
            t = source[c.id]
            sim = similarity.as_extracted(sim, in_context[t], lead[t] == c.id)
        if c.id in outside:
            sim *= kept
        scored.append((c, sim))
    scored.sort(key=lambda cs: (-cs[1], -rrf(cs[0].ranks)))
    return scored


@dataclass(frozen=True)
class SubjectScope:
    """The subjects a query names (``subjects.py``) and the ids of their memories: a memory about
    someone else counts at ``weight`` × its similarity, as a turn said by someone else does
    (``Similarity.as_said_by``). Only a memory not drawn from a conversation: one extracted from
    turns takes its similarity mostly from them, and they are weighed by who said them already."""

    names: tuple[str, ...]
    ids: frozenset[str]
    weight: float

    def weigh(self, memory_id: str, similarity: float, from_turns: bool = False) -> float:
        """``similarity`` as it ranks: unchanged for their memories and for any drawn from turns."""
        return similarity if from_turns or memory_id in self.ids else self.weight * similarity


def reached_similarity(
    own: float,
    sources: list[tuple[str, float, str | None, str]],
    in_context: dict[str, float],
    speakers: list[str],
    similarity: Similarity,
) -> float:
    """The similarity of a memory the walk reached: like a seed's (``rank_candidates``), mostly
    the best of the turns it was extracted from (``Similarity.as_extracted``), each turn read in
    context where the seeds read it (``in_context``), else by its own cosine and who said it;
    ``sources``: (turn id, its cosine, its speaker, its text). A memory not drawn from a
    conversation keeps its own."""
    best = None
    for tid, cosine, speaker, text in sources:
        sim = in_context.get(tid)
        if sim is None:
            sim = similarity.as_said_by(similarity(cosine, text), speaker, speakers)
        best = sim if best is None else max(best, sim)
    return own if best is None else similarity.as_extracted(own, best)


def choose_seeds(
    scored: list[tuple[Any, float]],
    similarity: Similarity,
    k: int,
    floor: float,
    why: list[str],
    about: SubjectScope | None = None,
) -> list[tuple[Any, float]]:
    """The seeds of the walk: up to k candidates whose similarity reaches ``floor`` or whose words
    cover the query (``Similarity.words_cover``); when none does, the closest FALLBACK_SEEDS, so
    a group with memories never answers with nothing. ``about``: the subjects the query names;
    a memory written directly (not drawn from turns: those are weighed by who said them) is
    ranked by ``SubjectScope.weigh``, while the floor judges how well it matched, not whom it is
    about."""
    if about is not None:
        scored = sorted(
            ((c, about.weigh(c.id, sim, bool(c.support)) if c.kind == "memory" else sim, sim) for c, sim in scored),
            key=lambda x: -x[1],
        )
    else:
        scored = [(c, sim, sim) for c, sim in scored]
    chosen = [(c, sim) for c, sim, matched in scored if matched >= floor or similarity.words_cover(c.text)][:k]
    if not chosen and scored:
        chosen = [(c, sim) for c, sim, _ in scored[:FALLBACK_SEEDS]]
        why.append(f"no direct match reaches similarity {floor}: starting from the {len(chosen)} closest")
    return chosen


def rrf(ranks: dict[str, int]) -> float:
    """Reciprocal-rank fusion of a candidate's 1-based ranks in the lists that found it."""
    return sum(1.0 / (RRF_K + r) for r in ranks.values())


def time_range_verdict(inside: float, outside: float, found_inside: bool, profile: RankingProfile) -> str:
    """What a time range read from the query does, given the best similarity inside and outside
    it: "empty" (nothing inside: search all time), "closer" (a match outside is ``slack`` closer:
    search all time), "widen" (the matches outside follow at ``outside`` × their similarity) or
    "keep" (the range alone)."""
    rules = profile.time_range
    if not found_inside:
        return "empty"
    if outside - inside >= TIME_RANGE_SLACK:
        return "closer"
    return "widen" if rules.outside > 0 else "keep"


# --- the score ------------------------------------------------------------------------------------
def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def days_between(earlier: datetime | None, later: datetime) -> float | None:
    if earlier is None:
        return None
    return max(0.0, (later - earlier).total_seconds() / 86400.0)


class Scorer:
    """The weighted score of one search: one profile's weights, the decay rates, the reference time."""

    def __init__(self, profile: RankingProfile, decay: DecayRates, reference_time: datetime):
        self.profile = profile
        self.w = profile.weights
        self.decay = decay
        self.now = reference_time

    @property
    def weights(self) -> dict[str, float]:
        w = self.w
        return {
            "similarity": w.alpha_similarity,
            "importance": w.beta_importance,
            "distance": w.gamma_distance,
            "time_decay": w.delta_time,
            "access": w.epsilon_access,
        }

    def time_decay(self, memory_type: str, occurred_at: str | None, created_at: str | None) -> float:
        days = days_between(parse_time(occurred_at) or parse_time(created_at), self.now)
        if days is None:
            return 1.0
        return math.exp(-self.decay.rate(memory_type) * days)

    def access(self, count: int | None, last_accessed_at: str | None) -> float:
        if not count:
            return 0.0
        frequency = min(1.0, math.log1p(count) / math.log1p(ACCESS_SATURATION))
        days = days_between(parse_time(last_accessed_at), self.now)
        recency = 0.0 if days is None else math.exp(-days / ACCESS_RECENCY_DAYS)
        return frequency * (0.5 + 0.5 * recency)

    def parts(self, similarity: float, memory: dict, distance: int) -> ScoreParts:
        importance = memory.get("importance")
        return ScoreParts(
            similarity=round(similarity, 6),
            importance=float(0.5 if importance is None else importance),
            distance=1.0 / (1.0 + distance),
            time_decay=self.time_decay(
                memory.get("memory_type") or "FACT", memory.get("occurred_at"), memory.get("created_at")
            ),
            access=self.access(memory.get("access_count"), memory.get("last_accessed_at")),
        )

    def total(self, parts: ScoreParts) -> float:
        w = self.w
        return round(
            w.alpha_similarity * parts.similarity
            + w.beta_importance * parts.importance
            + w.gamma_distance * parts.distance
            + w.delta_time * parts.time_decay
            + w.epsilon_access * parts.access,
            6,
        )
