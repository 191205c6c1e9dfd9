// Readable memory files (graphmem/analyst/markdown.py, `graphmem markdown`): MEMORY.md and USER.md.

// name: markdown_memories
// Every memory of the group a person should read: live ones and superseded ones (shown struck
// through); forgotten ones (archived, not superseded) are left out. Each with its subject (and
// whether it is the user), topic, object, attributes, what replaced it, and its causes.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' OR m.superseded_by IS NOT NULL OR EXISTS { (:Memory)-[:SUPERSEDES]->(m) }
OPTIONAL MATCH (m)-[:HAS_SUBJECT]->(s:Subject)
OPTIONAL MATCH (m)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
CALL (m) {
  OPTIONAL MATCH (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
  RETURN collect(CASE WHEN a IS NULL THEN null ELSE {key: a.key, value: v.name, parsed: v.parsed} END) AS attributes
}
CALL (m) {
  OPTIONAL MATCH (newer:Memory {group_id: $group_id})-[:SUPERSEDES]->(m)
  OPTIONAL MATCH (by_id:Memory {group_id: $group_id, id: m.superseded_by})
  WITH coalesce(newer, by_id) AS n
  RETURN collect(n.text)[0] AS superseded_by_text, count(n) > 0 AS superseded
}
CALL (m) {
  OPTIONAL MATCH (cause:Memory {group_id: $group_id})-[r:CAUSALITY]->(m)
  WHERE cause.status <> 'archived'
  RETURN collect(cause.text) AS causes
}
RETURN m.id AS id, m.memory_type AS memory_type, m.text AS text, m.importance AS importance,
       m.status AS status, m.occurred_at AS occurred_at, m.reference_time AS reference_time, m.created_at AS created_at,
       coalesce(m.invalid_at, null) AS invalid_at, superseded OR m.superseded_by IS NOT NULL AS superseded,
       superseded_by_text, causes,
       coalesce(s.name, m.subject_name) AS subject, s.kind AS subject_kind, coalesce(s.aliases, []) AS subject_aliases,
       coalesce(t.name, m.topic_name) AS topic, coalesce(o.name, m.object_name) AS object, attributes
ORDER BY m.created_at;
