"""Data that crosses module borders: vocabularies, validated inputs, results.

Nothing here imports the database layer. Inputs are validated by pydantic and turned into
``graphmem.errors.ValidationError`` (naming the field and the allowed values) by ``validate``.
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic import ValidationError as PydanticValidationError

from .errors import ValidationError

MAX_NAME = 200
MAX_KEY = 64
MAX_VALUE = 500
MAX_ATTRIBUTES = 20
MAX_ID = 128
MAX_QUERY = 2000
MAX_TEXT = 20000
# One ingest call's text (or all its turns' contents together), and one turn: above it a call is
# refused at once, naming the limit; below it the text is stored and extracted in segments
# (ingest/pipeline.py), so its time grows linearly. Longer documents: several calls
# (`graphmem ingest FILE` sends a long file in parts, with progress).
MAX_INGEST_CHARS = 200_000
SHOWN_VALUE = 80  # characters of a refused value quoted back in an error message


class MemoryType(str, Enum):
    EVENT = "EVENT"
    FACT = "FACT"
    RELATION = "RELATION"
    OPINION = "OPINION"

    @property
    def zh(self) -> str:
        return _TYPE_ZH[self]


_TYPE_ZH = {MemoryType.EVENT: "事件", MemoryType.FACT: "事实", MemoryType.RELATION: "关系", MemoryType.OPINION: "观点"}
_TYPE_ALIASES = {**{v: k for k, v in _TYPE_ZH.items()}, **{m.value.lower(): m for m in MemoryType}}
MEMORY_TYPE_VALUES = ["事件", "事实", "关系", "观点", "event", "fact", "relation", "opinion"]


class EdgeType(str, Enum):
    """Memory → memory edge types."""

    CAUSALITY = "CAUSALITY"
    REFERENCE = "REFERENCE"


class RelationType(str, Enum):
    """What ``link_memories`` accepts. Causal ones point from cause (source) to effect (target)."""

    BECAUSE = "because"
    SO = "so"
    CAUSES = "causes"
    REFERENCES = "references"
    BASED_ON = "based_on"
    RELATED = "related"

    @property
    def edge_type(self) -> EdgeType:
        return (
            EdgeType.CAUSALITY
            if self in (RelationType.BECAUSE, RelationType.SO, RelationType.CAUSES)
            else EdgeType.REFERENCE
        )

    @property
    def zh(self) -> str:
        return _REL_ZH[self]


_REL_ZH = {
    RelationType.BECAUSE: "因为",
    RelationType.SO: "所以",
    RelationType.CAUSES: "导致",
    RelationType.REFERENCES: "引用",
    RelationType.BASED_ON: "基于",
    RelationType.RELATED: "相关",
}
_REL_ALIASES = {
    **{v: k for k, v in _REL_ZH.items()},
    **{r.value: r for r in RelationType},
    "cause": RelationType.CAUSES,
    "caused": RelationType.CAUSES,
    "reference": RelationType.REFERENCES,
    "based on": RelationType.BASED_ON,
    "based-on": RelationType.BASED_ON,
    "relates": RelationType.RELATED,
}
RELATION_TYPE_VALUES = [
    "因为",
    "所以",
    "导致",
    "引用",
    "基于",
    "相关",
    "because",
    "so",
    "causes",
    "references",
    "based_on",
    "related",
]


class MemoryStatus(str, Enum):
    STAGED = "staged"
    CONSOLIDATED = "consolidated"
    ARCHIVED = "archived"


def parse_memory_type(value: Any) -> MemoryType:
    if isinstance(value, MemoryType):
        return value
    if isinstance(value, str):
        found = _TYPE_ALIASES.get(value.strip().lower()) or _TYPE_ALIASES.get(value.strip())
        if found:
            return found
    raise ValueError(f"must be one of {', '.join(MEMORY_TYPE_VALUES)} (any case)")


def parse_relation_type(value: Any) -> RelationType:
    if isinstance(value, RelationType):
        return value
    if isinstance(value, str):
        found = _REL_ALIASES.get(value.strip().lower()) or _REL_ALIASES.get(value.strip())
        if found:
            return found
    raise ValueError(f"must be one of {', '.join(RELATION_TYPE_VALUES)}")


def normalize_name(text: str) -> str:
    """The key concepts are matched on: NFKC (full/half width), casefold, collapsed spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _clean(value: Any, field: str, limit: int, *, allow_empty: bool = False, lines: bool = True) -> str:
    """``value`` stripped, or ValueError: not a string, control characters (``lines``: newlines and
    tabs allowed, as in text; an identifier allows none), empty or only whitespace (``allow_empty``:
    "" is allowed, whitespace alone still is not), longer than ``limit``."""
    if not isinstance(value, str):
        raise ValueError("must be a string")
    # the length first: the checks below look at every character, so an oversize value is
    # refused before any of them (a 5 MB value in a few milliseconds, not seconds)
    text = value.strip()
    if len(text) > limit:
        raise ValueError(f"must be at most {limit} characters (got {len(text)})")
    allowed = "\n\t" if lines else ""
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in value):
        raise ValueError(
            "must not contain control characters or unpaired surrogates"
            if lines
            else "must not contain control characters (newlines and tabs included) or unpaired surrogates"
        )
    if not text and not (allow_empty and not value):
        raise ValueError("must not be empty or only whitespace")
    return text


