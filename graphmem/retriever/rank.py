"""Ranking: every number that turns evidence into a rank, with one
``RankingProfile`` ("default", the built-in "recall", or one from the config) and the constants
below. score = α·similarity + β·importance + γ·1/(1+distance) + δ·time_decay + ε·access, where

- similarity = (1 − w)·cosine + w·word evidence (``word_evidence``), w the profile's
  ``lexical_weight`` (``_cjk`` for Chinese), as far as query and text share a script; for the part
  of a query the model cannot read w is UNREAD_LEXICAL and the words are bigram/word overlap. A
  turn said together with its neighbours (a dialogue, or one sitting: ``lang.read_together``) is read
  in context ((own + c·best neighbour)/(1 + c)), as a reply, by who said it and by its closest sentence; a memory extracted from turns takes ``source_weight`` of their best;
- time_decay = exp(−λ·days since it happened, else since it was said), λ per memory type (``retrieval.decay``);
  access = min(1, log(1+count)/log(1+20)) × (0.5 + 0.5·exp(−days since the last read / 30)).

A memory the walk reaches along a strong step (``Paths``) is at least CARRY × as similar as the
memory it was reached from, and that step does not add to its distance: one rule for every
profile, so a linked cause ranks just below the effect the question found, above weak direct
matches, whatever the weights; what it borrowed lifts it up to that memory's score, not above
(its importance or its age does not carry a borrowed similarity past where it came from): above
it, only on its own similarity. Not where similarity has no weight in the profile (nothing was
borrowed), nor when the question describes someone and it is found twice (``Paths.carried``).

Three cuts happen in Cypher, because only the top of a large set comes back, with the same
numbers: a turn's ``sentence_lift``, the group's IDF sum (``group_idf``) and a walk level's
α·cosine + β·importance (``prerank_params``; ``prerank`` when the process holds the cosines).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

import numpy as np

from ..config import DecayRates, RankingProfile
from ..cues import COUNTS, described
from ..lang import AGENT_NAMES, USER_NAMES, read_together
from ..store.vector import to_cosine
from ..textsim import Fit, cjk_share, lexical_units, overlap_units, says_word
from ..timeparse import is_time_key
from ..timeparse.stamps import days_between, parse_time
from ..types import ScoreParts

ACCESS_SATURATION = 20  # reads at which the frequency part reaches 1
ACCESS_RECENCY_DAYS = 30.0  # e-folding time of the recency of the last read
UNREAD_LEXICAL = 0.5  # word share of the part of a query the model cannot read
FALLBACK_SEEDS = 3  # when no candidate reaches the floor, the closest this many seed anyway
# scores are compared to this many decimals: the same text said twice scores within float noise
# of itself, and a process's float32 copy of the vectors differs from Neo4j's doubles below it
SCORE_DIGITS = 6
RRF_K = 60  # reciprocal-rank fusion: Σ 1/(RRF_K + rank), used only to break ties
# a text's words are full evidence when they carry this share of the most the query's words could
# carry in the group (every one of them said in just one text of the group)
LEXICAL_FULL = 0.5
LEXICAL_SEED = 0.5  # a candidate whose words cover this share of the query's is a seed whatever its similarity
SENTENCE_WEIGHT = 0.9  # a long turn is at least this × its closest sentence's cosine
REPLY_WEIGHT = 0.9  # a reply to a question is at least this × the question's similarity
SIBLING_SHARE = 0.5  # the source share of a turn's memories other than the one closest to the query
TIME_RANGE_SLACK = 0.1  # a range read from the query is dropped when a match outside is this much closer
# a memory reached along a strong step of the walk is at least this × as similar as the memory it
# was reached from (a two-step chain: CARRY²)
CARRY = 0.9
RARE_DEGREE = 2  # a concept linked to at most this many memories joins them as a link does
EXPLICIT_EDGES = ("CAUSALITY", "REFERENCE")
Source = tuple[str, float | None, str | None, str | None]  # a turn a memory was drawn from: id, cosine, speaker, text


def score_order(score: float) -> float:
    """A score as ranking compares it (``SCORE_DIGITS``); ties go to the caller's next key."""
    return round(score, SCORE_DIGITS)


