"""The graph model as neomodel classes: for analysts and notebooks, not for the hot path.

The engine writes with Cypher (``graphmem/cypher/memory_write.cypher``); these classes describe the
same nodes, properties and relationships so that a notebook can read them as objects::

    from graphmem.store.models import connect, Memory
    connect()                                    # graphmem.toml / NEO4J_* like the rest of graphmem
    for m in Memory.nodes.filter(group_id="alice", status="staged"):
        print(m.text, [s.name for s in m.subject.all()], [e.text for e in m.causes.all()])

The schema (constraints, vector and fulltext indexes) is installed by ``graphmem init`` from
``graphmem/cypher/schema.cypher``: the index flags here document it (a test checks that they agree)
but do not run neomodel's ``install_labels`` on a graphmem database, which would try to add
the same indexes under other names. Composite uniqueness, (group_id, normalized_name) on
Subject/Topic/Object/Value, cannot be expressed as a neomodel flag; it is in schema.cypher.

Every node has ``group_id`` (the tenant): filter on it, always. The memory's id is ``uid`` in
Python (neomodel reserves ``id``) and ``id`` in the database. Timestamps are ISO 8601 strings.
"""

from __future__ import annotations

from typing import Any

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    FloatProperty,
    FulltextIndex,
    IntegerProperty,
    One,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    VectorIndex,
    ZeroOrOne,
)

EMBEDDING_DIMENSIONS = (
    1280  # the default: e5 384 + bge-small-en 384 + bge-small-zh 512; the index follows the configured model
)


def _embedding(indexed: bool = True) -> ArrayProperty:
    index = VectorIndex(dimensions=EMBEDDING_DIMENSIONS, similarity_function="cosine") if indexed else None
    return ArrayProperty(FloatProperty(), vector_index=index)


# --- relationships with properties ----------------------------------------------------------------


class MemoryTypeRel(StructuredRel):
    """(Subject)-[:MEMORY_TYPE]->(Topic): one per memory, so the pair reads like its sentence."""

    memory_id = StringProperty()
    memory_type = StringProperty(choices={"EVENT": "事件", "FACT": "事实", "RELATION": "关系", "OPINION": "观点"})
    group_id = StringProperty()


class CoreRelationRel(StructuredRel):
    """(Topic)-[:CORE_RELATION]->(Object), one per memory that has an object."""

    memory_id = StringProperty()
    group_id = StringProperty()


class AttributeRel(StructuredRel):
    """(Memory)-[:ATTRIBUTE {key}]->(Attribute)."""

    key = StringProperty()


class MemoryLinkRel(StructuredRel):
    """(Memory)-[:CAUSALITY|REFERENCE]->(Memory). CAUSALITY goes from the cause to the effect."""

    relation = StringProperty()  # because, so, causes | references, based_on, related
    importance = FloatProperty()
    strength = FloatProperty()
    discovered = BooleanProperty()  # found by consolidation rather than said
    confidence = FloatProperty()
    created_at = StringProperty()
    group_id = StringProperty()


# --- nodes -------------------------------------------------------------------------------------------


class Memory(StructuredNode):
    """One memory: the unit that is written, retrieved, linked, decayed and archived."""

    uid = StringProperty(db_property="id", unique_index=True, required=True)
    group_id = StringProperty(index=True, required=True)
    memory_type = StringProperty(choices={"EVENT": "事件", "FACT": "事实", "RELATION": "关系", "OPINION": "观点"})
    text = StringProperty(fulltext_index=FulltextIndex(analyzer="cjk"))
    importance = FloatProperty()
    status = StringProperty(
        choices={"staged": "staged", "consolidated": "consolidated", "archived": "archived"}, index=True
    )
    occurred_at = StringProperty(index=True)
    created_at = StringProperty()
    updated_at = StringProperty()
    archived_at = StringProperty()
    reference_time = StringProperty()
    last_accessed_at = StringProperty()
    access_count = IntegerProperty(default=0)
    session_id = StringProperty()
    source = StringProperty()  # api, tool, cli, ingest ...
    subject_name = StringProperty()  # the names as written, for reading without a hop
    topic_name = StringProperty()
    object_name = StringProperty()
    superseded_by = StringProperty()
    invalid_at = StringProperty()
    embedding = _embedding()

    subject = RelationshipTo("Subject", "HAS_SUBJECT", cardinality=One)
    topic = RelationshipTo("Topic", "HAS_TOPIC", cardinality=One)
    object = RelationshipTo("Object", "HAS_OBJECT", cardinality=ZeroOrOne)
    attributes = RelationshipTo("Attribute", "ATTRIBUTE", model=AttributeRel)
    causes = RelationshipTo("Memory", "CAUSALITY", model=MemoryLinkRel)  # this → its effects
    caused_by = RelationshipFrom("Memory", "CAUSALITY", model=MemoryLinkRel)  # its causes → this
    references = RelationshipTo("Memory", "REFERENCE", model=MemoryLinkRel)
    referenced_by = RelationshipFrom("Memory", "REFERENCE", model=MemoryLinkRel)
    episodes = RelationshipTo("Episode", "EXTRACTED_FROM")

    def attribute_map(self) -> dict[str, str]:
        """{key: normalised value}, e.g. {"时间": "2025-11-04 夜间"}."""
        out = {}
        for attribute in self.attributes.all():  # type: ignore[attr-defined]  # a manager on an instance
            value = attribute.value.single()
            out[attribute.key] = value.name if value else attribute.original
        return out


