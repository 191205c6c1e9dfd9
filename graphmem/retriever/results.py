"""The ranked hits of a search as results: one slot per turn before a turn's other memories,
superseded memories after their current version, the turns each was extracted from, and the
``SearchResult`` a caller reads."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from ..cues import past_slot
from ..store.driver import Store
from ..textsim import same_thing, says_change, things
from ..timeparse.stamps import parse_time
from ..types import EvidenceEpisode, PathStep, SearchResult
from .evidence import Hit

EVIDENCE_PER_MEMORY = 3  # turns each result shows it was extracted from (the earliest)
REACH = 2  # a newer change is looked for among this many × the results asked for
PRESENT_REACH = 50  # a present home or job is looked for among at least this many results


def one_slot_per_turn(
    store: Store, group_id: str, ranked: list[Hit], k: int, why: list[str], evidence: dict[str, list[dict]]
) -> list[Hit]:
    """Several memories extracted from one turn take one result slot before every other turn has
    had its own: in the first REACH × ``k`` (PRESENT_REACH at least), a memory whose turns a result
    above already stands for (a turn's second fragment, "我 是 嘛" after "我 住在 绿洲家园") goes
    after the results that bring a turn of their own, in its order. The first memory of each turn
    keeps its place and its score, and the result shows the whole turn as its evidence; the rest
    of the turn's memories follow once no other turn is left. ``evidence``: each memory's turns
    (``search_evidence``), read here for the hits it does not hold yet, and kept for the results."""
    reach = max(REACH * k, PRESENT_REACH)
    ranked, rest = ranked[:reach], ranked[reach:]
    missing = [h.id for h in ranked if h.kind == "memory" and h.id not in evidence]
    if missing:
        rows = store.read("search_evidence", group_id=group_id, ids=missing, per_memory=EVIDENCE_PER_MEMORY)
        evidence.update({row["id"]: row["evidence"] for row in rows})
    shown: set[str] = set()
    first: list[Hit] = []
    again: list[Hit] = []
    for h in ranked:
        turns = (
            {h.id} if h.kind == "episode" else {e["id"] for e in (*h.episodes, *evidence.get(h.id, ())) if e.get("id")}
        )
        (again if turns and turns <= shown else first).append(h)
        shown |= turns
    out = first + again
    if any(a is not b for a, b in zip(out, ranked)):
        for i in range(len(first), len(out)):  # below the result it now follows: the scores read as ranked
            out[i].score = min(out[i].score, out[i - 1].score)
        why.append(f"{len(again)} more memories of a turn already shown go after the other turns")
    return out + rest


def newer_first(
    store: Store, group_id: str, ranked: list[Hit], k: int, episodes: bool, why: list[str], then: bool = False
) -> list[Hit]:
    """For a question about now (or, ``then``, about a past moment, whose search kept only what was
    said by then): a statement of a change (``says_change``) goes just before an older statement
    about the same thing (``same_thing``), at its score, from anywhere in the first REACH × ``k``:
    我把本田卖了，换了特斯拉 before 我开的是本田. Consolidation supersedes what the extractor read as a
    slot; this orders what was said and not read so. A memory is read with the turns it was
    extracted from (when the group has turns: ``episodes``); a turn is said at its time, a memory at ``valid_from``.
    About now, a present home or job also goes before a past one (``present_before_past``)."""
    ranked, rest = ranked[: REACH * k], ranked[REACH * k :]
    evidence: dict[str, list[dict]] = {}
    if episodes and (ids := [h.id for h in ranked if h.kind == "memory"]):
        rows = store.read("search_evidence", group_id=group_id, ids=ids, per_memory=EVIDENCE_PER_MEMORY)
        evidence = {row["id"]: row["evidence"] for row in rows}

    def read(h: Hit) -> tuple[Hit, datetime | None, set[str], bool]:
        n = h.node
        said = [n.get("text") or n.get("content") or ""]
        said += [e.get("content") or "" for e in (*h.episodes, *evidence.get(h.id, ()))]
        when = parse_time(n.get("timestamp") if h.kind == "episode" else n.get("valid_from") or n.get("created_at"))
        return h, when, set().union(*map(things, said)), any(map(says_change, said))

    out, moved, i = [read(h) for h in ranked], 0, 0
    df = Counter(u for *_, about, _ in out for u in about)
    while i < len(out):
        _, when, about, _ = out[i]
        newer = (j for j in range(i + 1, len(out)) if out[j][3] and when and (out[j][1] or when) > when)
        j = next((j for j in newer if same_thing(about, out[j][2], df)), None)  # a still newer one goes first in turn
        if j is None:
            i += 1
            continue
        out.insert(i, out.pop(j))
        out[i][0].score = max(out[i][0].score, out[i + 1][0].score)
        moved += 1
    if moved:
        asked = "a question about a past moment" if then else "a question about now"
        why.append(f"{asked}: {moved} newer statements of a change go before what they replace")
    ordered = [h for h, *_ in out] + rest
    return ordered if then else present_before_past(store, group_id, ordered, k, why)


def present_before_past(store: Store, group_id: str, ranked: list[Hit], k: int, why: list[str]) -> list[Hit]:
    """For a question about now: where someone lives or works now (a current memory of the slot)
    goes just before where they lived or worked (``past_slot``: 曾住在 西安, "lived in Glasgow"),
    at its score, from anywhere in the first REACH × ``k`` (PRESENT_REACH at least): said later,
    the past one is newer and as close to the words."""
    reach = max(REACH * k, PRESENT_REACH)
    ranked, rest = list(ranked[:reach]), ranked[reach:]
    ids = [h.id for h in ranked if h.kind == "memory"]
    rows = {r["id"]: r for r in store.read("search_memory_slots", group_id=group_id, ids=ids)} if ids else {}

    def now_of(past: Hit, later: Hit) -> bool:
        a, b = rows.get(past.id), rows.get(later.id)
        return bool(
            a and b and b["slot"] and b["slot"] == past_slot(a["topic"] or "") and b["subject"] == a["subject"]
        ) and not later.node.get("superseded_by")

    i, moved = 0, 0
    while i < len(ranked):
        if not (row := rows.get(ranked[i].id)) or not past_slot(row["topic"] or ""):
            i += 1
            continue
        j = next((j for j in range(i + 1, len(ranked)) if now_of(ranked[i], ranked[j])), None)
        if j is None:
            i += 1
            continue
        ranked.insert(i, ranked.pop(j))
        ranked[i].score = max(ranked[i].score, ranked[i + 1].score)
        moved, i = moved + 1, i + 1
    if moved:
        why.append(f"a question about now: {moved} present homes or jobs go before the past ones")
    return ranked + rest


def current_first(store: Store, group_id: str, ranked: list[Hit], policy: str, why: list[str]) -> list[Hit]:
    """Superseded memories (``superseded_by`` set): "hide" drops them; "current_first" puts the
    current version of each just before it (read from the graph when the search did not reach
    it), at its score; "keep" leaves the order alone."""
    old = [h for h in ranked if h.kind == "memory" and h.node.get("superseded_by")]
    if not old or policy == "keep":
        return ranked
    if policy == "hide":
        why.append(f"{len(old)} superseded {'memory' if len(old) == 1 else 'memories'} left out")
        return [h for h in ranked if not (h.kind == "memory" and h.node.get("superseded_by"))]
    by_id = {h.id: h for h in ranked}
    rows = store.read("search_current_of", group_id=group_id, ids=[h.id for h in old])
    current, out, placed = {r["id"]: r["current"] for r in rows}, [], set()
    for h in ranked:
        node = current.get(h.id)
        if h.id in placed:
            continue
        if node is not None and node["id"] not in placed:
            c = by_id.get(node["id"])
            if c is None:
                step = PathStep(
                    from_id=h.id, to_id=node["id"], edge="SUPERSEDES", relation="current version", direction="in"
                )
                c = by_id[node["id"]] = Hit(node["id"], "memory", node, h.similarity, h.distance, h.path + [step])
                c.parts = h.parts
            c.score = max(c.score, h.score)
            out.append(c)
            placed.add(c.id)
        out.append(h)
        placed.add(h.id)
    why.append(
        f"{len(old)} superseded {'memory follows its' if len(old) == 1 else 'memories follow their'} current version"
    )
    return out


def as_results(
    store: Store, group_id: str, ranked: list[Hit], episodes: bool, known: dict[str, list[dict]] | None = None
) -> list[SearchResult]:
    """``ranked`` as results, each memory with the turns it was extracted from (a group with
    ``episodes`` only; ``known``: the turns already read, by memory id)."""
    evidence = dict(known or {})
    memory_ids = [h.id for h in ranked if h.kind == "memory" and h.id not in evidence]
    if episodes and memory_ids:
        rows = store.read("search_evidence", group_id=group_id, ids=memory_ids, per_memory=EVIDENCE_PER_MEMORY)
        evidence.update({row["id"]: row["evidence"] for row in rows})
    return [result(h, evidence.get(h.id, [])) for h in ranked]


def result(h: Hit, evidence: list[dict]) -> SearchResult:
    seen, episodes = set(), []
    for e in list(h.episodes) + list(evidence):
        if e.get("id") and e["id"] not in seen:
            seen.add(e["id"])
            episodes.append(EvidenceEpisode.model_validate({k: e.get(k) for k in EvidenceEpisode.model_fields}))
    n, turn = h.node, h.kind == "episode"
    importance = (n.get("importance") or 0.5) if turn else n.get("importance")
    assert h.parts is not None  # every hit is scored when made
    return SearchResult(
        kind="episode" if turn else "memory",
        memory_id=h.id,
        text=(n.get("content") if turn else n.get("text")) or "",
        memory_type="EPISODE" if turn else n["memory_type"],
        importance=float(0.5 if importance is None else importance),
        occurred_at=n.get("timestamp") if turn else n.get("occurred_at"),
        created_at=n.get("timestamp") if turn else n.get("created_at"),
        status=None if turn else n.get("status"),
        score=h.score,
        score_parts=h.parts,
        distance=h.distance,
        path=h.path,
        seed_sources=h.sources,
        evidence=episodes,
        superseded_by=None if turn else n.get("superseded_by"),
        current=turn or not n.get("superseded_by"),
        valid_from=None if turn else n.get("valid_from"),
        valid_until=None if turn else n.get("valid_until"),
    )
