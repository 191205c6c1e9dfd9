// Concept nodes (one :Concept node per name, labelled with its roles: Subject, Topic, Object,
// Value): lookup and candidate search for resolution.

// name: vector_index_topk
// Global top-$fetch from a vector index, keeping the group's live hits (archived memories are
// forgotten: never matched). Scores are (1 + cosine) / 2.
CALL db.index.vector.queryNodes($index, $fetch, $embedding) YIELD node, score
WITH count(*) AS returned,
     collect(CASE WHEN node.group_id = $group_id AND coalesce(node.status, '') <> 'archived' THEN {id: node.id, name: coalesce(node.name, node.text), normalized_name: node.normalized_name, score: score} END) AS hits
RETURN returned, hits[0..$k] AS hits;

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

// name: resolve_concepts
// Concept resolution in one round trip (seed 004 §5.1): for each requested concept
// ($items: {label, key, index, embedding, contexts: [{ref, memory_type, neighbour_key}]}),
// the node with the same normalised name in any role (one :Concept node per name), else the
// group's nearest nodes of the same label: from the vector index (global top-$fetch, kept when
// in the group), or by an exact cosine scan of the group when the index is starved by other
// groups. Hits above $context_min (index units, (1 + cosine) / 2) list the contexts they agree
// with: a topic used by memories of the same type with the same subject, an object used under
// the same topic with the same type. `embedded`: whether the node found has an embedding (every
// Subject, Topic and Object has one; a name only written as a Value has none: the write brings it).
UNWIND $items AS it
CALL (it) {
  OPTIONAL MATCH (n:Concept {group_id: $group_id, normalized_name: it.key})
  // a name consolidation merged away (its :ConceptMerge record): the node it went into, or the
  // node that node itself went into since (merged_ids)
  OPTIONAL MATCH (rec:ConceptMerge {group_id: $group_id, merged_key: it.key})
  WHERE n IS NULL AND rec.undone_at IS NULL
  WITH n, rec ORDER BY rec.merged_at DESC LIMIT 1
  OPTIONAL MATCH (s:Concept {id: rec.survivor_id}) WHERE s.group_id = $group_id
  OPTIONAL CALL (rec, s) {
    // (an UNWIND of nothing, not a WHERE: Neo4j would apply the WHERE after reading every :Concept node)
    UNWIND CASE WHEN rec IS NOT NULL AND s IS NULL THEN [rec.survivor_id] ELSE [] END AS gone
    MATCH (later:Concept {group_id: $group_id}) WHERE gone IN coalesce(later.merged_ids, [])
    RETURN later LIMIT 1
  }
  WITH n, coalesce(s, later) AS s2
  WITH coalesce(n, s2) AS m, n IS NULL AND s2 IS NOT NULL AS alias
  RETURN m.id AS id, m.name AS name, m.normalized_name AS node_key, alias, m:Subject OR m:Topic OR m:Object AS embedded
}
CALL (it, id) {
  WITH it WHERE id IS NULL AND it.index IS NOT NULL AND it.embedding IS NOT NULL
  CALL db.index.vector.queryNodes(it.index, $fetch, it.embedding) YIELD node, score
  WITH count(*) AS returned, collect(CASE WHEN node.group_id = $group_id THEN {node: node, score: score} END) AS found
  RETURN returned, found[0..$k] AS found
}
CALL (it, id, returned, found) {
  WITH it WHERE id IS NULL AND it.index IS NOT NULL AND it.embedding IS NOT NULL
           AND size(found) < $k AND returned >= $fetch
  CALL (it) {
    MATCH (n:Topic {group_id: $group_id}) WHERE it.label = 'Topic' AND n.embedding IS NOT NULL RETURN n
    UNION ALL
    MATCH (n:Object {group_id: $group_id}) WHERE it.label = 'Object' AND n.embedding IS NOT NULL RETURN n
  }
  WITH n, vector.similarity.cosine(n.embedding, it.embedding) AS score ORDER BY score DESC LIMIT $k
  RETURN collect({node: n, score: score}) AS scanned
}
WITH it, id, name, node_key, alias, embedded, CASE WHEN size(scanned) > 0 THEN scanned ELSE found END AS found
CALL (it, found) {
  UNWIND found AS f
  WITH it, f.node AS n, f.score AS score
  RETURN collect({id: n.id, name: n.name, normalized_name: n.normalized_name, score: score,
    agrees: CASE WHEN score <= $context_min THEN [] ELSE
      [c IN it.contexts WHERE
         (it.label = 'Topic' AND EXISTS { (n)<-[:HAS_TOPIC]-(:Memory {memory_type: c.memory_type})
                                          -[:HAS_SUBJECT]->(:Subject {group_id: $group_id, normalized_name: c.neighbour_key}) })
      OR (it.label = 'Object' AND EXISTS { (n)<-[:HAS_OBJECT]-(:Memory {memory_type: c.memory_type})
                                          -[:HAS_TOPIC]->(:Topic {group_id: $group_id, normalized_name: c.neighbour_key}) })
      | c.ref] END}) AS hits
}
RETURN it.label AS label, it.key AS key, id, name, node_key, alias, embedded, hits;

// name: role_people
// For each role of $roles ({role, topics: the normalised words of the role, unnamed: the normalised names
// the user's one in it is written with, 我同事, 我的同事, my colleague}): the people the user named in it
// (the Object of a current RELATION memory of the user's whose Topic is a word of the role: 我 | 同事 |
// 李明), and the nodes of the user's one said unnamed. Looked up by name (the (group_id, normalized_name)
// constraints), never by a scan of the group.
UNWIND $roles AS r
CALL (r) {
  UNWIND r.topics AS word
  MATCH (:Topic {group_id: $group_id, normalized_name: word})<-[:HAS_TOPIC]-(m:Memory)-[:HAS_OBJECT]->(p)
  WHERE m.memory_type = 'RELATION' AND m.status <> 'archived' AND m.superseded_by IS NULL AND p.kind IS NULL
    AND EXISTS { (m)-[:HAS_SUBJECT]->(:Concept {kind: 'user'}) }
  RETURN collect(DISTINCT {id: p.id, name: p.name}) AS named
}
CALL (r) {
  UNWIND r.unnamed AS key
  MATCH (u:Concept {group_id: $group_id, normalized_name: key})
  WHERE u.kind IS NULL
  RETURN collect(DISTINCT {id: u.id, name: u.name,
                           label: [l IN labels(u) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']][0]}) AS unnamed
}
RETURN r.role AS role, named, unnamed;