_QUESTION = re.compile(r"[?？]")
NAME_WORDS = re.compile(r"\w+")  # the words of a speaker's name ("Jean-Luc": Jean, Luc)


# --- word evidence ---------------------------------------------------------------------------
def group_idf(df: int, n: int) -> float:
    """A term's IDF among a group's ``n`` texts when ``df`` hold it (BM25's form)."""
    return math.log(1.0 + (max(n, 1) - df + 0.5) / (df + 0.5))


@dataclass(frozen=True)
class WordHits:
    """How one fulltext list's scores read: ``terms`` probed over a group of ``n`` texts, term by term with the group's
    IDF (``exact``: an absolute scale) or by one Lucene query whose best hit scored ``best``."""

    terms: int
    n: int
    exact: bool
    best: float = 0.0

    @classmethod
    def of(cls, rows: list[dict], terms: int, n: int, limit: int) -> WordHits:
        """A list's statistics: a group up to ``limit`` texts is searched term by term."""
        return cls(terms, n, True) if n <= limit else cls(terms, n, False, max((r["bm25"] for r in rows), default=0.0))


def word_evidence(bm25: float | None, hits: WordHits) -> float | None:
    """A text's word evidence in [0, 1] from its raw fulltext score (None: not a word hit). Exact:
    over LEXICAL_FULL × terms × the IDF of a term said once in the group, so that when the query's
    words are common in the group no text gets full marks for them and the meaning decides."""
    if bm25 is None:
        return None
    scale = LEXICAL_FULL * max(hits.terms, 1) * group_idf(1, hits.n) if hits.exact else (hits.best or 1.0)
    return max(0.0, min(1.0, bm25 / scale))


def sentence_lift(own: float, sentence: float) -> float:
    """A turn is as close as the better of itself and SENTENCE_WEIGHT × its closest sentence."""
    return max(own, SENTENCE_WEIGHT * sentence)


def prerank_params(profile: RankingProfile) -> dict[str, float]:
    """The parameters of ``search_expand``'s cut of a level: α·cosine + β·importance."""
    return {"alpha": profile.weights.alpha_similarity, "beta": profile.weights.beta_importance}


def linked_closely(steps: list[dict]) -> bool:
    """A neighbour reached along a link or through a concept linked to at most RARE_DEGREE
    memories: ``search_expand`` keeps these first."""
    return any(st.get("degree") is None or st["degree"] <= RARE_DEGREE for st in steps)


def prerank(rows: list[dict], keep: int, profile: RankingProfile) -> list[dict]:
    """``search_expand``'s cut of a level made here: the best ``keep`` rows ({memory, score, steps}),
    those linked closely first, a missing cosine read as unrelated, a missing importance as 0.5."""
    w = profile.weights

    def value(row: dict) -> tuple[bool, float]:
        importance = row["memory"].get("importance")
        cosine = to_cosine(0.5 if row["score"] is None else row["score"])
        prior = w.alpha_similarity * cosine + w.beta_importance * (0.5 if importance is None else importance)
        return linked_closely(row["steps"]), prior

    return sorted(rows, key=value, reverse=True)[:keep]


def dialogue_query(whole: Any, latest: Any, profile: RankingProfile) -> list[float]:
    """A dialogue query's vector: its user lines' (``whole``) with its latest line's at
    ``latest_turn_weight``, unit length."""
    w = profile.conversation.latest_turn_weight
    v = (1.0 - w) * np.asarray(whole, dtype=np.float32) + w * np.asarray(latest, dtype=np.float32)
    n = float(np.linalg.norm(v))
    return (v / n).tolist() if n > 0 else list(whole)


