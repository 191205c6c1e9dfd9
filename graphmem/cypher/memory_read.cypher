// Reading memories back.

// name: get_memory
// One memory with its concepts, attributes and links to other memories.
MATCH (m:Memory {group_id: $group_id, id: $id})
OPTIONAL MATCH (m)-[:HAS_SUBJECT]->(s:Subject)
OPTIONAL MATCH (m)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
CALL (m) {
  OPTIONAL MATCH (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
  RETURN collect({key: a.key, value: v.name, original: a.original, iso: v.iso, parsed: v.parsed}) AS attributes
}
CALL (m) {
  OPTIONAL MATCH (m)-[e:CAUSALITY|REFERENCE]-(other:Memory)
  RETURN collect(CASE WHEN other IS NULL THEN null ELSE
    {edge_type: type(e), relation: e.relation, direction: CASE WHEN startNode(e) = m THEN 'out' ELSE 'in' END,
     other_id: other.id, other_text: other.text, importance: e.importance, discovered: e.discovered} END) AS links
}
RETURN m {.*, embedding: null} AS memory, s.name AS subject, t.name AS topic, o.name AS object, attributes, links;

// name: list_memories
// A page of a group's memories, newest first.
MATCH (m:Memory {group_id: $group_id})
WHERE ($status IS NULL OR m.status = $status) AND ($memory_type IS NULL OR m.memory_type = $memory_type)
RETURN m {.*, embedding: null} AS memory
ORDER BY m.created_at DESC SKIP $skip LIMIT $limit;

// name: count_memories
MATCH (m:Memory {group_id: $group_id}) RETURN count(m) AS n;

// name: memory_fulltext
// BM25 over memory texts (cjk analyzer), narrowed to one group in Lucene and checked again here.
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $k}) YIELD node, score
WHERE node.group_id = $group_id AND node.status <> 'archived'
RETURN node.id AS id, node.text AS name, score;

// name: memory_similarity
// Similarity of given memories to a query embedding ((1 + cosine) / 2).
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})
RETURN m.id AS id, vector.similarity.cosine(m.embedding, $embedding) AS score;
