"""The Retriever: plan → seeds → expand → score → evidence (seed 004 §4.4, §5.2, §12.3).

1. plan (``plan.py``): mode and depth, relation filters, a time range read from the query (a
   rolling window, "the past few months", only scopes the search: it is not embedded or matched);
2. seeds (``seeds.py`` for memories, ``turns.py`` for conversation turns): vector + fulltext
   (+ episodes and the turns around them), merged into evidence (``evidence.py``); ranking
   (``rank.py``) turns it into similarities and chooses the seeds of the walk, at most
   max(``limits.seed_k``, max_results);
3. expand (``expand.py``): breadth-first, one Cypher query per level, up to the planned depth;
4. score (``rank.Scorer``): α·similarity + β·importance + γ·1/(1+distance) + δ·time_decay +
   ε·access with the ranking profile asked for ("default", "recall", or one from the config),
   the same profile in every step; parts kept on every result; the best ``max_results`` return;
5. evidence: the episodes each returned memory was extracted from (only when the group has
   episodes), and access statistics handed to the background recorder (``access.py``).

Filters. ``memory_types``, ``subject`` and archived status apply to every result, seeds and
expanded alike (the walk does not pass through memories they exclude). A time range given by
the caller applies to every result too. A time range the planner read from the query ("今天",
"last week") only chooses where the walk starts: a cause often precedes its effect, so
memories reached through the graph may lie outside it. When nothing at all falls inside an
inferred range, or a match outside it is far closer, the search runs without it (the plan says
so); with the profile's ``time_range.outside`` > 0 (the "recall" profile) the matches outside it
follow the ones inside at that share of their similarity (``rank.time_range_verdict``).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ..builder.resolve import AGENT_KEY, AGENT_NAMES, USER_KEY, USER_NAMES
from ..config import RankingProfile, RetrievalSettings
from ..embed import Embedder, embed_query
from ..store.driver import Store
from ..store.vector import to_cosine
from ..types import (
    EvidenceEpisode,
    PathStep,
    PlannedTimeRange,
    SearchInput,
    SearchPlan,
    SearchResponse,
    SearchResult,
    normalize_name,
)
from .access import AccessRecorder
from .evidence import Filters, SeedReport, widen
from .expand import Expander, RelationScope
from .plan import PlanHints, QueryPlanner, RulePlanner
from .rank import (
    Scorer,
    Similarity,
    SubjectScope,
    choose_seeds,
    dialogue_query,
    rank_candidates,
    reached_similarity,
    time_range_verdict,
    turn_similarities,
)
from .seeds import SeedFinder
from .settle import freeze_once
from .turnvectors import TurnCache, TurnCopy
from .vectors import GroupVectors, VectorCache, unit

EVIDENCE_PER_MEMORY = 3


@dataclass
class _Hit:
    """A result under construction."""

    id: str
    kind: str
    node: dict
    similarity: float
    distance: int
    path: list[PathStep] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    episodes: list[dict] = field(default_factory=list)
    score: float = 0.0
    parts: object = None


@dataclass
class _TurnContext:
    """What the walk needs to read a memory with its turns: the seeds' turns' similarities in
    context and the speakers the query names."""

    in_context: dict[str, float]
    speakers: list[str]
    copy: TurnCopy | None = None  # the group's turn vectors, when held: the cosines of source turns


class _Clock:
    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - self.last) * 1000, 2)
        self.last = now

    def timed(self, name: str, fn, *args):
        """``fn(*args)``, its own duration recorded as ``name`` (work that overlaps the laps)."""
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.laps[name] = round((time.perf_counter() - start) * 1000, 2)

    def total(self) -> dict[str, float]:
        return {**self.laps, "total": round((time.perf_counter() - self.start) * 1000, 2)}


def _without(query: str, scope_words: list[str], why: list[str]) -> str:
    """What the query looks for: the query without the parts that only scope it in time (a
    rolling window), which are neither embedded nor matched as words. A query that is nothing
    but a window ("最近三天") looks for everything in it: it is searched as it is."""
    sought = query
    for part in scope_words:
        sought = sought.replace(part, " ")
    sought = " ".join(sought.split())
    if not scope_words or not sought.strip(" ?？.。!！,，"):
        return query
    why.append(
        f"{', '.join(map(repr, scope_words))}: a rolling window, it scopes the search in time and is not searched for"
    )
    return sought


def subject_key(name: str | None) -> str | None:
    """The normalised subject name a filter matches: 我/I/user → "@user", 你/you → "@agent"."""
    if name is None:
        return None
    key = normalize_name(name)
    if key in USER_NAMES:
        return USER_KEY
    if key in AGENT_NAMES:
        return AGENT_KEY
    return key


def _iso(value: datetime, tz) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=tz)).isoformat()


class Retriever:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: RetrievalSettings,
        planner: QueryPlanner | None = None,
        recorder: AccessRecorder | None = None,
    ):
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.planner = planner or RulePlanner()
        self.seeds = SeedFinder(store, settings)
        self.expander = Expander(store, settings.limits)
        self.recorder = recorder or AccessRecorder(store)
        self.vectors = VectorCache(
            store,
            settings.limits.vector_cache_limit,
            settings.limits.vector_cache_mb,
            int(getattr(embedder, "dimension", 0) or 0),
        )
        self.turn_vectors = TurnCache(
            store,
            settings.limits.vector_cache_limit,
            settings.limits.vector_cache_mb,
            int(getattr(embedder, "dimension", 0) or 0),
        )
        # the all-time seed search of a query with a time expression runs beside the in-range one
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="graphmem-seeds")
        # query embeddings (their own pool: a seed search waits for one, and must not wait behind itself)
        self._embedding = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-query-embed")

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._embedding.shutdown(wait=True)
        self.vectors.close()
        self.turn_vectors.close()
        self.recorder.close()

    # --- the search ---------------------------------------------------------------------
    def search(
        self, group_id: str, inp: SearchInput, reference_time: datetime, mode: str | None = None
    ) -> SearchResponse:
        clock = _Clock()
        limits = self.settings.limits
        profile = self.settings.profile(inp.profile)
        mode = mode or inp.mode
        hints: PlanHints = self.planner.plan(inp.query, reference_time)
        why = list(hints.why)
        hard, seed_filters, planned_range = self._filters(inp, hints, reference_time, why, profile)
        sought = _without(hints.sought or inp.query, hints.scope_words, why)
        clock.lap("plan")

        # the probe does not need the embedding: it runs while the query is embedded
        # counted far enough to tell whether the process may hold the group's vectors (not for a
        # group seen above that a moment ago: counting costs more the further it goes)
        holdable = self.vectors.enabled and not self.vectors.too_large(group_id)
        cap = max(limits.exact_scan_limit, limits.vector_cache_limit if holdable else 0)
        probing = self.store.submit(
            "search_probe", group_id=group_id, cap=cap + 1, cache_limit=limits.vector_cache_limit if holdable else -1
        )
        # the query is embedded on its own thread: the seeds' word queries, which do not need it,
        # go out as soon as the probe is back
        if hints.latest and profile.conversation.latest_turn_weight > 0:
            latest = _without(hints.latest, hints.scope_words, [])
            embedding_job = self._embedding.submit(
                clock.timed, "embed", self._dialogue_embedding, sought, latest, profile
            )
            why.append(f"its latest user line weighs {profile.conversation.latest_turn_weight:g} of the query")
        else:
            embedding_job = self._embedding.submit(
                clock.timed, "embed", lambda: embed_query(self.embedder, [sought])[0]
            )

        probe = probing.result()[0]
        vectors = self.vectors.get(group_id, probe["memories"], probe["latest"]) if holdable else None
        # a group above the limit: a copy for the cosines of the memories the queries name
        lookup = self.vectors.lookup(group_id) if vectors is None and self.vectors.too_large(group_id) else None
        turn_vectors = (
            self.turn_vectors.get(group_id, probe["episodes"], probe["episodes_latest"])
            if holdable and probe["episodes"]
            else None
        )
        # the seed steps read counts capped where their strategies change
        memories, episodes = (min(probe[n], limits.exact_scan_limit + 1) for n in ("memories", "episodes"))
        k = max(limits.seed_k, inp.max_results)

        def find(filters):
            return self.seeds.find(
                group_id,
                sought,
                embedding_job,
                filters,
                k,
                memories,
                episodes,
                hard.types is None,
                profile,
                vectors,
                lookup,
                turn_vectors,
            )

        unknown_share = getattr(self.embedder, "unknown_share", None)
        similarity = Similarity(sought, profile, unread=unknown_share(sought) if unknown_share else None)
        scorer = Scorer(profile, self.settings.decay, reference_time)
        kept = profile.time_range.outside
        soft = planned_range is not None and planned_range.source == "query"
        wide = self._pool.submit(find, hard) if soft else None
        report, elsewhere = find(seed_filters), set()
        embedding = embedding_job.result()
        if wide is not None:
            everywhere = wide.result()
            inside, outside = self._best(report, similarity), self._best(everywhere, similarity)
            verdict = time_range_verdict(inside, outside, bool(report.candidates), profile)
            if verdict == "empty":
                why.append("nothing in that time range: searched all time")
                planned_range, report = None, everywhere
            elif verdict == "closer":
                why.append(
                    f"a match outside that time range is far closer ({outside:.2f} against "
                    f"{inside:.2f}): searched all time"
                )
                planned_range, report = None, everywhere
            elif verdict == "widen":
                report, elsewhere = widen(report, everywhere)
                if elsewhere:
                    why.append(
                        f"{len(elsewhere)} matches outside that time range follow, at {kept:g} x their similarity"
                    )
        clock.lap("seeds")

        in_context = turn_similarities(report.turns, report.speakers, similarity)
        hits = self._select_seeds(report, similarity, k, why, profile.seed_min_similarity, elsewhere, kept, in_context)
        for h in hits.values():
            self._score(h, scorer)
        top1 = max((h.similarity for h in hits.values()), default=0.0)
        depth, mode_used = self._depth(mode, inp.expand_depth, hints, top1, why)
        relation_filters = inp.relation_filters
        if relation_filters is None and hints.relation_filters is not None and depth:
            relation_filters = hints.relation_filters
        turns = _TurnContext(in_context, report.speakers, turn_vectors) if episodes else None
        self._walk(
            group_id,
            embedding,
            hits,
            depth,
            RelationScope.from_filters(relation_filters),
            hard,
            similarity,
            scorer,
            inp.max_results,
            profile,
            vectors if vectors is not None else lookup,
            turns,
            report.about,
        )
        clock.lap("expand")

        ranked = sorted(hits.values(), key=lambda h: (-h.score, h.distance, h.id))
        ranked = self._current_first(group_id, ranked, inp.superseded or self.settings.superseded, why)
        ranked = ranked[: inp.max_results]
        memory_ids = [h.id for h in ranked if h.kind == "memory"]
        evidence: dict[str, list[dict]] = {}
        if episodes and memory_ids:
            for row in self.store.read(
                "search_evidence", group_id=group_id, ids=memory_ids, per_memory=EVIDENCE_PER_MEMORY
            ):
                evidence[row["id"]] = row["evidence"]
        results = [self._result(h, evidence.get(h.id, [])) for h in ranked]
        clock.lap("evidence")

        if memory_ids:
            self.recorder.record(group_id, memory_ids)  # written later, in the background
        why.extend(report.strategy)
        plan = SearchPlan(
            planner=getattr(self.planner, "name", type(self.planner).__name__),
            mode=mode,
            depth=depth,
            relation_filters=[r.value for r in relation_filters] if relation_filters and depth else None,
            time_range=planned_range,
            memory_types=hard.types,
            subject=hard.subject,
            why=why,
            profile=inp.profile,
            weights=scorer.weights,
        )
        response = SearchResponse(
            query=inp.query,
            group_id=group_id,
            mode_used=mode_used,
            plan=plan,
            results=results,
            timings_ms=clock.total(),
        )
        if self.settings.freeze_gc:
            freeze_once()  # the first search has loaded what searching needs (settle.py)
        return response

    # --- steps --------------------------------------------------------------------------
    def _dialogue_embedding(self, sought: str, latest: str, profile: RankingProfile) -> list[float]:
        whole, last = embed_query(self.embedder, [sought, latest])
        return dialogue_query(whole, last, profile)

    @staticmethod
    def _filters(
        inp: SearchInput, hints: PlanHints, reference_time: datetime, why: list[str], profile: RankingProfile
    ) -> tuple[Filters, Filters, PlannedTimeRange | None]:
        """(filters for every result, filters for the seeds, the time range used)."""
        tz = reference_time.tzinfo or UTC
        types = [t.value for t in inp.memory_types] if inp.memory_types else None
        subject = subject_key(inp.subject)
        hard = Filters(include_archived=inp.include_archived, types=types, subject=subject)
        if inp.time_range and (inp.time_range.start or inp.time_range.end):
            start = _iso(inp.time_range.start, tz) if inp.time_range.start else None
            end = _iso(inp.time_range.end, tz) if inp.time_range.end else None
            hard = Filters(inp.include_archived, types, start, end, subject)
            return hard, hard, PlannedTimeRange(start=start, end=end, source="argument")
        if hints.time_range is not None:
            start, end, matched = hints.time_range
            why.append(f"time expression {matched!r}: seeds from {start.date()} to {end.date()} (exclusive)")
            # a turn that tells of what happened in the range is said then or a little after it
            said_end = (end + timedelta(days=profile.time_range.reported_within_days)).isoformat()
            return (
                hard,
                Filters(inp.include_archived, types, start.isoformat(), end.isoformat(), subject, said_end),
                PlannedTimeRange(start=start.isoformat(), end=end.isoformat(), source="query", matched=matched),
            )
        return hard, hard, None

    def _walk(
        self,
        group_id: str,
        embedding: list[float],
        hits: dict[str, _Hit],
        depth: int,
        scope: RelationScope,
        filters: Filters,
        similarity: Similarity,
        scorer: Scorer,
        max_results: int,
        profile: RankingProfile,
        vectors: GroupVectors | None = None,
        turns: _TurnContext | None = None,
        about: SubjectScope | None = None,
    ) -> None:
        """Breadth-first, one query per level, from the best memories of the level before;
        adds what it reaches to ``hits`` with its distance and path. In a group with conversation
        turns (``turns``) a memory reached is read with the turns it was extracted from, as a seed
        is (``rank.reached_similarity``)."""
        frontier_k = min(self.settings.limits.seed_k, max(10, max_results))
        level_hits = list(hits.values())
        for level in range(1, depth + 1):
            frontier = [h for h in sorted(level_hits, key=lambda h: -h.score) if h.kind == "memory"][:frontier_k]
            if not frontier:
                return
            by_id = {h.id: h for h in frontier}
            held = turns is not None and turns.copy is not None
            neighbours = self.expander.level(
                group_id,
                embedding,
                [h.id for h in frontier],
                set(hits),
                scope,
                filters,
                keep=max(self.settings.limits.expand_keep, 3 * max_results),
                profile=profile,
                vectors=vectors,
                with_sources=held,
            )
            level_hits = []
            if held:  # the turns they came from, read from the copy of the group's turns
                sources = self._held_sources(embedding, neighbours, turns.copy)
            else:
                sources = self._sources(group_id, embedding, [n.node["id"] for n in neighbours]) if turns else {}
            for n in neighbours:
                # an explicit edge beats a shared concept; then the best-scored parent
                step = min(
                    n.steps,
                    key=lambda st: (
                        0 if st["edge"] in ("CAUSALITY", "REFERENCE") else 1,
                        -by_id[st["from_id"]].score if st["from_id"] in by_id else 0,
                    ),
                )
                parent = by_id.get(step["from_id"])
                path = (parent.path if parent else []) + [PathStep(to_id=n.node["id"], **step)]
                sim = similarity(n.cosine, n.node.get("text"))
                drawn = sources.get(n.node["id"])
                if drawn:
                    sim = reached_similarity(sim, drawn, turns.in_context, turns.speakers, similarity)
                if about is not None:
                    sim = about.weigh(n.node["id"], sim, from_turns=bool(drawn))
                h = _Hit(id=n.node["id"], kind="memory", node=n.node, similarity=sim, distance=level, path=path)
                self._score(h, scorer)
                hits[h.id] = h
                level_hits.append(h)

    @staticmethod
    def _held_sources(embedding: list[float], neighbours: list, copy: TurnCopy) -> dict[str, list[tuple]]:
        """``_sources`` from the copy of the group's turns: each neighbour's source turns (as the
        walk returned them) that have a vector."""
        pairs = [(n.node["id"], t) for n in neighbours for t in (n.sources or ()) if t in copy.row]
        out: dict[str, list[tuple]] = {}
        for (mid, t), c in zip(pairs, copy.cosine_of(unit(embedding), [t for _, t in pairs])):
            e = copy.episodes[t]
            out.setdefault(mid, []).append((t, c, e.get("speaker"), e.get("content")))
        return out

    def _sources(self, group_id: str, embedding: list[float], ids: list[str]) -> dict[str, list[tuple]]:
        """The turns each memory in ``ids`` was extracted from: (id, cosine, speaker, text)."""
        if not ids:
            return {}
        out: dict[str, list[tuple]] = {}
        rows = self.store.read("search_memory_sources", group_id=group_id, ids=ids, embedding=embedding)[0]["rows"]
        for r in rows:
            e = r["episode"]
            out.setdefault(r["of"], []).append((e["id"], to_cosine(r["score"]), e.get("speaker"), e.get("content")))
        return out

    @staticmethod
    def _best(report: SeedReport, similarity: Similarity) -> float:
        """The best similarity among a seed search's candidates (before context is read)."""
        return max((similarity.of(c) for c in report.candidates), default=0.0)

    def _current_first(self, group_id: str, ranked: list[_Hit], policy: str, why: list[str]) -> list[_Hit]:
        """Superseded memories (``superseded_by`` set): "hide" drops them; "current_first" puts the
        current version of each just before it (read from the graph when the search did not
        reach it), at its score; "keep" leaves the order alone."""
        old = [h for h in ranked if h.kind == "memory" and h.node.get("superseded_by")]
        if not old or policy == "keep":
            return ranked
        if policy == "hide":
            why.append(f"{len(old)} superseded memories left out")
            return [h for h in ranked if not (h.kind == "memory" and h.node.get("superseded_by"))]
        by_id = {h.id: h for h in ranked}
        rows = self.store.read("search_current_of", group_id=group_id, ids=[h.id for h in old])
        current = {r["id"]: r["current"] for r in rows}
        out: list[_Hit] = []
        placed: set[str] = set()
        for h in ranked:
            if h.id in placed:
                continue
            node = current.get(h.id)
            if node is not None and node["id"] not in placed:
                c = by_id.get(node["id"])
                if c is None:
                    step = PathStep(
                        from_id=h.id, to_id=node["id"], edge="SUPERSEDES", relation="current version", direction="in"
                    )
                    c = _Hit(
                        id=node["id"],
                        kind="memory",
                        node=node,
                        similarity=h.similarity,
                        distance=h.distance,
                        path=h.path + [step],
                    )
                    c.parts = h.parts
                    by_id[c.id] = c
                c.score = max(c.score, h.score)
                out.append(c)
                placed.add(c.id)
            out.append(h)
            placed.add(h.id)
        why.append(f"{len(old)} superseded memories follow their current version")
        return out

    @staticmethod
    def _select_seeds(
        report: SeedReport,
        similarity: Similarity,
        k: int,
        why: list[str],
        floor: float,
        outside: set[str] = frozenset(),
        kept: float = 0.0,
        in_context: dict[str, float] | None = None,
    ) -> dict[str, _Hit]:
        """The seeds of the walk as hits at distance 0 (``rank.rank_candidates``, ``rank.choose_seeds``)."""
        scored = rank_candidates(
            report.candidates, report.turns, report.speakers, similarity, outside, kept, in_context
        )
        hits = {}
        for c, sim in choose_seeds(scored, similarity, k, floor, why, report.about):
            hits[c.id] = _Hit(
                id=c.id,
                kind=c.kind,
                node=c.node,
                similarity=sim,
                distance=0,
                sources=list(c.ranks),
                episodes=c.episodes,
            )
        return hits

    def _depth(self, mode: str, expand_depth: int, hints: PlanHints, top1: float, why: list[str]) -> tuple[int, str]:
        limits = self.settings.limits
        cap = max(0, limits.max_expand_depth)
        if mode == "fast":
            why.append("fast mode: direct matches only")
            return 0, "fast"
        if mode == "deep":
            return min(cap, max(1, expand_depth)), "deep"
        if expand_depth == 0:
            why.append("expand_depth 0: direct matches only")
            return 0, "fast"
        if hints.deep:
            return min(cap, expand_depth), "deep"
        if top1 < limits.deep_threshold:
            why.append(f"best similarity {top1:.2f} < {limits.deep_threshold}: deep")
            return min(cap, expand_depth), "deep"
        why.append(f"best similarity {top1:.2f} ≥ {limits.deep_threshold}: direct matches suffice")
        return 0, "fast"

    @staticmethod
    def _score(h: _Hit, scorer: Scorer) -> None:
        node = h.node
        if h.kind == "episode":
            node = {
                "importance": node.get("importance"),
                "memory_type": "EPISODE",
                "occurred_at": node.get("timestamp"),
                "created_at": node.get("timestamp"),
            }
        h.parts = scorer.parts(h.similarity, node, h.distance)
        h.score = scorer.total(h.parts)

    @staticmethod
    def _result(h: _Hit, evidence: list[dict]) -> SearchResult:
        seen, episodes = set(), []
        for e in list(h.episodes) + list(evidence):
            if e.get("id") and e["id"] not in seen:
                seen.add(e["id"])
                episodes.append(EvidenceEpisode(**{k: e.get(k) for k in EvidenceEpisode.model_fields}))
        n = h.node
        if h.kind == "episode":
            return SearchResult(
                kind="episode",
                memory_id=h.id,
                text=n.get("content") or "",
                memory_type="EPISODE",
                importance=float(n.get("importance") or 0.5),
                occurred_at=n.get("timestamp"),
                created_at=n.get("timestamp"),
                status=None,
                score=h.score,
                score_parts=h.parts,
                distance=h.distance,
                path=h.path,
                seed_sources=h.sources,
                evidence=episodes,
            )
        return SearchResult(
            kind="memory",
            memory_id=h.id,
            text=n.get("text") or "",
            memory_type=n["memory_type"],
            importance=float(0.5 if n.get("importance") is None else n["importance"]),
            occurred_at=n.get("occurred_at"),
            created_at=n.get("created_at"),
            status=n.get("status"),
            score=h.score,
            score_parts=h.parts,
            distance=h.distance,
            path=h.path,
            seed_sources=h.sources,
            evidence=episodes,
            superseded_by=n.get("superseded_by"),
            current=not n.get("superseded_by"),
        )