# --- similarity --------------------------------------------------------------------------------
class Similarity:
    """Similarity of texts to one query under one profile: cosine blended with word evidence,
    and the conversation lifts. ``unread``: the share of the query the embedding model cannot
    read (None: its CJK share, as for an English-only model)."""

    def __init__(self, query: str, profile: RankingProfile, unread: float | None = None):
        self.query = query
        self.script = cjk_share(query)
        blend = profile.similarity
        base = blend.lexical_weight + (blend.lexical_weight_cjk - blend.lexical_weight) * self.script
        self.unread = self.script if unread is None else max(0.0, min(1.0, unread))
        self.weight = base + (UNREAD_LEXICAL - base) * self.unread
        self.lifts = profile.conversation
        self._units: set[str] | None = None  # the query's lexical units, read once
        self._scripts: dict[str, float] = {}  # a text is scored several times in one search
        self._text_units: dict[str, set[str]] = {}

    def __call__(self, cosine: float | None, text: str | None, words: float | None = None) -> float:
        """``words``: the text's word evidence in [0, 1], None when it was not a hit."""
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
        """A seed candidate's or a turn's similarity from its evidence."""
        cosine, sentence = item.cosine, getattr(item, "sentence", None)
        if sentence is not None:
            cosine = sentence_lift(cosine, sentence)
        return self(cosine, item.text, word_evidence(item.bm25, item.word_hits) if item.word_hits is not None else None)

    def shared_script(self, text: str) -> float:
        """How much of its script a text shares with the query: 1 for two English or two Chinese
        texts, 0 for an English query and a Chinese text."""
        if not text:
            return 1.0
        theirs = self._scripts.get(text)
        if theirs is None:
            theirs = self._scripts[text] = cjk_share(text)
        return min(self.script, theirs) + min(1.0 - self.script, 1.0 - theirs)

    def words_cover(self, text: str) -> bool:
        """The text's words cover LEXICAL_SEED of the query's: a seed whatever its similarity."""
        return self.overlap(text) >= LEXICAL_SEED

    def overlap(self, text: str) -> float:
        if self._units is None:
            self._units = lexical_units(self.query)
        units = self._text_units.get(text)
        if units is None:
            units = self._text_units[text] = lexical_units(text)
        return overlap_units(self._units, units)

    def in_context(self, own: float, neighbours: list[float]) -> float:
        """A turn's similarity read with the turns around it."""
        c = self.lifts.context_weight
        return own if not neighbours or c <= 0 else (own + c * max(neighbours)) / (1.0 + c)

    def as_reply(self, in_context: float, question: float) -> float:
        """A reply is at least REPLY_WEIGHT × as similar as the question before it: the question
        names what the reply is about ("Where did you find him?" → "Next to the bakery!")."""
        return max(in_context, REPLY_WEIGHT * question)

    def as_extracted(self, own: float, source: float, lead: bool = True) -> float:
        """A memory extracted from turns, ``source`` the best of those turns' similarity: ``source_weight`` of it for the
        ``lead`` (the turn's memory closest to the query), SIBLING_SHARE for its siblings, so one turn's fragments do
        not crowd the top (and never above the lead: ``seed_similarities``)."""
        w = self.lifts.source_weight if lead else SIBLING_SHARE
        return (1.0 - w) * own + w * source

    def as_said_by(self, similarity: float, speaker: str | None, named: list[str]) -> float:
        """A turn said by someone other than the speakers the query names counts at ``speaker_weight`` × its similarity:
        "What has Priya painted?" is answered by what Priya said, not by Tomasz's "Wow, Priya!"."""
        if not named or not speaker or names_speaker(speaker, named):
            return similarity
        return self.lifts.speaker_weight * similarity


def names_speaker(speaker: str, named: list[str]) -> bool:
    """One of the ``named`` words is a word of the speaker's name: "luc" names "Jean-Luc"."""
    words = {w.casefold() for w in NAME_WORDS.findall(speaker)}
    return any(n.casefold() in words for n in named)


def is_reply(asked: Any, turn: Any) -> bool:
    """``turn`` answers ``asked``, the turn right before it: a question someone else asked
    (another speaker, or without names another role)."""
    who, said = asked.speaker or asked.role, turn.speaker or turn.role
    return bool(_QUESTION.search(asked.text)) and who is not None and said is not None and who != said


