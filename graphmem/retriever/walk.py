"""The walk: from the seeds through the graph, breadth-first, one level per round trip.

A hop goes from a memory to another (cypher ``search_expand``) along a CAUSALITY or REFERENCE
edge either way, or through a shared Subject, Topic, Object or Value (a concept linked to more
than ``limits.hub_degree_cap`` memories is not walked through; one linked to more than
``limits.hub_fanout`` — the user, a frequent topic — is a hub, crossed only to the search's
direct matches, at most ``hub_fanout`` of them: the walk follows what relates to the question,
not everything the user ever said). Three choices, each made in one place here: the frontier
(the best memories of the level before); the edges (``RelationScope``: with relation filters,
only the listed CAUSALITY/REFERENCE relations and no concept); how a reached memory is scored
(``reach``: as a seed is, read with the turns it was extracted from, carried along a strong
step, ``rank.Paths``). A direct match comes back when a path ranks it higher (a cause the
question's words matched weakly, reached from its effect). Each level keeps its best
``limits.expand_keep`` (at least 3 × max_results): the closely linked first, then by
α·cosine + β·importance.
"""

from __future__ import annotations

from dataclasses import replace

from ..config import SearchLimits
from ..cues import asks_only_name
from ..types import PathStep
from .context import SearchContext
from .corpus import Corpus, Neighbour, RelationScope, Source
from .evidence import Hit
from .rank import PERSONS, Ranking, score_order

EXPLICIT = {"CAUSALITY": 0, "REFERENCE": 1}  # memory-to-memory edges: a step along one beats a shared concept
LIFT_MIN = 1e-4  # a memory found before comes back from the walk when a path lifts its similarity more than this


def walk(
    ctx: SearchContext,
    corpus: Corpus,
    hits: dict[str, Hit],
    depth: int,
    scope: RelationScope,
    ranking: Ranking,
    limits: SearchLimits,
    related: set[str] | frozenset[str] = frozenset(),
) -> None:
    """Adds what the walk reaches from ``hits`` (the seeds), ``depth`` levels deep, to ``hits``.
    ``related``: the search's direct matches, the only memories a hub is crossed to."""
    frontier = min(limits.seed_k, max(10, ctx.max_results))
    keep = max(limits.expand_keep, 3 * ctx.max_results)
    level = list(hits.values())
    for distance in range(1, depth + 1):
        ranked = sorted(level, key=lambda h: (-score_order(h.score), h.id))
        chosen = [h for h in ranked if h.kind == "memory"][:frontier]
        if not chosen:
            break
        parents = {h.id: h for h in chosen}  # best first: at distance 1 the first is the anchor (rank.Paths)
        parents = ranking.paths.anchored(parents) if distance == 1 else parents
        with_sources = corpus.turns.with_sources and ctx.episodes > 0
        seen = {h.id for h in hits.values() if h.distance > 0 and h.id not in parents}
        neighbours = corpus.memories.expand(ctx, list(parents), seen, scope, keep, with_sources, related)
        drawn = corpus.turns.reached(ctx, neighbours) if ctx.episodes else {}
        level = []
        for n in neighbours:
            known = hits.get(n.node["id"])
            h = reach(n, distance, parents, drawn.get(n.node["id"], []), ranking, known)
            if h is not None and (known is None or h.similarity > known.similarity + LIFT_MIN):
                if known is not None:  # a direct match a path ranks higher: what found it stays
                    h.sources, h.episodes = known.sources, known.episodes
                hits[h.id] = h
                level.append(h)
    answer_described(ctx, corpus, hits, ranking)
    answer_meant(hits, ranking)


def reach(
    n: Neighbour, distance: int, parents: dict[str, Hit], drawn: list[Source], ranking: Ranking, known: Hit | None
) -> Hit | None:
    """A memory the walk reached, scored along the step that ranks it highest (among equals a
    link before a concept, a cause first); None when it was reached only from itself."""
    if known is not None:
        own = known.similarity
    else:
        own = ranking.similarity(n.cosine, n.node.get("text"))
        if drawn:
            own = ranking.reached(own, drawn)
        if ranking.about is not None:
            own = ranking.about.weigh(n.node["id"], own, from_turns=bool(drawn))
    best: Hit | None = None
    anchor = next(iter(parents)) if distance == 1 else None  # whom a question that describes someone means
    direct = known is not None and known.distance == 0
    twice = bool(ranking.paths.described)  # found by what it says and by whom (Paths.carried)
    for st in sorted(n.steps, key=lambda st: EXPLICIT.get(st["edge"], 2)):
        parent = parents.get(st["from_id"])
        if parent is None or parent.id == n.node["id"]:
            continue
        anchored = st["from_id"] == anchor
        strong = ranking.paths.strong(st, anchored)
        similarity = ranking.paths.carried(own, parent.similarity, strong, anchored and direct, st.get("via") or "")
        hops = (parent.distance if parent.hops is None else parent.hops) + (0 if strong else 1)
        step = PathStep(to_id=n.node["id"], **{k: v for k, v in st.items() if k != "degree"})
        hit = Hit(n.node["id"], "memory", n.node, similarity, distance, parent.path + [step], hops=hops, own=own)
        hit.scored(ranking.scorer)
        if similarity > own and ranking.scorer.weights["similarity"] > 0 and not (anchored and direct and twice):
            # what it borrowed lifts it up to where it came from, not above: above, only on its own similarity
            alone = Hit(n.node["id"], "memory", n.node, own, distance, hops=hops).scored(ranking.scorer)
            hit.score = min(hit.score, max(parent.score, alone.score))
        if best is None or hit.score > best.score:
            best = hit
    return best


