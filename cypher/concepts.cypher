// Concept nodes (Subject, Topic, Object): lookup and candidate search for resolution.

// name: concept_exact
// Existing concept nodes of a group by normalised name, one row per requested item.
UNWIND $items AS it
OPTIONAL MATCH (s:Subject {group_id: $group_id, normalized_name: it.key}) WHERE it.label = 'Subject'
OPTIONAL MATCH (t:Topic {group_id: $group_id, normalized_name: it.key}) WHERE it.label = 'Topic'
OPTIONAL MATCH (o:Object {group_id: $group_id, normalized_name: it.key}) WHERE it.label = 'Object'
WITH it, coalesce(s, t, o) AS n
RETURN it.label AS label, it.key AS key, n.id AS id, n.name AS name, n.normalized_name AS normalized_name;

// name: vector_index_topk
// Global top-$fetch from a vector index, keeping the hits of one group. Scores are (1 + cosine) / 2.
CALL db.index.vector.queryNodes($index, $fetch, $embedding) YIELD node, score
WITH count(*) AS returned,
     collect(CASE WHEN node.group_id = $group_id THEN {id: node.id, name: coalesce(node.name, node.text), normalized_name: node.normalized_name, score: score} END) AS hits
RETURN returned, hits[0..$k] AS hits;

// name: topic_exact_topk
// Exact cosine scan over one group's topics: used when the index cannot reach a small group.
MATCH (n:Topic {group_id: $group_id}) WHERE n.embedding IS NOT NULL
WITH n, vector.similarity.cosine(n.embedding, $embedding) AS score ORDER BY score DESC LIMIT $k
RETURN collect({id: n.id, name: n.name, normalized_name: n.normalized_name, score: score}) AS hits;

// name: object_exact_topk
MATCH (n:Object {group_id: $group_id}) WHERE n.embedding IS NOT NULL
WITH n, vector.similarity.cosine(n.embedding, $embedding) AS score ORDER BY score DESC LIMIT $k
RETURN collect({id: n.id, name: n.name, normalized_name: n.normalized_name, score: score}) AS hits;

// name: memory_exact_topk
// Exact cosine scan over one group's live memories.
MATCH (n:Memory {group_id: $group_id}) WHERE n.status <> 'archived' AND n.embedding IS NOT NULL
WITH n, vector.similarity.cosine(n.embedding, $embedding) AS score ORDER BY score DESC LIMIT $k
RETURN collect({id: n.id, name: n.text, score: score}) AS hits;

// name: topic_context
// Does an existing topic appear in memories of the same type with the same subject?
MATCH (t:Topic {group_id: $group_id, id: $id})<-[:HAS_TOPIC]-(m:Memory {memory_type: $memory_type})-[:HAS_SUBJECT]->(s:Subject)
WHERE s.normalized_name = $neighbour_key
RETURN count(m) > 0 AS agrees;

// name: object_context
// Does an existing object appear in memories of the same type under the same topic?
MATCH (o:Object {group_id: $group_id, id: $id})<-[:HAS_OBJECT]-(m:Memory {memory_type: $memory_type})-[:HAS_TOPIC]->(t:Topic)
WHERE t.normalized_name = $neighbour_key
RETURN count(m) > 0 AS agrees;

// name: vector_index_topk_batch
// vector_index_topk for many embeddings in one round trip (batch writes).
UNWIND $items AS it
CALL (it) {
  CALL db.index.vector.queryNodes($index, $fetch, it.embedding) YIELD node, score
  WITH count(*) AS returned,
       collect(CASE WHEN node.group_id = $group_id THEN {id: node.id, name: node.name, normalized_name: node.normalized_name, score: score} END) AS hits
  RETURN returned, hits[0..$k] AS hits
}
RETURN it.key AS key, returned, hits;