# --- the seeds' blend -------------------------------------------------------------------------------
def turn_similarities(turns: dict[str, Any], speakers: list[str], similarity: Similarity) -> dict[str, float]:
    """Each matched turn's similarity read with its neighbours (said together, ``lang.read_together``: a
    note is read alone), as a reply, by who said it."""
    own, out = {t.id: similarity.of(t) for t in turns.values()}, {}
    for tid, t in turns.items():
        around = [turns[n] for n in t.neighbours if n in own]
        talk = read_together([(x.speaker, x.role, x.said_at) for x in [t, *around]])
        out[tid] = similarity.in_context(own[tid], [own[x.id] for x in around] if talk else [])
    for tid, t in turns.items():
        asked = turns.get(t.previous) if t.previous in own else None
        if asked is not None and is_reply(asked, t):
            out[tid] = similarity.as_reply(out[tid], own[asked.id])
    if speakers:  # the question names who it is about: what they said comes first
        for tid, t in turns.items():
            out[tid] = similarity.as_said_by(out[tid], t.speaker, speakers)
    return out


def seed_similarities(
    candidates: list[Any], in_context: dict[str, float], similarity: Similarity
) -> tuple[dict[str, float], dict[str, str]]:
    """Each seed candidate's similarity: a turn by its similarity in context (``in_context``,
    from ``turn_similarities``), a memory extracted from matched turns mostly by the best of them
    (``Similarity.as_extracted``), any other memory by its own; and each turn's lead: memory id ->
    the turn it stands for (of the memories drawn from a matched turn, the one closest to the query)."""
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
    out = {
        cid: similarity.as_extracted(sim, in_context[source[cid]], lead[source[cid]] == cid) if cid in source else sim
        for cid, sim in sims.items()
    }
    for cid, tid in source.items():  # a sibling follows the memory that stands for its turn
        if lead[tid] != cid:
            out[cid] = min(out[cid], out[lead[tid]])
    return out, {cid: tid for tid, cid in lead.items()}


@dataclass(frozen=True)
class SubjectScope:
    """The ids of the memories of the subjects a query names: a memory about someone else counts at ``weight`` × its
    similarity (as a turn said by someone else does), unless drawn from turns (weighed by who said them already)."""

    ids: frozenset[str]
    weight: float

    def weigh(self, memory_id: str, similarity: float, from_turns: bool = False) -> float:
        return similarity if from_turns or memory_id in self.ids else self.weight * similarity


def rrf(ranks: dict[str, int]) -> float:
    """Reciprocal-rank fusion of a candidate's 1-based ranks in the lists that found it."""
    return sum(1.0 / (RRF_K + r) for r in ranks.values())


def time_range_verdict(inside: float, outside: float, found_inside: bool, profile: RankingProfile) -> str:
    """What a time range read from the query does, given the best similarity inside and outside:
    "empty" or "closer" (search all time), "widen" (the matches outside follow at ``outside`` ×
    their similarity) or "keep" (the range alone)."""
    if not found_inside:
        return "empty"
    if outside - inside >= TIME_RANGE_SLACK:
        return "closer"
    return "widen" if profile.time_range.outside > 0 else "keep"


# --- the walk's paths -----------------------------------------------------------------------------
_NAME_WORD = re.compile(r"[^\W_]+")
PERSONS = USER_NAMES | AGENT_NAMES  # the user and the agent are named in most questions: never a strong step


