// Writing memories. A memory is one :Memory node linked to shared concepts and its own
// Attribute -> Value pairs; every node carries the group_id. A name is one :Concept node within a
// group whatever role it plays: the role is the memory's edge (HAS_SUBJECT, HAS_TOPIC, HAS_OBJECT,
// an attribute's VALUE) and a label on the node (:Subject, :Topic, :Object, :Value; a node may
// carry several). (Subject)-[:MEMORY_TYPE]->(Topic)-[:CORE_RELATION]->(Object) reads like the sentence.

// name: create_memories
// One row per memory; called with one row for create_memory, many for a batch. Concepts are
// MERGEd on (group_id, normalized_name) of :Concept, which its uniqueness constraint makes safe
// under concurrent writers, then given the role's label; a node that has no embedding yet (a
// name first met as a Value) takes the one the row brings. A role label or a time value's iso is
// written only when missing: a Value shared by many memories (a day) is not locked for nothing.
// $rows[i].subject/topic/object: {key, name, id, embedding, kind}.
UNWIND $rows AS r
MERGE (s:Concept {group_id: $group_id, normalized_name: r.subject.key})
  ON CREATE SET s.id = r.subject.id, s.name = r.subject.name, s.aliases = [r.subject.name],
                s.embedding = r.subject.embedding, s.kind = r.subject.kind, s.created_at = r.memory.created_at
  ON MATCH SET s.aliases = CASE WHEN r.subject.name IN coalesce(s.aliases, []) THEN s.aliases
                                ELSE coalesce(s.aliases, []) + r.subject.name END
SET s:Subject
FOREACH (_ IN CASE WHEN s.embedding IS NULL AND r.subject.embedding IS NOT NULL THEN [1] ELSE [] END |
  SET s.embedding = r.subject.embedding)
MERGE (t:Concept {group_id: $group_id, normalized_name: r.topic.key})
  ON CREATE SET t.id = r.topic.id, t.name = r.topic.name, t.aliases = [r.topic.name],
                t.embedding = r.topic.embedding, t.created_at = r.memory.created_at
  ON MATCH SET t.aliases = CASE WHEN r.topic.name IN coalesce(t.aliases, []) THEN t.aliases
                                ELSE coalesce(t.aliases, []) + r.topic.name END
SET t:Topic
FOREACH (_ IN CASE WHEN t.embedding IS NULL AND r.topic.embedding IS NOT NULL THEN [1] ELSE [] END |
  SET t.embedding = r.topic.embedding)
CREATE (m:Memory {id: r.memory.id, group_id: $group_id})
SET m += r.memory.props, m.embedding = r.memory.embedding, m.access_count = 0
CREATE (m)-[:HAS_SUBJECT]->(s), (m)-[:HAS_TOPIC]->(t)
CREATE (s)-[:MEMORY_TYPE {memory_id: m.id, memory_type: m.memory_type, group_id: $group_id}]->(t)
FOREACH (o_ IN CASE WHEN r.object IS NULL THEN [] ELSE [r.object] END |
  MERGE (o:Concept {group_id: $group_id, normalized_name: o_.key})
    ON CREATE SET o.id = o_.id, o.name = o_.name, o.aliases = [o_.name], o.embedding = o_.embedding,
                  o.kind = o_.kind, o.created_at = r.memory.created_at
    ON MATCH SET o.aliases = CASE WHEN o_.name IN coalesce(o.aliases, []) THEN o.aliases
                                  ELSE coalesce(o.aliases, []) + o_.name END
  SET o:Object
  FOREACH (_ IN CASE WHEN o.embedding IS NULL AND o_.embedding IS NOT NULL THEN [1] ELSE [] END |
    SET o.embedding = o_.embedding)
  CREATE (m)-[:HAS_OBJECT]->(o)
  CREATE (t)-[:CORE_RELATION {memory_id: m.id, group_id: $group_id}]->(o))
FOREACH (a IN r.attributes |
  MERGE (v:Concept {group_id: $group_id, normalized_name: a.normalized})
    ON CREATE SET v.id = a.value_id, v.name = a.display, v.iso = a.iso, v.parsed = a.parsed,
                  v.created_at = r.memory.created_at
  FOREACH (_ IN CASE WHEN v:Value THEN [] ELSE [1] END |
    SET v:Value, v.iso = coalesce(v.iso, a.iso), v.parsed = coalesce(v.parsed, a.parsed))
  CREATE (m)-[:ATTRIBUTE {key: a.key}]->(:Attribute {id: a.id, group_id: $group_id, key: a.key, name: a.key,
                                         original: a.value, memory_id: m.id})-[:VALUE]->(v))
WITH r, m, s, t
// Evidence: a memory extracted from conversation turns links to them in its own transaction
// (graphmem/ingest passes r.memory.props.episode_ids), so it never exists without them.
CALL (m, r) {
  UNWIND coalesce(r.memory.props.episode_ids, []) AS eid
  MATCH (e:Episode {group_id: $group_id, id: eid})
  MERGE (m)-[:EXTRACTED_FROM]->(e)
  RETURN count(e) AS evidence
}
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
RETURN m.id AS memory_id, s.id AS subject_id, s.name AS subject_name, t.id AS topic_id,
       t.name AS topic_name, o.id AS object_id, o.name AS object_name;

// name: link_causality
// A causal edge between two memories: from the cause (a) to the effect (b).
MATCH (a:Memory {group_id: $group_id, id: $source_id}), (b:Memory {group_id: $group_id, id: $target_id})
MERGE (a)-[e:CAUSALITY {relation: $relation}]->(b)
ON CREATE SET e.created_at = $now, e.group_id = $group_id
SET e.importance = $importance, e.strength = $importance, e.discovered = $discovered, e.confidence = $confidence
RETURN a.id AS source_id, b.id AS target_id, type(e) AS edge_type;

// name: link_reference
// A reference edge (references / based on / related) from a to b.
MATCH (a:Memory {group_id: $group_id, id: $source_id}), (b:Memory {group_id: $group_id, id: $target_id})
MERGE (a)-[e:REFERENCE {relation: $relation}]->(b)
ON CREATE SET e.created_at = $now, e.group_id = $group_id
SET e.importance = $importance, e.strength = $importance, e.discovered = $discovered, e.confidence = $confidence
RETURN a.id AS source_id, b.id AS target_id, type(e) AS edge_type;

// name: update_importance
MATCH (m:Memory {group_id: $group_id, id: $id})
SET m.importance = $importance, m.updated_at = $now
RETURN m.id AS id, m.importance AS importance;

// name: set_status
// Soft forget (archived) and restore: nothing is deleted. Archiving remembers the status the
// memory had; $status null (restore) puts that status back (staged if unknown).
MATCH (m:Memory {group_id: $group_id, id: $id})
WITH m, CASE WHEN m.status = 'archived' THEN m.status_before_archive ELSE m.status END AS live
SET m.status = coalesce($status, live, 'staged'), m.updated_at = $now,
    m.status_before_archive = CASE WHEN $status = 'archived' THEN live ELSE null END,
    m.archived_at = CASE WHEN $status = 'archived' THEN $now ELSE null END
RETURN m.id AS id, m.status AS status;

// name: record_access
// Access statistics, written off the read path in batches.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now;
