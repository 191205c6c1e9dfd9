"""The one explainable score (seed 004 §5.2, §5.3).

    score = α·similarity + β·importance + γ·1/(1+distance) + δ·time_decay + ε·access

with α..ε from ``[retrieval]`` (defaults 0.4/0.2/0.2/0.1/0.1), or from a named profile a
search asks for: "recall" (0.85/0.05/0.1/0/0) ranks by relevance alone, for questions about
anything ever said, however old or rarely read. Every part is in [0, 1]:

- ``similarity``: how well the text answers the query, a blend of meaning and words:
  (1 − w)·cosine + w·lexical. For an English query w = ``retrieval.lexical_weight`` (0.15; for a
  Chinese one ``retrieval.lexical_weight_cjk``, 0.3)
  and lexical is the text's word evidence in [0, 1] from the fulltext index (0 for a text
  outside the fulltext hits; ``seeds.lexical_scale``: in a group up to
  ``retrieval.exact_scan_limit`` texts absolute, the IDF its matched words carry in the group
  against half of the most the query's words could carry; in a larger group its BM25 over the
  best of this search): cosine alone misses names and rare
  words, BM25 alone misses paraphrases. Chinese is scored the same way (its word evidence
  from the ``cjk`` fulltext index, character bigrams) when the embedding model reads it, as the
  default pair does. The part of a query the model cannot read (Chinese for an English-only
  model: ``unknown_share``) has a weak cosine: for it w grows to 0.5 and lexical becomes the
  overlap of character bigrams and words (``graphmem.textsim``), in proportion to that share.
  A conversation turn (an episode) is read in its context: its similarity is
  (own + c·best neighbour)/(1 + c), the neighbours being the turns right before and after it
  in its session and c = ``retrieval.context_weight`` (0.3); an answer is often found next
  to the turn that names the topic. A reply to a question (the turn right before it holds a
  "?" and another speaker said it) is at least r × the question's similarity, r =
  ``retrieval.reply_weight`` (0.9): LoCoMo dev turn recall@10 75.2 → 78.7 (R@5 64.7 → 68.8).
  When the query names a speaker of the conversation, a turn someone else said counts at
  ``retrieval.speaker_weight`` (0.9) × its similarity (after the reply lift): a question about
  Melanie is answered by what Melanie said (LoCoMo dev multi-hop recall@10 49.0 → 52.4).
  A memory extracted from turns is seeded at s = ``retrieval.source_weight`` (0.9) of the best
  of those turns' similarity and 1 − s of its own (``Similarity.as_extracted``; the other
  memories of the same turn at the mean of the two). LoCoMo dev,
  turn recall@10: 56.5 when a memory kept its own similarity, 70.5 (then 80.9) with the mean of
  the two, 82.1 with 0.9 of the turn (LongMemEval dev recall_all@5 0.936 → 0.947).
- ``importance``: the memory's own 0–1 importance.
- ``distance``: 1/(1+hops): 1 for a direct match, 1/2 one hop away, 1/3 two hops away.
- ``time_decay``: exp(-λ·days) since the memory happened (``occurred_at``, or
  ``created_at`` when it has no time), with λ per memory type (EVENT 0.05, FACT 0.01,
  RELATION 0.005, OPINION 0.03 per day; an episode decays like an EVENT). A time in the
  future of the reference counts as now.
- ``access``: min(1, log(1+count)/log(1+20)) × (0.5 + 0.5·exp(-days since the last access
  / 30)): frequently read memories rank higher, and recently read ones higher still; 20
  reads saturate the frequency, and a memory never read scores 0.
"""
from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from typing import Any

from ..config import RetrievalSettings
from ..textsim import cjk_share, overlap
from ..types import ScoreParts

ACCESS_SATURATION = 20          # reads at which the frequency part reaches 1
ACCESS_RECENCY_DAYS = 30.0      # e-folding time of the recency of the last read


