"""What an extractor hands back, whichever it is: one output schema and one validation.

The offline rules (``rules.py``) and an LLM (``llm.py``) both describe what they found in a
window of turns as an ``Extraction``: memories in the Subject/Topic/Object/Attribute/Value shape,
each with the turn it came from, the kind of thing it says and, where it states the value of a
single-valued slot (where someone lives, works, studies), that slot; and causal links between
them, cause → effect, by the memories' ids. ``to_plan`` checks an extraction against the turns
and turns it into the plan the pipeline writes: anything invalid fails the whole extraction, so a
half-understood answer never writes half its memories. A memory that is valid but a fragment of
its turn (``fragments.fragment``: a function word or an unresolved pronoun as subject, a dangling
的 or a particle as topic or object) is left out, with the links naming it; the rest is written.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from ..errors import ExtractionError
from ..types import MemoryInput
from .fragments import fragment
from .models import EpisodeView, ExtractionPlan, PlannedLink, PlannedMemory


class Kind(str, Enum):
    """What a memory says, for the benchmark and the reader; consolidation reads ``slot``."""

    RESIDENCE = "residence"  # where someone lives, or moved to
    WORK = "work"  # employer, job, quitting
    SCHOOL = "school"  # where someone studies, enrolled, graduated
    RELATION = "relation"  # a person and their role to the subject (表妹 小雯, cousin Ruth)
    PREFERENCE = "preference"  # likes and dislikes, and their negation (不再, no longer)
    POSSESSION = "possession"  # has, owns, bought, adopted
    PLAN = "plan"  # plans and intentions
    EVENT = "event"  # something that happened, with its time and place
    FACT = "fact"  # anything else stated as true


class Slot(str, Enum):
    """Single-valued slots: a newer value replaces the current one (``lexicon.topics``)."""

    RESIDENCE = "residence"
    EMPLOYER = "employer"
    JOB = "job"
    SCHOOL = "school"
    DIET = "diet"  # what someone eats: meat, vegetarian, vegan (我吃素了 replaces 我爱吃肉)
    PARTNER = "partner"  # whom someone is with: boyfriend, wife, 丈夫 (a breakup or a divorce ends it)


class ExtractedMemory(MemoryInput):
    """One memory found in the turns: ``create_memory``'s arguments (and their validation), plus
    ``id`` (unique within its extraction) and ``turn``, the 1-based number of the turn (as the
    transcript shows it) that says it."""

    id: str = Field(min_length=1, max_length=40)
    turn: int = Field(ge=1)
    kind: Kind = Kind.FACT
    slot: Slot | None = None  # the single-valued slot this memory sets (or ends, with ``ends``)
    ends: bool = False  # it ends the slot's current value without giving a new one (辞职, quit, moved out)


class ExtractedLink(BaseModel):
    """A causal link between two memories of the same extraction: ``cause`` → ``effect``."""

    model_config = ConfigDict(extra="forbid")

    cause: str
    effect: str


class Extraction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memories: list[ExtractedMemory] = Field(default_factory=list)
    links: list[ExtractedLink] = Field(default_factory=list)


def extraction_json_schema() -> dict[str, Any]:
    """The JSON schema an LLM is asked to fill (the same model the rules fill)."""
    return Extraction.model_json_schema()


def to_plan(
    extraction: Extraction | dict, episodes: list[EpisodeView], *, absolute: frozenset[str] | set[str] = frozenset()
) -> ExtractionPlan:
    """The plan of a valid extraction: each memory checked as ``create_memory`` checks it, its turn
    within the window, its id unique, each link between two of its memories. ``absolute``: ids of
    memories whose times need no reference time (written in one batch). ``ExtractionError`` names
    the first thing wrong. Fragments (``fragments.fragment``) are left out, each named in the
    plan's ``refused``, and so are the links that name one."""
    if not isinstance(extraction, Extraction):
        try:
            extraction = Extraction.model_validate(extraction)
        except PydanticValidationError as exc:
            raise ExtractionError(f"the extraction does not fit its schema: {_first_error(exc)}") from None
    plan = ExtractionPlan()
    seen: set[str] = set()
    refused: set[str] = set()
    for m in extraction.memories:
        if m.id in seen:
            raise ExtractionError(f"memory id {m.id!r} is used twice; each memory needs its own id")
        seen.add(m.id)
        if m.turn > len(episodes):
            raise ExtractionError(f"memory {m.id!r} names turn {m.turn}, but the window has {len(episodes)} turns")
        memory = MemoryInput.model_validate(m.model_dump(include=set(MemoryInput.model_fields)))
        if why := fragment(memory):
            refused.add(m.id)
            plan.refused.append(f"turn {m.turn}: {memory.subject} | {memory.topic} | {memory.object or ''}: {why}")
            continue
        ep = episodes[m.turn - 1]
        plan.memories.append(
            PlannedMemory(
                key=m.id,
                memory=memory.model_dump(mode="json"),
                episode_ids=[ep.id],
                reference_time=ep.timestamp.isoformat(),
                session_id=ep.session_id or None,
                relative=m.id not in absolute,
                kind=m.kind.value,
                slot=m.slot.value if m.slot else None,
                ends=m.ends,
            )
        )
    for link in extraction.links:
        for end in (link.cause, link.effect):
            if end not in seen:
                raise ExtractionError(f"link {link.cause!r} → {link.effect!r} names no memory {end!r}")
        if link.cause == link.effect:
            raise ExtractionError(f"link {link.cause!r} → {link.effect!r} links a memory to itself")
        if link.cause in refused or link.effect in refused:
            continue
        plan.links.append(PlannedLink(source=link.cause, target=link.effect, relation_type="because"))
    return plan


def _first_error(exc: PydanticValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))