def shown(value: Any, limit: int = SHOWN_VALUE) -> str:
    """A value as an error message quotes it: its repr, cut to ``limit`` characters with how long it was."""
    if not isinstance(value, str):
        return type(value).__name__
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value)} characters)"


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _importance(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError("must be a number between 0 and 1")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise ValueError("must be a number between 0 and 1") from None
    if not 0.0 <= number <= 1.0 or number != number:
        raise ValueError("must be between 0 and 1")
    return number


class MemoryInput(_Input):
    """The arguments of ``create_memory``."""

    subject: str
    memory_type: MemoryType
    topic: str
    object: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    importance: float = 0.5

    @field_validator("subject", "topic", mode="before")
    @classmethod
    def _name(cls, v: Any, info) -> str:
        return _clean(v, info.field_name, MAX_NAME)

    @field_validator("object", mode="before")
    @classmethod
    def _object(cls, v: Any) -> str | None:
        if v is None:
            return None
        text = _clean(v, "object", MAX_NAME, allow_empty=True)  # "" means no object; "  " is refused
        return text or None

    @field_validator("memory_type", mode="before")
    @classmethod
    def _type(cls, v: Any) -> MemoryType:
        return parse_memory_type(v)

    @field_validator("importance", mode="before")
    @classmethod
    def _imp(cls, v: Any) -> float:
        return 0.5 if v is None else _importance(v)

    @field_validator("attributes", mode="before")
    @classmethod
    def _attrs(cls, v: Any) -> dict[str, str]:
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise ValueError("must be an object of string keys to string values")
        if len(v) > MAX_ATTRIBUTES:
            raise ValueError(f"at most {MAX_ATTRIBUTES} attributes (got {len(v)})")
        out: dict[str, str] = {}
        for key, value in v.items():
            k = _clean(key, "attributes key", MAX_KEY)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            val = _clean(value, f"attributes.{k}", MAX_VALUE)
            if normalize_name(k) in {normalize_name(x) for x in out}:
                raise ValueError(f"duplicate attribute key {k!r}")
            out[k] = val
        return out


class LinkInput(_Input):
    """The arguments of ``link_memories``."""

    source_memory_description: str
    target_memory_description: str
    relation_type: RelationType
    importance: float = 0.6

    @field_validator("source_memory_description", "target_memory_description", mode="before")
    @classmethod
    def _desc(cls, v: Any, info) -> str:
        return _clean(v, info.field_name, MAX_QUERY)

    @field_validator("relation_type", mode="before")
    @classmethod
    def _rel(cls, v: Any) -> RelationType:
        return parse_relation_type(v)

    @field_validator("importance", mode="before")
    @classmethod
    def _imp(cls, v: Any) -> float:
        return 0.6 if v is None else _importance(v)


class TimeRange(_Input):
    start: datetime | None = None
    end: datetime | None = None


class SearchInput(_Input):
    """The arguments of ``search_memories``."""

    query: str
    memory_types: list[MemoryType] | None = None
    time_range: TimeRange | None = None
    max_results: int = Field(10, ge=1, le=200)
    expand_depth: int = Field(1, ge=0, le=2)
    mode: Literal["auto", "fast", "deep"] = "auto"
    relation_filters: list[RelationType] | None = None
    subject: str | None = None
    include_archived: bool = False
    profile: str = Field("default", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    superseded: Literal["current_first", "hide", "keep"] | None = None  # None: retrieval.superseded
    # what was the current fact then: memories valid at that moment (superseded ones included
    # when they still held), none said or true only later; naive: the reference time's zone
    as_of: datetime | None = None

    @field_validator("as_of", mode="before")
    @classmethod
    def _as_of(cls, v: Any) -> datetime | None:
        return None if v is None else parse_as_of(v)

    @field_validator("query", mode="before")
    @classmethod
    def _q(cls, v: Any) -> str:
        return _clean(v, "query", MAX_QUERY)

    @field_validator("subject", mode="before")
    @classmethod
    def _subject(cls, v: Any) -> str | None:
        return None if v is None else _clean(v, "subject", MAX_NAME)

    @field_validator("profile", mode="before")
    @classmethod
    def _profile(cls, v: Any) -> Any:
        return "default" if v is None else v  # None means the default, as everywhere in the API

    @field_validator("memory_types", mode="before")
    @classmethod
    def _types(cls, v: Any) -> list[MemoryType] | None:
        if v is None:
            return None
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list):
            raise ValueError("must be a list of memory types")
        return [parse_memory_type(x) for x in v]

    @field_validator("relation_filters", mode="before")
    @classmethod
    def _rels(cls, v: Any) -> list[RelationType] | None:
        if v is None:
            return None
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list):
            raise ValueError("must be a list of relation types")
        return [parse_relation_type(x) for x in v]