ANSWER_STEP = 1e-6  # the described one's facts are set apart in the order of the ask by this much


def answer_described(ctx: SearchContext, corpus: Corpus, hits: dict[str, Hit], ranking: Ranking) -> None:
    """那个61岁的人在哪里工作？ is answered by the description's match, which says who that is (the anchor), and by
    the fact reached through them (a shared subject, object or value: not a verb, the user or the agent) that best
    fits what is asked (``textsim.Fit``; the uncle's work, not his e-mail, which shares as many of the question's
    words), both first; the answer before the anchor when the question names them too ("Tom, the one who …")."""
    anchor, asked, paths = hits.get(ranking.paths.anchor or ""), ranking.asked, ranking.paths
    via = {h.id: (h.path[0].via or "").casefold().strip() for h in hits.values() if anchor and len(h.path) == 1}
    # one step from the anchor through its person: reached from the anchor, or through the same node from
    # another of theirs (the walk keeps one path a memory: 李晓梅's phone, reached from 李晓梅是我的下属)
    at = getattr(anchor, "id", None)
    through = {v for i, v in via.items() if hits[i].path[0].from_id == at and v}
    led = [hits[i] for i, v in via.items() if i != at and v and (hits[i].path[0].from_id == at or v in through)]
    led = [h for h in led if via[h.id] not in PERSONS and h.path[0].edge != "HAS_TOPIC"]
    if anchor is None or asked is None or not led:
        return
    rows: list[dict] = [{"memory": {"id": h.id}} for h in led]
    corpus.memories.fill_cosines(replace(ctx, embedding=asked.embedding), rows)
    fit = {r["memory"]["id"]: asked.of(r["score"], hits[r["memory"]["id"]].node.get("text") or "") for r in rows}
    led.sort(key=lambda h: (-fit[h.id], -h.score))
    before = replace(paths, query=paths.query[: paths.query.find(paths.described or "")], meant=frozenset())
    first, second = (led[0], anchor) if any(before.names(via[h.id]) for h in led) else (anchor, led[0])
    # above every other hit, not level with one (another's same fact that the question's words match best:
    # a tie goes by id)
    first.score = max(h.score for h in hits.values()) + 2 * ANSWER_STEP
    second.score = above = first.score - ANSWER_STEP
    for h in led[1:]:  # the others in the order of the ask, no higher than they were
        h.score = above = min(h.score, above) - ANSWER_STEP


def answer_meant(hits: dict[str, Hit], ranking: Ranking) -> None:
    """我叔叔的家乡是哪里？: the walk lifts every memory of the uncle to the best of them (``rank.Paths.carried``), so his
    work or 陈宇轩是我的叔叔 (who holds the role) outweighed the hometown asked. Of the memories of those a role means
    (else of those it names: ``rank.SubjectScope``), the one the question matched best on its own takes the best of
    their places, and so on; others keep theirs. Not when it asks only who they are (``cues.asks_only_name``)."""
    paths, above = ranking.paths, float("inf")
    ids = paths.theirs or (ranking.about.ids if ranking.about is not None else frozenset())  # by role, else by name
    theirs = [h for h in hits.values() if h.kind == "memory" and h.id in ids]
    if paths.described or len(theirs) < 2 or asks_only_name(paths.query) or not ranking.scorer.weights["similarity"]:
        return  # (a profile that ranks by anything but similarity keeps its order)
    by_own = sorted(theirs, key=lambda h: (-(h.similarity if h.own is None else h.own), -h.score, h.id))
    for h, place in zip(by_own, sorted((h.score for h in theirs), reverse=True)):
        h.score = above = min(place, above - ANSWER_STEP)
