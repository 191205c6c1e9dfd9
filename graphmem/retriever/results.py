"""The ranked hits of a search as results: superseded memories after their current version,
the turns each was extracted from, and the ``SearchResult`` a caller reads."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

from ..lang import CJK_CHARS
from ..store.driver import Store
from ..textsim import STOPWORDS
from ..types import EvidenceEpisode, PathStep, SearchResult
from .evidence import Hit
from .rank import parse_time

EVIDENCE_PER_MEMORY = 3  # turns each result shows it was extracted from (the earliest)

# words that say something changed: 换了 改去 不再 放弃 搬到 辞职; switched, gave up, no longer, instead, now
CHANGE_ZH = re.compile(
    r"换|改|不再|放弃|转学|转到|搬|辞职|离职|跳槽|退了|卖了|买了|分手|升职|升为|当上|成了|变成|开始|去世|领养|现在|如今|最近|新"
)
CHANGE_EN = re.compile(
    r"\b(?:now|nowadays|these days|lately|recently|any ?more|no longer|instead|switch(?:ed)?|chang(?:ed|e)|swapped|"
    r"replaced|moved|sold|bought|adopted|gave up|given up|quit|left|cancell?ed|stopped|started|joined|took up|"
    r"taken up|gone|became|become|promoted|new|again|broke up|split up|passed away|died|not \w+ing)\b",
    re.IGNORECASE,
)
# characters too common in Chinese to say what a statement is about (a pair with one is no evidence)
_ZH_FUNCTION = set("我你他她它们的了是在有和跟也都就还很这那个一不吗呢吧啊把被给从到去来要会能说里么什")
_CJK_RUN = re.compile(rf"[{CJK_CHARS}]+")
_EN_WORD = re.compile(r"[a-z0-9]+")
_LIGHT = frozenset(
    "got get gets getting go goes going went make made makes take took takes put puts really been".split()
)
STEM = 4  # English words are compared by their first this many letters (drive / driving, vegan / veganism)
# two statements are about the same thing when they share a unit said in at most SAME_THING_DF of
# the results (a unit many results say, a name in a chat, is not what any one is about), and such
# units are at least SAME_THING_SHARE of the shorter one's: a long turn shares a rare word by chance
SAME_THING_DF = 3
SAME_THING_SHARE = 0.2
REACH = 2  # a change is looked for among this many × the results asked for


def says_change(text: str) -> bool:
    """Whether a statement says something changed (换成电信了, "I sold the Fiesta")."""
    return bool(CHANGE_ZH.search(text) or CHANGE_EN.search(text))


def things(text: str) -> set[str]:
    """What a statement is about, as comparable units: English content words (their first STEM
    letters) and Chinese character pairs without function characters; change words are not things."""
    plain = CHANGE_EN.sub(" ", CHANGE_ZH.sub(" ", text)).casefold()
    units = {w[:STEM] for w in _EN_WORD.findall(plain) if len(w) > 2 and w not in STOPWORDS and w not in _LIGHT}
    for run in _CJK_RUN.findall(plain):
        units.update(run[i : i + 2] for i in range(len(run) - 1) if not (_ZH_FUNCTION & set(run[i : i + 2])))
    return units


def said_at(h: Hit) -> str:
    """When a hit was said: a turn's time, a memory's ``valid_from`` (else when it was written)."""
    n = h.node
    return (n.get("timestamp") if h.kind == "episode" else n.get("valid_from") or n.get("created_at")) or ""


_ATTRIBUTES = re.compile(r"\s*[(（][^()（）]*[:：][^()（）]*[)）]\s*$")  # a memory text's "(time: 2025)"


def same_thing(a: set[str], b: set[str], df: Counter[str]) -> bool:
    """Whether two statements' ``things`` say they are about the same thing (SAME_THING_DF)."""
    shared = {u for u in a & b if df[u] <= SAME_THING_DF}
    return bool(shared) and len(shared) >= SAME_THING_SHARE * min(len(a), len(b))


def newer_first(store: Store, group_id: str, ranked: list[Hit], k: int, episodes: bool, why: list[str]) -> list[Hit]:
    """For a question about now: a statement of a change (``says_change``) goes just before an
    older statement about the same thing (``same_thing``), at its score, from anywhere in the
    first REACH × ``k``: 我把本田卖了，换了特斯拉 before 我开的是本田, "we switched our broadband to BT" before
    "our broadband is with Virgin". Consolidation supersedes what the extractor read as a slot;
    this orders what was said and not read so, in the same way. A memory is about what it says
    and what the turns it was extracted from say (read when the group has turns: ``episodes``)."""
    ranked, rest = ranked[: REACH * k], ranked[REACH * k :]
    evidence: dict[str, list[dict]] = {}
    if episodes and (ids := [h.id for h in ranked if h.kind == "memory"]):
        rows = store.read("search_evidence", group_id=group_id, ids=ids, per_memory=EVIDENCE_PER_MEMORY)
        evidence = {row["id"]: row["evidence"] for row in rows}

    def read(h: Hit) -> tuple[Hit, datetime | None, set[str], bool]:
        text = _ATTRIBUTES.sub("", h.node.get("text") or h.node.get("content") or "")
        said = [e.get("content") or "" for e in (*h.episodes, *evidence.get(h.id, ()))]
        about = things(text).union(*map(things, said))
        return h, parse_time(said_at(h)), about, says_change(text) or any(map(says_change, said))

    out, moved, i = [read(h) for h in ranked], 0, 0
    df = Counter(u for *_, about, _ in out for u in about)
    while i < len(out):
        _, when, about, _ = out[i]
        later = (
            j
            for j in range(i + 1, len(out))
            if out[j][3] and when is not None and (out[j][1] or when) > when and same_thing(about, out[j][2], df)
        )
        j = next(later, None)  # the best ranked newer change; a still newer one goes before it in turn
        if j is None:
            i += 1
            continue
        out.insert(i, out.pop(j))
        out[i][0].score = max(out[i][0].score, out[i + 1][0].score)
        moved += 1
    if moved:
        why.append(f"a question about now: {moved} newer statements of a change go before what they replace")
    return [h for h, *_ in out] + rest


def current_first(store: Store, group_id: str, ranked: list[Hit], policy: str, why: list[str]) -> list[Hit]:
    """Superseded memories (``superseded_by`` set): "hide" drops them; "current_first" puts the
    current version of each just before it (read from the graph when the search did not reach
    it), at its score; "keep" leaves the order alone."""
    old = [h for h in ranked if h.kind == "memory" and h.node.get("superseded_by")]
    if not old or policy == "keep":
        return ranked
    if policy == "hide":
        why.append(f"{len(old)} superseded memories left out")
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
    why.append(f"{len(old)} superseded memories follow their current version")
    return out


def as_results(store: Store, group_id: str, ranked: list[Hit], episodes: bool) -> list[SearchResult]:
    """``ranked`` as results, each memory with the turns it was extracted from (a group with
    ``episodes`` only)."""
    memory_ids = [h.id for h in ranked if h.kind == "memory"]
    evidence: dict[str, list[dict]] = {}
    if episodes and memory_ids:
        rows = store.read("search_evidence", group_id=group_id, ids=memory_ids, per_memory=EVIDENCE_PER_MEMORY)
        evidence = {row["id"]: row["evidence"] for row in rows}
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