_ALLOWED = {
    "memory_type": MEMORY_TYPE_VALUES,
    "memory_types": MEMORY_TYPE_VALUES,
    "relation_type": RELATION_TYPE_VALUES,
    "relation_filters": RELATION_TYPE_VALUES,
    "mode": ["auto", "fast", "deep"],
}

M = TypeVar("M", bound=BaseModel)

AS_OF_FORMAT = "an ISO 8601 date or datetime, e.g. 2024-03-01 or 2024-03-01T09:00:00+08:00"


def parse_as_of(value: Any) -> datetime:
    """``as_of`` as a datetime: a datetime, a date (its first moment) or an ISO 8601 string."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.strip())
        except ValueError:
            pass
    shown = repr(value)[:SHOWN_VALUE]
    raise ValueError(f"cannot read {shown} as a time; give {AS_OF_FORMAT}")


def validate(model: type[M], data: Any) -> M:
    """Validate ``data`` into ``model`` or raise a ValidationError naming every bad field."""
    if isinstance(data, model):
        return data
    if not isinstance(data, dict):
        raise ValidationError(f"arguments must be an object, got {type(data).__name__}", field=None)
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        raise validation_error(exc.errors()) from None


def validation_error(problems: list[Any]) -> ValidationError:
    """The ValidationError for pydantic's list of problems (``exc.errors()``): every bad field with
    a readable message and, for an enum, the values that would be accepted."""
    errors: list[dict[str, Any]] = []
    for err in problems:
        loc = [str(p) for p in err["loc"]]
        field = loc[0] if loc else None
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            msg = "is required"
        elif err["type"] == "extra_forbidden":
            msg = "is not a known argument"
        where = ".".join(loc)[:SHOWN_VALUE] or None  # an unknown argument's name may be any length
        errors.append({"field": where, "message": msg, "allowed": _ALLOWED.get(field or "")})
    first = errors[0]
    text = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:10])
    return ValidationError(f"invalid arguments: {text}", field=first["field"], allowed=first["allowed"], errors=errors)


GROUP_ID_PUNCTUATION = "_-.:@"
GROUP_ID_RULE = (
    f"1-{MAX_ID} characters, each a letter (any script, e.g. 小明), a digit or one of "
    f"{' '.join(GROUP_ID_PUNCTUATION)}; no spaces or control characters; in Unicode NFC form"
)


def group_id_problem(group_id: Any) -> str | None:
    """Why ``group_id`` is not a tenant id (see GROUP_ID_RULE), or None when it is one.

    A tenant id is an identifier, checked and never rewritten: "alice " is refused rather than
    silently becoming "alice" (two callers' tenants would merge)."""
    if not isinstance(group_id, str):
        return "must be a string"
    if not group_id:
        return "must not be empty"
    if len(group_id) > MAX_ID:
        return f"must be at most {MAX_ID} characters (got {len(group_id)})"
    for i, ch in enumerate(group_id):
        category = unicodedata.category(ch)
        # letters, digits, and the combining marks some scripts' letters need (e.g. Devanagari)
        if category[0] == "L" or category == "Nd" or (category[0] == "M" and i > 0) or ch in GROUP_ID_PUNCTUATION:
            continue
        what = (
            "whitespace"
            if ch.isspace()
            else "a control character"
            if category in ("Cc", "Cf", "Cs")
            else f"the character {ch!r}"
        )
        return f"contains {what} at position {i}"
    if not unicodedata.is_normalized("NFC", group_id):
        return "is not in Unicode NFC form (normalise it before use)"
    return None


def validate_group_id(group_id: Any) -> str:
    """``group_id`` unchanged when it follows GROUP_ID_RULE, else a ValidationError naming the rule.

    One rule for every call, reads and writes alike. Ids stored by versions before the rule are
    listed by ``graphmem stats --legacy`` and renamed with ``graphmem rename-group``; until then
    only those two and ``graphmem delete-group`` reach them (``validate_stored_group_id``)."""
    problem = group_id_problem(group_id)
    if problem is not None:
        raise ValidationError(f"group_id: {shown(group_id)} {problem}; a group id is {GROUP_ID_RULE}", field="group_id")
    return group_id


def validate_stored_group_id(group_id: Any) -> str:
    """A group id as it may be stored: one that follows the rule, or one written before the rule
    existed (any non-empty string without control characters or surrounding spaces, which is what
    was stored then). For the commands that report, rename or delete such groups, nothing else."""
    if isinstance(group_id, str) and group_id_problem(group_id) is not None and _legacy_group_id(group_id):
        return group_id
    return validate_group_id(group_id)


def _legacy_group_id(group_id: str) -> bool:
    try:
        return _clean(group_id, "group_id", MAX_ID) == group_id
    except ValueError:
        return False


def validate_optional_id(value: Any, field: str) -> str | None:
    """None, or an identifier (a session, memory or request id): 1-128 characters, no control
    characters (a newline or tab included), surrounding spaces stripped."""
    if value is None:
        return None
    try:
        return _clean(value, field, MAX_ID, lines=False)
    except ValueError as exc:
        raise ValidationError(f"{field}: {shown(value)} {exc}", field=field) from None


def validate_id(value: Any, field: str) -> str:
    """A required identifier (see ``validate_optional_id``)."""
    if value is None:
        raise ValidationError(f"{field}: is required", field=field)
    return validate_optional_id(value, field)  # type: ignore[return-value]


def as_reference_time(value: datetime | str | None) -> datetime:
    """Now (local timezone) by default; ISO strings accepted; naive datetimes are taken as UTC."""
    if value is None:
        return datetime.now().astimezone()
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ValidationError(
                f"reference_time: {value!r} is not an ISO 8601 datetime", field="reference_time"
            ) from None
    if not isinstance(value, datetime):
        raise ValidationError("reference_time: must be a datetime or an ISO 8601 string", field="reference_time")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


# --- results -----------------------------------------------------------------------------


class ConceptRef(BaseModel):
    """One concept node a write touched, and why it was (re)used."""

    role: Literal["subject", "topic", "object"]
    id: str
    name: str
    input: str
    reused: bool
    reason: str  # "new", "exact", "alias", "user", "agent", "vector 0.97", "context 0.88", "concurrent"
    similarity: float | None = None


class CreateResult(BaseModel):
    success: bool = True
    memory_id: str
    status: str
    text: str
    occurred_at: str | None = None
    concepts: list[ConceptRef]
    time_values: dict[str, dict[str, Any]] = Field(default_factory=dict)
    message: str = ""


class LinkResult(BaseModel):
    success: bool = True
    source_id: str
    target_id: str
    source_text: str
    target_text: str
    edge_type: EdgeType
    relation: RelationType
    cause_id: str | None = None
    effect_id: str | None = None
    source_score: float
    target_score: float


class MemoryRecord(BaseModel):
    id: str
    group_id: str
    memory_type: MemoryType
    text: str
    subject: str | None = None
    topic: str | None = None
    object: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    importance: float
    status: MemoryStatus
    occurred_at: str | None = None
    created_at: str | None = None
    last_accessed_at: str | None = None
    access_count: int = 0
    session_id: str | None = None
    source: str | None = None
    links: list[dict[str, Any]] = Field(default_factory=list)
    # each attribute as stored: key, original (as written), value (normalised), iso, parsed
    attribute_details: list[dict[str, Any]] = Field(default_factory=list)
    superseded_by: str | None = None  # the newer memory that replaced this one (a SUPERSEDES edge)
    # the interval in which it was the current fact: from its own time (else when it was said)
    # until the time of the memory that replaced it; valid_until is None while it is current
    valid_from: str | None = None
    valid_until: str | None = None


# --- search results (graphmem/retriever) ---------------------------------------------------


class ScoreParts(BaseModel):
    """The unweighted parts of a result's score, each in [0, 1]; score = Σ weight · part
    with the weights in ``SearchPlan.weights``."""

    similarity: float  # to the query: cosine blended with BM25 / lexical overlap (see retriever/rank.py)
    importance: float
    distance: float  # 1 / (1 + hops from a seed)
    time_decay: float  # exp(-λ_type · days since occurred_at, or created_at)
    access: float  # bounded access frequency × recency of the last access
    rerank: float | None = None  # the reranker's score (graphmem/rerank/), when one reordered the result


class PathStep(BaseModel):
    """One hop of the walk that reached a result: from a memory to the next one.

    ``edge`` is CAUSALITY/REFERENCE (``direction`` "out" when the edge points from
    ``from_id`` to ``to_id``, "in" when it points back: for CAUSALITY the source is the
    cause), or HAS_SUBJECT/HAS_TOPIC/HAS_OBJECT/VALUE for a shared concept or value
    (``via`` its name, ``via_label`` its label)."""

    from_id: str
    to_id: str
    edge: str
    relation: str | None = None
    direction: Literal["out", "in"] | None = None
    via: str | None = None
    via_label: str | None = None

    def get(self, key: str, default: Any = None) -> Any:
        """Dict-style access (``step.get("edge")``) for callers that treat steps as dicts."""
        return getattr(self, key, default)


class EvidenceEpisode(BaseModel):
    """A conversation turn (``:Episode``) a result comes from."""

    id: str
    content: str | None = None
    timestamp: str | None = None
    session_id: str | None = None
    speaker: str | None = None
    role: str | None = None


class SearchResult(BaseModel):
    """One memory (or, with ``kind`` "episode", a matching conversation turn nothing was
    extracted from) with its score, the parts of the score and the path that found it."""

    kind: Literal["memory", "episode"] = "memory"
    memory_id: str
    text: str
    memory_type: str  # EVENT|FACT|RELATION|OPINION, or EPISODE for kind "episode"
    importance: float
    occurred_at: str | None = None
    created_at: str | None = None
    status: str | None = None
    score: float
    score_parts: ScoreParts
    distance: int  # memory hops from a seed; 0 for a direct match
    path: list[PathStep] = Field(default_factory=list)
    seed_sources: list[str] = Field(default_factory=list)  # vector, fulltext, episode_vector, episode_fulltext
    evidence: list[EvidenceEpisode] = Field(default_factory=list)
    superseded_by: str | None = None  # the newer memory that replaced this one (a SUPERSEDES edge)
    current: bool = True  # False when superseded: what it says is no longer true
    # the interval in which it was the current fact (see MemoryRecord.valid_from)
    valid_from: str | None = None
    valid_until: str | None = None


class PlannedTimeRange(BaseModel):
    start: str | None = None  # ISO datetimes, end exclusive
    end: str | None = None
    source: Literal["argument", "query"]
    matched: str | None = None  # the words of the query it was read from


class PlannedAsOf(BaseModel):
    """What was current when: the moment (``start`` = ``end``) or period the results were valid in."""

    start: str  # ISO datetimes; a period's end is its last moment
    end: str
    source: Literal["argument", "query"]
    matched: str | None = None  # the words of the query it was read from


class SearchPlan(BaseModel):
    """What the planner decided and why."""

    planner: str = "rules"
    mode: Literal["auto", "fast", "deep"]
    depth: int
    relation_filters: list[str] | None = None
    time_range: PlannedTimeRange | None = None
    memory_types: list[str] | None = None
    subject: str | None = None
    as_of: PlannedAsOf | None = None
    why: list[str] = Field(default_factory=list)
    profile: str = "default"
    weights: dict[str, float] = Field(default_factory=dict)


class SearchResponse(BaseModel):
    query: str
    group_id: str
    mode_used: Literal["fast", "deep"]
    plan: SearchPlan
    results: list[SearchResult]
    timings_ms: dict[str, float] = Field(default_factory=dict)


# --- administration (graphmem/store/admin.py) ------------------------------------------------


class GroupDeletion(BaseModel):
    """What ``delete_group`` removed: nodes by label (their relationships went with them)."""

    group_id: str
    deleted: dict[str, int] = Field(default_factory=dict)
    nodes: int = 0
    resumed: bool = False  # an earlier deletion of the group had not finished; this one did
    seconds: float = 0.0


class GroupRename(BaseModel):
    """What ``rename_group`` moved from ``old`` to ``new``."""

    old: str
    new: str
    nodes: int = 0
    resumed: bool = False
    seconds: float = 0.0
