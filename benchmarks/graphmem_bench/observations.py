"""LoCoMo's observations as an extractor of LLM quality: a benchmark setting, not a product feature.

No LLM can be reached offline, but LoCoMo carries what one produced when the dataset was made:
per session and speaker, facts in whole sentences, each with the turn(s) it came from
("Melanie painted a lake sunrise last year which holds special meaning to her.", D1:14). This
extractor hands them to the ingest pipeline as the LLM extractor hands over its tool calls:
one ``create_memory`` per fact (subject = the speaker the fact is filed under, or the person it
names first; topic = its verb phrase; object = the rest; the memory type from the verb), linked to
its evidence turns, read at the session's date. So ``graphmem bench locomo --extractor
observations`` measures the graph with extraction of LLM quality, beside the offline rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.ingest.models import EpisodeView, ExtractionPlan, PlannedMemory
from graphmem.types import MAX_NAME

# heads of a verb phrase that take the next word with them ("is planning", "has been", "wants to")
_AUX = {
    "is",
    "was",
    "are",
    "were",
    "has",
    "had",
    "have",
    "will",
    "would",
    "can",
    "could",
    "plans",
    "planned",
    "wants",
    "wanted",
    "hopes",
    "hoped",
    "decided",
    "started",
    "keeps",
    "used",
    "recently",
    "also",
    "often",
    "does",
    "did",
    "never",
    "still",
    "just",
    "really",
}
_OPINION = {
    "likes",
    "loves",
    "enjoys",
    "prefers",
    "hates",
    "dislikes",
    "finds",
    "feels",
    "felt",
    "thinks",
    "believes",
    "admires",
    "appreciates",
    "values",
    "cherishes",
    "adores",
    "fears",
}
_STATE = {
    "is",
    "are",
    "has",
    "have",
    "owns",
    "works",
    "lives",
    "wants",
    "plans",
    "hopes",
    "needs",
    "knows",
    "can",
    "will",
    "would",
    "keeps",
    "does",
    "uses",
    "goes",
    "takes",
    "collects",
    "volunteers",
}
_WORD = re.compile(r"[A-Za-z][\w'-]*")


@dataclass(frozen=True)
class Observation:
    speaker: str
    fact: str
    evidence: tuple[str, ...]  # the dia_ids of the turns it came from


def parse_fact(fact: str, speaker: str) -> dict:
    """One observation as ``create_memory`` arguments: whole-sentence facts split into subject,
    topic (the verb phrase's head) and object (the rest), so the memory's text is the fact."""
    text = " ".join(fact.split()).rstrip(" .")
    words = text.split(" ")
    first = speaker.split()[0].casefold() if speaker.strip() else ""
    subject, rest = speaker, words
    if words and words[0].casefold() == first:
        rest = words[1:]  # "Melanie painted ...": the speaker did it
    elif words and words[0].casefold() in (first + "'s", first + "’s"):
        rest = words  # "Melanie's kids love ...": about the speaker, said whole
    elif (
        words
        and words[0][:1].isupper()
        and len(words) > 1
        and words[1].islower()
        and words[0].isalpha()
        and words[0] not in ("The", "A", "An", "She", "He", "They", "Her", "His", "Their", "It", "This")
    ):
        subject, rest = words[0], words[1:]  # a fact about someone else: "Oscar likes ..."
    if not rest:
        rest = words
    head = rest[0].casefold()
    take = 2 if head in _AUX and len(rest) > 2 else 1
    topic = " ".join(rest[:take])
    obj = " ".join(rest[take:]) or None
    verb = rest[take - 1].casefold() if take else head
    if head in _OPINION or verb in _OPINION:
        memory_type = "OPINION"
    elif head in _STATE or verb in _STATE:
        memory_type = "FACT"
    elif (
        verb.endswith("ed")
        or head.endswith("ed")
        or head in {"went", "took", "made", "got", "saw", "met", "ran", "won", "bought", "gave", "came", "began"}
    ):
        memory_type = "EVENT"
    else:
        memory_type = "FACT"
    return {
        "subject": subject[:MAX_NAME],
        "memory_type": memory_type,
        "topic": topic[:MAX_NAME],
        "object": obj[:MAX_NAME] if obj else None,
        "attributes": {},
        "importance": 0.5,
    }


class ObservationExtractor:
    """The ingest pipeline's extractor for one LoCoMo conversation's observations: each fact once,
    with the first window that holds one of its evidence turns, linked to those turns."""

    name = "observations"

    def __init__(self, observations: list[Observation]):
        self._by_turn: dict[str, list[Observation]] = {}
        for o in observations:
            if o.evidence:
                self._by_turn.setdefault(o.evidence[0], []).append(o)

    def extract(self, episodes: list[EpisodeView]) -> ExtractionPlan:
        plan = ExtractionPlan(via_tools=True)
        by_turn = {e.external_id: e for e in episodes if e.external_id}
        for ep in episodes:
            for i, o in enumerate(self._by_turn.get(ep.external_id or "", [])):
                linked = [by_turn[d].id for d in o.evidence if d in by_turn] or [ep.id]
                plan.memories.append(
                    PlannedMemory(
                        key=f"{ep.id}:obs{i}",
                        memory=parse_fact(o.fact, o.speaker),
                        episode_ids=linked,
                        reference_time=ep.timestamp.isoformat(),
                        session_id=ep.session_id or None,
                        relative=False,
                    )
                )
        return plan