@dataclass(frozen=True)
class Paths:
    """Which steps of the walk are strong: a CAUSALITY/REFERENCE link when the question asks for causes, effects or
    connections (``asks``, read by the planner), and a shared Subject, Object or Value (not a Topic: a verb says little;
    nor a time) that the question names, by name or role, or describes ("the woman who bought my fridge": a name of its
    best match, ``anchor``), unless a hub (linked to more than ``hub`` memories), or that joins at most RARE_DEGREE
    memories (Marco of "I met Marco", "Marco flies gliders") unless the question counts things (有几个活动的地点在深圳？
    asks each event's place, not its other facts: ``cues.COUNTS``); not the user or agent."""

    query: str
    asks: str | None  # what the question asks for beyond its words (plan: "causes", "connections"), or None
    hub: int  # a concept linked to more memories (the speaker, a frequent topic) says little even when named
    meant: frozenset[str] = frozenset()  # people the query names by a role or description (家教 → 小吴), casefolded
    anchor: str | None = None  # the direct match nearest the words that describe someone; None: the best match
    theirs: frozenset[str] = frozenset()  # the memories about the ``meant``, who they are among them (陈宇轩是我的叔叔)

    def strong(self, step: dict, anchor: bool = False) -> bool:
        if step["edge"] in EXPLICIT_EDGES:
            return self.asks is not None
        via = (step.get("via") or "").casefold().strip()
        if step["edge"] == "HAS_TOPIC" or not via or via in PERSONS:
            return False
        if step["edge"] == "VALUE" and is_time_key(step.get("relation") or ""):
            return False  # two memories of one day are not about one thing
        degree = step.get("degree") or 0
        named = (anchor and bool(self.described)) or self.names(via)  # described, or named by name or role
        return (degree <= RARE_DEGREE and not COUNTS.search(self.query)) or (degree <= self.hub and named)

    def names(self, via: str) -> bool:
        """The query says the concept's name (as whole words when it is written in words), or a
        role or description of the person it names."""
        query = self.query.casefold()
        if via in self.meant:
            return True
        if not _NAME_WORD.fullmatch(via.replace(" ", "")) or cjk_share(via) > 0:
            return len(via) >= 2 and via in query
        return says_word(via, query)  # whole words: not inside a longer word, though Chinese may touch it

    @cached_property
    def described(self) -> str | None:
        """The words by which a question that asks for connections describes someone (``cues.described``)."""
        return described(self.query) if self.asks == "connections" else None

    def anchored(self, parents: dict[str, Any]) -> dict[str, Any]:
        """``parents`` (best first) with ``anchor`` first when it is one of them."""
        return {self.anchor: parents[self.anchor]} | parents if self.anchor in parents else parents

    def carried(self, own: float, parent: float, strong: bool, twice: bool, via: str = "") -> float:
        """A reached memory's similarity: its own, or CARRY × its parent's along a strong step; all of it through the
        person the question means by a role (``meant``: what else is known of them is what it asks; the score then ties
        the parent's, which ranks first). When the question describes someone, a direct match the anchor leads to is
        found ``twice``, by what it says and by whom it is about: 1 − (1 − own)(1 − CARRY × parent)."""
        if strong and twice and self.described:
            return 1 - (1 - own) * (1 - CARRY * parent)
        if strong and via.casefold().strip() in self.meant:
            return max(own, parent)
        return max(own, CARRY * parent) if strong else own


# --- the score ------------------------------------------------------------------------------------
class Scorer:
    """The weighted score of one search: one profile's weights, the decay rates, the reference time."""

    def __init__(self, profile: RankingProfile, decay: DecayRates, reference_time: datetime):
        w, self.decay, self.now = profile.weights, decay, reference_time
        alphas = (w.alpha_similarity, w.beta_importance, w.gamma_distance, w.delta_time, w.epsilon_access)
        self.weights = dict(zip(("similarity", "importance", "distance", "time_decay", "access"), alphas))

    def time_decay(self, memory_type: str, occurred_at: str | None, created_at: str | None) -> float:
        days = days_between(parse_time(occurred_at) or parse_time(created_at), self.now)
        return 1.0 if days is None else math.exp(-self.decay.rate(memory_type) * days)

    def access(self, count: int | None, last_accessed_at: str | None) -> float:
        if not count:
            return 0.0
        frequency = min(1.0, math.log1p(count) / math.log1p(ACCESS_SATURATION))
        days = days_between(parse_time(last_accessed_at), self.now)
        recency = 0.0 if days is None else math.exp(-days / ACCESS_RECENCY_DAYS)
        return frequency * (0.5 + 0.5 * recency)

    def parts(self, similarity: float, memory: dict, distance: int) -> ScoreParts:
        importance, kind = memory.get("importance"), memory.get("memory_type") or "FACT"
        happened = memory.get("occurred_at") or memory.get("reference_time")  # else when it was said
        return ScoreParts(
            similarity=round(similarity, 6),
            importance=float(0.5 if importance is None else importance),
            distance=1.0 / (1.0 + distance),
            time_decay=self.time_decay(kind, happened, memory.get("created_at")),
            access=self.access(memory.get("access_count"), memory.get("last_accessed_at")),
        )

    def total(self, parts: ScoreParts) -> float:
        """Σ weight × part, in the order of ``weights`` (each part's name is a field of ScoreParts)."""
        return round(sum(weight * getattr(parts, name) for name, weight in self.weights.items()), 6)