class _Concept(StructuredNode):
    """Subject, Topic, Object and Value share their shape: one node per (group_id, normalized_name),
    labelled :Concept beside its role (one node per name), so a node reads back as its role's class."""

    __label__ = "Concept"
    uid = StringProperty(db_property="id", unique_index=True, required=True)
    group_id = StringProperty(index=True, required=True)
    name = StringProperty(fulltext_index=FulltextIndex(analyzer="cjk"))  # the first spelling seen
    normalized_name = StringProperty(required=True)  # casefolded, NFKC; "@user" / "@agent" for the two speakers
    aliases = ArrayProperty(StringProperty())  # every spelling merged into this node
    created_at = StringProperty()
    embedding = _embedding()


class Subject(_Concept):
    """Who a memory is about. The user (我/I/用户) and the agent (你/you/助手) are one node each."""

    kind = StringProperty(choices={"user": "user", "agent": "agent"})
    memories = RelationshipFrom("Memory", "HAS_SUBJECT")
    topics = RelationshipTo("Topic", "MEMORY_TYPE", model=MemoryTypeRel)


class Topic(_Concept):
    """What a memory is about: an action or a state (吃饭, 情绪, eat, mood)."""

    memories = RelationshipFrom("Memory", "HAS_TOPIC")
    subjects = RelationshipFrom("Subject", "MEMORY_TYPE", model=MemoryTypeRel)
    objects = RelationshipTo("Object", "CORE_RELATION", model=CoreRelationRel)


class Object(_Concept):
    """The object of a memory (白米饭, 不开心, rice)."""

    memories = RelationshipFrom("Memory", "HAS_OBJECT")
    topics = RelationshipFrom("Topic", "CORE_RELATION", model=CoreRelationRel)


class Attribute(StructuredNode):
    """One attribute of one memory (时间, 地点, place ...), pointing at its shared Value."""

    uid = StringProperty(db_property="id", unique_index=True, required=True)
    group_id = StringProperty(required=True)
    key = StringProperty()
    name = StringProperty()
    original = StringProperty()  # as written: 昨晚
    memory_id = StringProperty()
    value = RelationshipTo("Value", "VALUE", cardinality=One)
    memory = RelationshipFrom("Memory", "ATTRIBUTE", model=AttributeRel, cardinality=One)


class Value(_Concept):
    """A normalised attribute value (2025-11-04 夜间), shared by the group's equal values."""

    name = StringProperty()  # the normalised display form (no fulltext index of its own)
    embedding = _embedding(indexed=False)  # when the value is also a topic or an object: their indexes
    iso = StringProperty()  # ISO date/datetime when the value is a time
    parsed = BooleanProperty()  # False: a time expression that was not understood (kept verbatim)
    created_at = StringProperty()
    attributes = RelationshipFrom("Attribute", "VALUE")


class Episode(StructuredNode):
    """A raw conversation turn (or a chunk of one) that memories were extracted from."""

    uid = StringProperty(db_property="id", unique_index=True, required=True)
    group_id = StringProperty(required=True)
    session_id = StringProperty()
    role = StringProperty()
    speaker = StringProperty()
    content = StringProperty(fulltext_index=FulltextIndex(analyzer="cjk"))
    timestamp = StringProperty()
    order = IntegerProperty()
    chunk = IntegerProperty()
    chunks = IntegerProperty()
    external_id = StringProperty()
    source = StringProperty()
    created_at = StringProperty()
    embedding = _embedding()
    next = RelationshipTo("Episode", "NEXT", cardinality=ZeroOrOne)
    memories = RelationshipFrom("Memory", "EXTRACTED_FROM")


NODE_CLASSES = (Memory, Subject, Topic, Object, Attribute, Value, Episode)


def connect(settings: Any = None, *, driver: Any = None) -> Any:
    """Point neomodel at graphmem's Neo4j (settings as everywhere else) or at a given driver.

    Returns the driver. neomodel's connection is process-wide.
    """
    from neomodel import db, get_config

    if driver is None:
        from ..config import load_settings
        from .driver import Store

        settings = settings or load_settings()
        driver = Store(settings).driver
    if settings is not None:
        get_config().database_name = settings.neo4j.database
    db.set_connection(driver=driver)
    return driver
