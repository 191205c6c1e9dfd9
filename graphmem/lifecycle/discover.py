"""Discovering links between memories.

- REFERENCE ("相关 / related"): each memory of the batch is linked to the latest earlier memory
  sharing its topic or object, so the memories of one concept form a chain in time (each gets at
  most two such links per concept, never a clique); concepts used by more than ``HUB_CAP``
  memories are skipped (我, 吃饭 relate everything), at most ``MAX_LINKS_PER_MEMORY`` per memory.
- CAUSALITY candidates ("推测因果 / possible cause"): two memories of one session said within
  ``CAUSAL_WINDOW_S`` of each other, the later carrying a cause/effect cue (因为, 所以, 导致,
  because, so, therefore …), linked from the earlier to the later, ``discovered`` with a
  confidence. With an LLM judge only the pairs it confirms are linked, at a higher confidence.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import ConsolidationSettings
from .report import Discovered
from .work import Work

CAUSE_CUES = (
    "因为",
    "所以",
    "导致",
    "因此",
    "由于",
    "结果",
    "于是",
    "害得",
    "原因",
    "because",
    "so that",
    "therefore",
    "as a result",
    "caused",
    "led to",
    "due to",
    "thanks to",
    "reason",
    "since then",
)
REFERENCE_CONFIDENCE = 0.6  # a shared concept says the two are about the same thing, not how
REFERENCE_IMPORTANCE = 0.4  # discovered "related" links weigh little
CAUSAL_CONFIDENCE = 0.4  # a cue and closeness in time: a candidate, not a finding
JUDGED_CONFIDENCE = 0.8  # a candidate the LLM confirmed
CAUSAL_IMPORTANCE = 0.5  # inferred causes weigh less than told ones
MAX_LINKS_PER_MEMORY = 3  # REFERENCE links a memory gets in one run at most
HUB_CAP = 200  # concepts used by more memories than this link nothing (我, 吃饭 would relate everything)
# candidate CAUSALITY links between memories of one session said within this many seconds, when
# one of them carries a cause/effect cue (因为, 所以, because, so ...)
CAUSAL_WINDOW_S = 3600.0


def has_cause_cue(text: str) -> bool:
    t = (text or "").casefold()
    return any(cue in t for cue in CAUSE_CUES)


class RelationFinder:
    def __init__(self, work: Work, settings: ConsolidationSettings, judge: Callable[[str, str], bool] | None = None):
        self.work = work
        self.settings = settings
        self.judge = judge

    def discover(
        self, group_id: str, memory_ids: list[str], archived: set[str], run_id: str, now: str
    ) -> list[Discovered]:
        s = self.settings
        ids = [i for i in memory_ids if i not in archived]
        if not ids:
            return []
        rows = self.work.read(
            "lifecycle_link_candidates",
            group_id=group_id,
            ids=ids,
            hub_cap=HUB_CAP,
            window_s=CAUSAL_WINDOW_S,
            near_cap=5,
        )
        found: list[Discovered] = []
        seen: set[frozenset] = set()
        for r in rows:
            if s.discover_references:
                linked = 0
                for shared in r["shared"]:
                    if not shared.get("id") or shared["id"] in archived:
                        continue
                    pair = frozenset((r["id"], shared["id"]))
                    if pair in seen:
                        continue
                    seen.add(pair)
                    found.append(
                        Discovered(
                            source_id=r["id"],
                            target_id=shared["id"],
                            edge_type="REFERENCE",
                            relation=f"相关 related: {shared['shared']}",
                            confidence=REFERENCE_CONFIDENCE,
                        )
                    )
                    linked += 1
                    if linked >= MAX_LINKS_PER_MEMORY:
                        break
            for near in r["near"]:
                if near["id"] in archived:
                    continue
                earlier, later = (near, r) if (near["said_at"] or "") <= (r["said_at"] or "") else (r, near)
                if not has_cause_cue(later["text"]):
                    continue
                pair = frozenset((r["id"], near["id"], "c"))
                if pair in seen:
                    continue
                seen.add(pair)
                confidence = CAUSAL_CONFIDENCE
                if self.judge is not None:
                    if not self.judge(earlier["text"], later["text"]):
                        continue
                    confidence = JUDGED_CONFIDENCE
                found.append(
                    Discovered(
                        source_id=earlier["id"],
                        target_id=later["id"],
                        edge_type="CAUSALITY",
                        relation="推测因果 possible cause",
                        confidence=confidence,
                    )
                )
        if found:
            links = [
                {
                    **d.model_dump(),
                    "importance": REFERENCE_IMPORTANCE if d.edge_type == "REFERENCE" else CAUSAL_IMPORTANCE,
                }
                for d in found
            ]
            self.work.write("lifecycle_link", group_id=group_id, links=links, run_id=run_id, now=now)
        return found