@dataclass(frozen=True)
class Ranking:
    """How one search ranks what it finds: its similarity and scorer, the seeds' turns read in
    context (``turn_similarities``), the speakers and the subjects the query names."""

    similarity: Similarity
    scorer: Scorer
    in_context: dict[str, float]
    speakers: list[str]
    about: SubjectScope | None
    paths: Paths  # which steps of the walk are strong
    said: dict[str, str | None] = field(default_factory=dict)  # turn id -> when it was said
    # memory id -> (the turn it stands for, that turn's similarity as ranked): set by ``candidates``
    leads: dict[str, tuple[str, float]] = field(default_factory=dict)
    asked: Fit | None = None  # what a question that describes someone asks of them (``walk.answer_described``)

    def candidates(self, candidates: Iterable[Any], outside: set[str], kept: float) -> list[tuple[Any, float]]:
        """Every seed candidate with its similarity, best first: a turn by its similarity in
        context, a memory extracted from matched turns mostly by the best of them, ``outside`` a
        time range read from the query at ``kept`` × that. Ties: found higher by more lists."""
        candidates = list(candidates)
        sims, leads = seed_similarities(candidates, self.in_context, self.similarity)
        scored = [(c, sims[c.id] * kept if c.id in outside else sims[c.id]) for c in candidates]
        for m, t in leads.items():
            self.leads[m] = (t, self.in_context[t] * (kept if m in outside else 1.0))
        scored.sort(key=lambda cs: (-score_order(cs[1]), -rrf(cs[0].ranks)))
        return scored

    def choose(self, scored: list[tuple[Any, float]], k: int, floor: float, why: list[str]) -> list[tuple[Any, float]]:
        """Up to k candidates whose similarity reaches ``floor`` or whose words cover the query;
        when none does, the closest FALLBACK_SEEDS. A memory written directly is ranked by whom it
        is about, while the floor judges how well it matched."""
        about = self.about
        weighed = [
            (c, about.weigh(c.id, s, bool(c.support)) if about and c.kind == "memory" else s, s) for c, s in scored
        ]
        if about is not None:
            weighed.sort(key=lambda x: -score_order(x[1]))
        passing = [(c, sim) for c, sim, matched in weighed if matched >= floor or self.similarity.words_cover(c.text)]
        chosen = passing[:k]
        if not chosen and weighed:
            chosen = [(c, sim) for c, sim, _ in weighed[:FALLBACK_SEEDS]]
            why.append(f"no direct match reaches similarity {floor}: starting from the {len(chosen)} closest")
        return chosen

    def as_turn(self, memory_id: str, hops: int = 0) -> tuple[ScoreParts, float] | None:
        """For a memory that stands for a matched turn (``leads``): the score parts and score the turn
        would have alone. Extraction may reorder the turns, never bury one: the memory a turn is shown by
        scores at least as the turn (time as said: a birthday of last December, said today, is news)."""
        lead = self.leads.get(memory_id)
        if lead is None:
            return None
        said = self.said.get(lead[0])
        parts = self.scorer.parts(lead[1], {"memory_type": "EPISODE", "occurred_at": said, "created_at": said}, hops)
        return parts, self.scorer.total(parts)

    def reached(self, own: float, sources: list[Source]) -> float:
        """A memory the walk reached, like a seed: mostly the best of the turns it was extracted
        from, each read in context where the seeds read it, else by its cosine and who said it. A
        memory not drawn from a conversation keeps its own."""
        best, similarity = None, self.similarity
        for tid, cosine, speaker, text in sources:
            sim = self.in_context.get(tid)
            if sim is None:
                sim = similarity.as_said_by(similarity(cosine, text), speaker, self.speakers)
            best = sim if best is None else max(best, sim)
        return own if best is None else similarity.as_extracted(own, best)
