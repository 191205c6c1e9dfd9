"""The Retriever: plan (``plan.py``) → corpus → seeds (``seeds.py``) → walk (``walk.py``) → score
(``rank.py``) → results (``results.py``).

The corpus: a probe counts the group's memories and turns while the query is embedded and says
whether the process's copies of the group's vectors are current (``held.py``, else
``database.py``). Filters: memory types, subject, archived status and a time range given by the
caller apply to every result; a time range read from the query only chooses the seeds (a cause
often precedes its effect), and is dropped when nothing falls inside it or a match outside is far
closer; with ``time_range.outside`` > 0 ("recall") the matches outside follow at that share.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo
from itertools import chain, zip_longest
from typing import Any, Literal, TypedDict

from ..access import AccessRecorder
from ..config import RankingProfile, RetrievalSettings
from ..cues import asked_part, asked_words, description_words, question_parts
from ..embed import Embedder, embed_query, unknown_share
from ..lang import person_key
from ..lexicon.roles import WHAT_TOPICS, roles_in, unnamed_in
from ..settle import freeze_once
from ..stopwatch import Clock
from ..store.driver import Store
from ..store.group_facts import GroupFacts
from ..store.vector_copy import VectorCache
from ..textsim import Fit
from ..timeparse import is_rolling_window
from ..types import PlannedAsOf, PlannedTimeRange, SearchInput, SearchPlan, SearchResponse, normalize_name
from .context import Filters, SearchContext
from .corpus import Corpus, RelationScope
from .database import DatabaseMemories, DatabaseTurns, Sent
from .evidence import Hit, SeedReport, widen
from .held import HeldMemories, HeldTurns
from .plan import PlanHints, QueryPlanner, RulePlanner, dialogue_turns
from .rank import (
    Paths,
    Ranking,
    Scorer,
    Similarity,
    dialogue_query,
    score_order,
    seed_similarities,
    time_range_verdict,
    turn_similarities,
)
from .results import as_results, current_first, newer_first, one_slot_per_turn
from .seeds import find_seeds, matched_by
from .turnvectors import TurnCache
from .walk import walk

# a turn telling of what happened in a time range read from the query may be said this many days
# after it (what happened last weekend is told on Monday)
REPORTED_WITHIN_DAYS = 7.0
UNREACHED = 1  # the hops of a direct match that is no seed: as near the seeds as the walk's first step
Mode = Literal["fast", "deep"]


def seed_hit(c: Any, similarity: float, ranking: Ranking, hops: int = 0) -> Hit:
    """A direct match as a scored hit at distance 0 whose distance part counts ``hops`` (UNREACHED: no seed)."""
    hit = Hit(c.id, c.kind, c.node, similarity, 0, sources=list(c.ranks), episodes=c.episodes, hops=hops or None)
    return hit.scored(ranking.scorer).at_least(ranking.as_turn(c.id, hops))


class Meant(TypedDict, total=False):
    meant: frozenset[str]  # the people a query means by a role (rank.Paths)
    theirs: frozenset[str]  # the memories about them


@dataclass
class Plan:
    """What a search looks for and within what: the filters of every result (``hard``), of the
    seeds (with a time range read from the query), the time range used, and why."""

    profile: RankingProfile
    hints: PlanHints
    sought: str
    hard: Filters
    seeds: Filters
    time_range: PlannedTimeRange | None
    why: list[str]
    as_of: PlannedAsOf | None = None


def without(query: str, scope_words: list[str], why: list[str]) -> str:
    """The query without what only scopes it in time (a rolling window, the past time of a
    question about a state); a query that is nothing but a window ("最近三天") is searched as it is."""
    sought = query
    for part in scope_words:
        sought = sought.replace(part, " ")
    sought = " ".join(sought.split())
    if not scope_words or not sought.strip(" ?？.。!！,，"):
        return query
    kind = "a rolling window" if any(is_rolling_window(part) for part in scope_words) else "a past time"
    why.append(f"{', '.join(map(repr, scope_words))}: {kind}, it scopes the search in time and is not searched for")
    return sought


def _iso(value: datetime, tz: tzinfo) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=tz)).isoformat()


def _moment(start: datetime, end: datetime) -> str:
    """A range's ends as the plan says them: dates, or times where the range is part of a day
    ("the evening of 7 July": 2025-07-07 17:00 to 21:00)."""
    if start.time() == end.time() == datetime.min.time():
        return f"{start.date()} to {end.date()}"
    if start.date() == end.date():
        return f"{start.date()} {start:%H:%M} to {end:%H:%M}"
    return f"{start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M}"


def plan_search(inp: SearchInput, hints: PlanHints, reference_time: datetime, profile: RankingProfile) -> Plan:
    """The filters of every result and of the seeds, the time range used, what is sought."""
    tz, why = reference_time.tzinfo or UTC, list(hints.why)
    types = [t.value for t in inp.memory_types] if inp.memory_types else None
    subject = (person_key(inp.subject) or normalize_name(inp.subject)) if inp.subject is not None else None
    hard = Filters(include_archived=inp.include_archived, types=types, subject=subject)
    as_of = None
    if inp.as_of is not None:
        at = _iso(inp.as_of, tz)
        hard, as_of = replace(hard, as_of=at, as_of_end=at), PlannedAsOf(start=at, end=at, source="argument")
    elif hints.as_of is not None:  # a question about what held at a past time (plan.RulePlanner)
        start_at, end_at, matched = hints.as_of
        last = (end_at - timedelta(microseconds=1)).isoformat()
        hard = replace(hard, as_of=start_at.isoformat(), as_of_end=last)
        as_of = PlannedAsOf(start=start_at.isoformat(), end=last, source="query", matched=matched)
        why.append(
            f"{matched!r} asks what held then: the memories current from {start_at.date()} to "
            f"{end_at.date()} (exclusive), superseded ones included, later ones left out"
        )
    plan = Plan(profile, hints, inp.query, hard, hard, None, why, as_of)
    if inp.time_range and (inp.time_range.start or inp.time_range.end):
        start = _iso(inp.time_range.start, tz) if inp.time_range.start else None
        end = _iso(inp.time_range.end, tz) if inp.time_range.end else None
        plan.hard = plan.seeds = replace(hard, start=start, end=end)
        plan.time_range = PlannedTimeRange(start=start, end=end, source="argument")
    elif hints.time_range is not None:
        start_at, end_at, matched = hints.time_range
        why.append(f"time expression {matched!r}: seeds from {_moment(start_at, end_at)} (exclusive)")
        said_end = (end_at + timedelta(days=REPORTED_WITHIN_DAYS)).isoformat()
        plan.seeds = replace(hard, start=start_at.isoformat(), end=end_at.isoformat(), said_end=said_end)
        plan.time_range = PlannedTimeRange(start=plan.seeds.start, end=plan.seeds.end, source="query", matched=matched)
    plan.sought = without(hints.sought or inp.query, hints.scope_words, why)
    return plan


class Retriever:
    def __init__(
        self, store: Store, embedder: Embedder, settings: RetrievalSettings, planner: QueryPlanner | None = None
    ):
        self.store, self.embedder, self.settings = store, embedder, settings
        self.planner = planner or RulePlanner()
        self.recorder = AccessRecorder(store)
        self.facts = GroupFacts(store)
        limits, dimension = settings.limits, int(embedder.dimension or 0)
        self.vectors = VectorCache(store, limits.vector_cache_limit, limits.vector_cache_mb, dimension)
        self.turn_vectors = TurnCache(store, limits.vector_cache_limit, limits.vector_cache_mb, dimension)
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

    def search(self, group_id: str, inp: SearchInput, reference_time: datetime) -> SearchResponse:
        """One search; a query of several questions (``cues.question_parts``; not a dialogue) question by
        question, their results taken in turn: one embedding of them all finds each less well."""
        parts = question_parts(inp.query) if dialogue_turns(inp.query) is None else [inp.query]
        if len(parts) < 2:
            return self._search(group_id, inp, reference_time)
        answers = [self._search(group_id, inp.model_copy(update={"query": q}), reference_time, False) for q in parts]
        results, seen = [], set()
        for r in chain.from_iterable(zip_longest(*(a.results for a in answers))):
            if r is not None and (r.kind, r.memory_id) not in seen:
                seen.add((r.kind, r.memory_id))
                results.append(r)
        results = results[: inp.max_results]
        self._record(group_id, [r.memory_id for r in results if r.kind == "memory"])
        why = [f"a query of {len(parts)} questions: each searched on its own, their results taken in turn"]
        why += [f"question {n} ({a.query!r}): {w}" for n, a in enumerate(answers, 1) for w in a.plan.why]
        timings = {k: round(sum(a.timings_ms.get(k, 0.0) for a in answers), 2) for k in answers[0].timings_ms}
        mode: Mode = "deep" if any(a.mode_used == "deep" for a in answers) else "fast"
        plan = answers[0].plan.model_copy(update={"why": why})
        return SearchResponse(
            query=inp.query, group_id=group_id, mode_used=mode, plan=plan, results=results, timings_ms=timings
        )

    def _record(self, group_id: str, memory_ids: list[str]) -> None:
        if memory_ids and self.settings.record_access:
            self.recorder.record(group_id, memory_ids)  # written later, in the background

    def _search(self, group_id: str, inp: SearchInput, reference_time: datetime, record: bool = True) -> SearchResponse:
        clock, mode = Clock(), inp.mode
        plan = plan_search(
            inp, self.planner.plan(inp.query, reference_time), reference_time, self.settings.profile(inp.profile)
        )
        clock.lap("plan")
        began = clock.last
        ctx, corpus, sent = self._open(group_id, inp, plan, clock)
        unread = unknown_share(self.embedder)
        similarity = Similarity(ctx.query, plan.profile, unread=unread(ctx.query) if unread else None)
        report, elsewhere = self._seeds(ctx, corpus, plan, similarity, sent)
        clock.lap("seeds")
        clock.split("seeds", "embed", began)  # the query's embedding runs beside the seeds' first reads
        scorer = Scorer(plan.profile, self.settings.decay, reference_time)
        in_context = turn_similarities(report.turns, report.speakers, similarity)
        paths = Paths(plan.sought, plan.hints.asks, self.settings.limits.hub_fanout, **self._meant(ctx))
        said = {tid: t.said_at for tid, t in report.turns.items()}
        ranking = Ranking(similarity, scorer, in_context, report.speakers, report.about, paths, said)
        scored = ranking.candidates(report.candidates, elsewhere, plan.profile.time_range.outside)
        chosen = ranking.choose(scored, ctx.k, plan.profile.seed_min_similarity, plan.why)
        hits = {c.id: seed_hit(c, sim, ranking) for c, sim in chosen}  # the walk's seeds
        clock.lap("rank")
        top1 = max((h.similarity for h in hits.values()), default=0.0)
        depth, mode_used = self._depth(mode, inp.expand_depth, plan.hints, top1, plan.why)
        ranking = self._described(ctx, corpus, ranking, hits) if depth and paths.described else ranking
        relations = plan.hints.relation_filters if inp.relation_filters is None and depth else inp.relation_filters
        # the walk passes the filters of every result: a time range read from the query chose the seeds only
        everywhere, scope = replace(ctx, filters=plan.hard), RelationScope.from_filters(relations)
        related = {c.id for c, _ in scored if c.kind == "memory"}
        walk(everywhere, corpus, hits, depth, scope, ranking, self.settings.limits, related)
        clock.lap("expand")
        ranked = self._filling(scored, hits, inp.max_results, ranking, plan.why)
        evidence: dict[str, list[dict]] = {}  # each memory's turns, read once
        ranked = self._in_order(group_id, ranked, inp, plan, bool(ctx.episodes), evidence)
        results = as_results(self.store, group_id, ranked[: inp.max_results], bool(ctx.episodes), evidence)
        clock.lap("evidence")
        if record:
            self._record(group_id, [r.memory_id for r in results if r.kind == "memory"])
        plan.why.extend(report.strategy)
        searched = SearchPlan(
            planner=getattr(self.planner, "name", type(self.planner).__name__),
            mode=mode,
            depth=depth,
            relation_filters=[r.value for r in relations] if relations and depth else None,
            time_range=plan.time_range,
            memory_types=plan.hard.types,
            subject=plan.hard.subject,
            as_of=plan.as_of,
            why=plan.why,
            profile=inp.profile,
            weights=scorer.weights,
        )
        clock.lap("total", since=clock.start)
        laps = dict(clock.laps)
        response = SearchResponse(
            query=inp.query, group_id=group_id, mode_used=mode_used, plan=searched, results=results, timings_ms=laps
        )
        if self.settings.freeze_gc:
            freeze_once()  # the first search has loaded what searching needs (settle.py)
        return response

    def _in_order(
        self, group_id: str, ranked: list, inp: SearchInput, plan: Plan, turns: bool, evidence: dict[str, list[dict]]
    ) -> list:
        """The ranked results in the order shown: one slot per turn, the current before what it
        replaced, the newer first for a question about now or as of a time."""
        if turns:
            ranked = one_slot_per_turn(self.store, group_id, ranked, inp.max_results, plan.why, evidence)
        # as of a time, a memory superseded since is what was current then: nothing goes before it
        policy = "keep" if plan.as_of is not None else inp.superseded or self.settings.superseded
        ranked = current_first(self.store, group_id, ranked, policy, plan.why)
        if (then := plan.as_of is not None) or plan.hints.now:  # after an as-of moment nothing was searched
            ranked = newer_first(self.store, group_id, ranked, inp.max_results, turns, plan.why, then)
        return ranked

    def _open(
        self, group_id: str, inp: SearchInput, plan: Plan, clock: Clock
    ) -> tuple[SearchContext, Corpus, Sent | None]:
        """The probe runs while the query is embedded; it counts far enough to tell whether the
        process may hold the group's vectors (not for a group seen above that a moment ago:
        counting costs more the further it goes). With a copy of them held, the memories' word and
        subject queries as that copy asks them go along, used when the probe finds it current."""
        limits = self.settings.limits
        holdable = self.vectors.enabled and not self.vectors.too_large(group_id)
        cache_limit = limits.vector_cache_limit if holdable else -1
        cap, k = max(limits.exact_scan_limit, cache_limit), max(limits.seed_k, inp.max_results)
        embedding, top = self._embed(plan, clock), limits.exact_scan_limit + 1

        def context(memories: int, episodes: int) -> SearchContext:  # counts capped where the seed steps change
            args = (embedding, k, inp.max_results, min(memories, top), min(episodes, top))
            return SearchContext(group_id, plan.sought, plan.seeds, plan.profile, *args)

        held = self.vectors.peek(group_id) if holdable else None
        guess = context(held.count if held is not None else 0, 0)
        memories = HeldMemories(self.store, self.facts, limits, held) if held is not None else None
        reads = memories.match_reads(guess, *matched_by(guess, limits.subject_cap)) if memories else None
        name, params = (f"search_probe+{reads[0]}", reads[1]) if reads else ("search_probe", {})
        probing = self.store.submit(
            name, **{**params, "group_id": group_id, "cap": cap + 1, "cache_limit": cache_limit}
        )
        probe = probing.result()[0]
        ctx, corpus = context(probe["memories"], probe["episodes"]), self._corpus(group_id, probe, holdable)
        current = isinstance(corpus.memories, HeldMemories) and ctx.memories == guess.memories
        return ctx, corpus, ((*reads, probing) if reads and current else None)

    def _corpus(self, group_id: str, probe: dict[str, Any], holdable: bool) -> Corpus:
        """The held copies of the group's vectors when current (a large group's lookup copy), else the database."""
        store, facts, limits = self.store, self.facts, self.settings.limits
        vectors = self.vectors.get(group_id, probe["memories"], probe["latest"]) if holdable else None
        if vectors is None and self.vectors.too_large(group_id):
            vectors = self.vectors.lookup(group_id)
        memories = (
            DatabaseMemories(store, facts, limits) if vectors is None else HeldMemories(store, facts, limits, vectors)
        )
        turns = self.turn_vectors.get(group_id, probe["episodes"], probe["episodes_latest"]) if holdable else None
        if turns is None:
            return Corpus(memories, DatabaseTurns(store, facts, limits, memories))
        return Corpus(memories, HeldTurns(store, facts, limits, memories, turns))

    def _embed(self, plan: Plan, clock: Clock) -> Future[list[float]]:
        """The query's vector, on its own thread; a dialogue's latest user line weighs more."""
        hints, w = plan.hints, plan.profile.conversation.latest_turn_weight
        if hints.latest and w > 0:
            latest = without(hints.latest, hints.scope_words, [])
            plan.why.append(f"its latest user line weighs {w:g} of the query")
            return self._embedding.submit(clock.timed, "embed", self._dialogue, plan.sought, latest, plan.profile)
        return self._embedding.submit(clock.timed, "embed", lambda: embed_query(self.embedder, [plan.sought])[0])

    def _dialogue(self, sought: str, latest: str, profile: RankingProfile) -> list[float]:
        whole, last = embed_query(self.embedder, [sought, latest])
        return dialogue_query(whole, last, profile)

    def _seeds(
        self, ctx: SearchContext, corpus: Corpus, plan: Plan, similarity: Similarity, sent: Sent | None = None
    ) -> tuple[SeedReport, set[str]]:
        """The seeds' evidence, and the ids found only outside a time range read from the query
        (searched beside it, all time, and judged by ``rank.time_range_verdict``). ``sent``: the
        memories' word and subject queries of ``ctx``, sent with the probe."""
        limits = self.settings.limits

        def find(at: SearchContext, sent: Sent | None = None) -> SeedReport:
            return find_seeds(at, corpus, limits.subject_cap, limits.exact_scan_limit, sent)

        soft = plan.time_range is not None and plan.time_range.source == "query"
        wide = self._pool.submit(find, replace(ctx, filters=plan.hard)) if soft else None
        report = find(ctx, sent)
        ctx.vector()  # (waited for in an empty group too: the search leaves no work behind)
        if not report.candidates and plan.as_of is not None and plan.as_of.source == "query":
            # a past time read from the question, and nothing known to hold then: as if unasked
            plan.why.append("nothing known to hold at that time: searched what holds now")
            plan.hard = replace(plan.hard, as_of=None, as_of_end=None)
            plan.seeds, plan.as_of = replace(plan.seeds, as_of=None, as_of_end=None), None
            report = find(replace(ctx, filters=plan.seeds))
        if wide is None:
            return report, set()
        everywhere = wide.result()
        inside, outside = best_seed(report, similarity), best_seed(everywhere, similarity)
        verdict = time_range_verdict(inside, outside, bool(report.candidates), plan.profile)
        if verdict == "keep":
            return report, set()
        if verdict == "widen":
            report, elsewhere = widen(report, everywhere)
            if elsewhere:
                kept = plan.profile.time_range.outside
                plan.why.append(
                    f"{len(elsewhere)} matches outside that time range follow, at {kept:g} x their similarity"
                )
            return report, elsewhere
        closer = f"a match outside that time range is far closer ({outside:.2f} against {inside:.2f})"
        plan.why.append(f"{'nothing in that time range' if verdict == 'empty' else closer}: searched all time")
        plan.time_range = None
        return everywhere, set()

    def _described(self, ctx: SearchContext, corpus: Corpus, ranking: Ranking, hits: dict[str, Hit]) -> Ranking:
        """``ranking`` whose walk starts from the direct match that best fits (``rank.Fit``) the words by which the
        question describes someone (我借钱的那个人, "the guy I lent money to"), though another matches the whole
        question better, and with what it asks of them (``cues.asked_part``; ``walk.answer_described``)."""
        said, w = ranking.paths.described or "", ranking.similarity.weight
        ask = asked_part(ranking.paths.query, said)
        vectors = [Future[list[float]]() for _ in range(2)]
        for f, v in zip(vectors, embed_query(self.embedder, [said] if ask is None else [said, ask])):
            f.set_result(v)
        rows: list[dict[str, Any]] = [{"memory": {"id": h.id}} for h in hits.values() if h.kind == "memory"]
        corpus.memories.fill_cosines(replace(ctx, embedding=vectors[0]), rows)
        described = Fit(vectors[0], description_words(said), w)
        scored = {r["memory"]["id"]: r["score"] for r in rows if r.get("score") is not None}
        texts = {i: hits[i].node.get("text") or "" for i in scored}
        fit = {i: described.of(score, texts[i]) for i, score in scored.items() if described.says_some(texts[i])}
        anchor = max(fit, key=fit.__getitem__) if fit else None
        asked = Fit(vectors[1], asked_words(ask), w, description_words(said)) if ask is not None else None
        return replace(ranking, paths=replace(ranking.paths, anchor=anchor), asked=asked)

    def _meant(self, ctx: SearchContext) -> Meant:
        """The people the query means by a role it says (家教, my son's tutor, the neighbour), and the memories about
        them (and about the speaker's one in the role who has no name)."""
        if not (roles := roles_in(ctx.query)):
            return {"meant": frozenset()}
        unnamed = unnamed_in(ctx.query, roles)
        rows = self.store.read(
            "search_people_meant", group_id=ctx.group_id, roles=roles, identity=WHAT_TOPICS, unnamed=unnamed
        )
        return {"meant": frozenset(n.casefold() for n in rows[0]["names"] if n), "theirs": frozenset(rows[0]["theirs"])}

    @staticmethod
    def _filling(
        scored: list[tuple[Any, float]], hits: dict[str, Hit], k: int, ranking: Ranking, why: list[str]
    ) -> list[Hit]:
        """The hits, best first, and the direct matches below the seeds' floor: those follow every seed and every
        memory the walk reached by strong steps alone (rank.Paths: a trip of months ago of the person the question
        names goes before a weak match about something else), and go before what the walk reached with a lower
        score: a search returns what it was asked for, and a weak path does not push a closer direct match out."""
        key = lambda h: (-score_order(h.score), h.distance, h.id)  # noqa: E731
        direct = {c.id: seed_hit(c, sim, ranking, UNREACHED) for c, sim in scored if c.id not in hits}
        ranked = sorted(hits.values(), key=key)
        seeds = max((i + 1 for i, h in enumerate(ranked) if h.distance == 0 or h.hops == 0), default=0)
        rest = sorted(direct.values(), key=key)
        ranked = ranked[:seeds] + sorted(ranked[seeds:] + rest, key=key)
        if shown := sum(h.id not in hits for h in ranked[:k]):
            why.append(f"{shown} weaker direct {'match fills' if shown == 1 else 'matches fill'} the results asked for")
        return ranked

    def _depth(self, mode: str, expand_depth: int, hints: PlanHints, top1: float, why: list[str]) -> tuple[int, Mode]:
        limits = self.settings.limits
        cap, threshold = max(0, limits.max_expand_depth), limits.deep_threshold
        if mode == "fast" or (mode != "deep" and expand_depth == 0):
            why.append("fast mode: direct matches only" if mode == "fast" else "expand_depth 0: direct matches only")
            return 0, "fast"
        if mode == "deep":
            return min(cap, max(1, expand_depth)), "deep"
        if hints.deep:
            return min(cap, expand_depth), "deep"
        if top1 < threshold:
            why.append(f"best similarity {compared(top1, 'is below', threshold)} threshold: deep")
            return min(cap, expand_depth), "deep"
        why.append(f"best similarity {compared(top1, 'reaches', threshold)} threshold: direct matches suffice")
        return 0, "fast"


def compared(value: float, verb: str, threshold: float) -> str:
    """ "0.70 is below the 0.75": both numbers with as many decimals (2 to 4) as it takes for
    them to differ when they do, so that rounding never shows "0.70 is below the 0.70"."""
    for places in (2, 3, 4):
        a, b = f"{value:.{places}f}", f"{threshold:.{places}f}"
        if a != b or value == threshold:
            break
    return f"{a} {verb} the {b}"


def best_seed(report: SeedReport, similarity: Similarity) -> float:
    """The best similarity among a report's seeds as the ranking reads them (a turn in context, a memory drawn
    from turns mostly by them, not by its own short text): what a time range read from the query is judged by."""
    in_context = turn_similarities(report.turns, report.speakers, similarity)
    return max(seed_similarities(report.candidates, in_context, similarity)[0].values(), default=0.0)