class Similarity:
    """Similarity of texts to one query: cosine blended with lexical evidence (see above)."""

    def __init__(self, query: str, lexical_weight: float = 0.3, context_weight: float = 0.3,
                 reply_weight: float = 0.9, speaker_weight: float = 0.9, source_weight: float = 0.9,
                 unread: float | None = None, lexical_weight_cjk: float | None = None):
        """``unread``: the share of the query the embedding model cannot read (None: its CJK
        share, as for an English-only model). ``lexical_weight_cjk``: the word share of a Chinese
        query (None: ``lexical_weight``); a mixed query's is in proportion to its CJK share."""
        self.query = query
        self.script = cjk_share(query)
        self._scripts: dict[str, float] = {}
        cjk = lexical_weight if lexical_weight_cjk is None else lexical_weight_cjk
        base = lexical_weight + (cjk - lexical_weight) * self.script
        self.unread = self.script if unread is None else max(0.0, min(1.0, unread))
        self.weight = base + (0.5 - base) * self.unread
        self.context_weight = context_weight
        self.reply_weight = reply_weight
        self.speaker_weight = speaker_weight
        self.source_weight = source_weight

    def __call__(self, cosine: float | None, text: str | None, bm25: float | None = None) -> float:
        """``bm25``: the text's word evidence in [0, 1] (``seeds.lexical_scale``), None when it was not a hit."""
        cos = max(0.0, min(1.0, cosine or 0.0))
        weight = self.weight * self.shared_script(text or "")
        if weight <= 0.0:
            return cos
        lexical = 0.0
        if self.unread:
            lexical += self.unread * overlap(self.query, text or "")
        if self.unread < 1.0 and bm25:
            lexical += (1.0 - self.unread) * max(0.0, min(1.0, bm25))
        return (1.0 - weight) * cos + weight * lexical

    def shared_script(self, text: str) -> float:
        """How much of its script a text shares with the query, in [0, 1]: 1 for two English or two
        Chinese texts, 0 for an English query and a Chinese text. Word evidence counts only as far
        as words could be shared: a memory in the other language is judged by its meaning alone."""
        if not text:
            return 1.0
        theirs = self._scripts.get(text)
        if theirs is None:                 # a text is scored several times in one search
            theirs = self._scripts[text] = cjk_share(text)
        return min(self.script, theirs) + min(1.0 - self.script, 1.0 - theirs)

    def in_context(self, own: float, neighbours: list[float]) -> float:
        """A turn's similarity read with the turns around it."""
        if not neighbours:
            return own
        return (own + self.context_weight * max(neighbours)) / (1.0 + self.context_weight)

    def as_reply(self, in_context: float, question: float) -> float:
        """A reply to a question is at least ``reply_weight`` × as similar as the question: the
        question names what the reply is about ("What are their names?" → "Luna and Oliver!")."""
        return max(in_context, self.reply_weight * question)

    def as_extracted(self, own: float, source: float, lead: bool = True) -> float:
        """A memory extracted from turns, ``source`` the best of those turns' similarity (in
        context): ``source_weight`` of it, the rest the memory's own. What was said is the
        evidence; an extractor's sentence is a fragment of it ("I thinking of trying to meal
        prep") and its own embedding a weak witness of what the turn was about. Only the
        ``lead``, the turn's memory closest to the query, stands so for the turn; its siblings
        take the mean of the two, so one turn's fragments do not crowd the top."""
        w = self.source_weight if lead else 0.5
        return (1.0 - w) * own + w * source

    def as_said_by(self, similarity: float, speaker: str | None, named: list[str]) -> float:
        """A turn said by someone other than the speakers the query names (``named``: query words
        that name a speaker of the group) counts at ``speaker_weight`` × its similarity: "What
        has Melanie painted?" is answered by what Melanie said, not by Caroline's "Wow, Melanie!".
        A turn without a speaker name is left as it is."""
        if not named or not speaker or names_speaker(speaker, named):
            return similarity
        return self.speaker_weight * similarity


_QUESTION = re.compile(r"[?？]")
_WORD = re.compile(r"\w+")


def names_speaker(speaker: str, named: list[str]) -> bool:
    """One of the ``named`` words is a word of the speaker's name (case-insensitive): "caroline"
    names "Caroline", "Luc" names "Jean-Luc"."""
    words = {w.casefold() for w in _WORD.findall(speaker)}
    return any(n.casefold() in words for n in named)


def is_reply(asked: Any, turn: Any) -> bool:
    """``turn`` (a ``seeds.Turn``) answers ``asked``, the turn right before it: ``asked`` holds a
    question mark and someone else says ``turn``: another speaker, or without speaker names
    another role (the assistant answering the user)."""
    who, said = asked.speaker or asked.role, turn.speaker or turn.role
    return bool(_QUESTION.search(asked.text)) and who is not None and said is not None and who != said


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def days_between(earlier: datetime | None, later: datetime) -> float | None:
    if earlier is None:
        return None
    return max(0.0, (later - earlier).total_seconds() / 86400.0)


class Scorer:
    def __init__(self, settings: RetrievalSettings, reference_time: datetime, profile: str = "default"):
        self.s = settings
        self.w = settings.weights(profile)
        self.profile = profile
        self.now = reference_time
        self.rates = {"EVENT": settings.decay_event, "FACT": settings.decay_fact,
                      "RELATION": settings.decay_relation, "OPINION": settings.decay_opinion,
                      "EPISODE": settings.decay_event}

    @property
    def weights(self) -> dict[str, float]:
        s = self.w
        return {"similarity": s.alpha_similarity, "importance": s.beta_importance, "distance": s.gamma_distance,
                "time_decay": s.delta_time, "access": s.epsilon_access}

    def time_decay(self, memory_type: str, occurred_at: str | None, created_at: str | None) -> float:
        days = days_between(parse_time(occurred_at) or parse_time(created_at), self.now)
        if days is None:
            return 1.0
        return math.exp(-self.rates.get(memory_type, self.s.decay_fact) * days)

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
            time_decay=self.time_decay(memory.get("memory_type") or "FACT", memory.get("occurred_at"),
                                       memory.get("created_at")),
            access=self.access(memory.get("access_count"), memory.get("last_accessed_at")))

    def total(self, parts: ScoreParts) -> float:
        s = self.w
        return round(s.alpha_similarity * parts.similarity + s.beta_importance * parts.importance
                     + s.gamma_distance * parts.distance + s.delta_time * parts.time_decay
                     + s.epsilon_access * parts.access, 6)
