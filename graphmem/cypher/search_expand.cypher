// Graph expansion (graphmem/retriever/expand.py) and the evidence of results. Every query is
// scoped to $group_id; filters as in search_memories.cypher.

// name: search_expand
// One level of the breadth-first walk: the memories one hop from $frontier, not in $seen (a
// memory found directly may come back: a strong path can rank it higher, retriever/walk.py).
// Hops: CAUSALITY/REFERENCE edges in either direction (direction kept), and shared
// Subject/Topic/Object/Value nodes, one node per entity whatever role it plays in each memory. A concept or value linked to more than $hub_cap memories is
// not walked through; through one linked to more than $fanout memories (the user, a frequent
// topic) only the memories in $related (the search's direct matches) are taken, at most $fanout,
// the most important first; through any other all of them. Each step carries the concept's `degree`
// (its memories: a concept shared by few joins them as a link does). $causal / $ref_relations /
// $concepts carry the relation filters: with filters set, only the matching memory-to-memory
// edges are walked. The neighbours pass the same filters as seeds ($start/$end here are the
// caller's explicit time range only; $as_of/$as_of_end apply as to seeds). Each neighbour comes once, with up to 4 ways it was
// reached. Only the best $keep neighbours come back: those reached along a link or through a
// concept linked to at most $rare memories first, then by $alpha·cosine + $beta·importance (the
// two largest parts of the score that vary within a level; the search's ranking profile's,
// rank.prerank_params): ranked here because the cut happens here; rank.Scorer scores what comes
// back. $embedding null: the caller holds the group's vectors (retriever/vectors.py) and
// computes the cosines itself: the query reads no embedding (the costliest property to read) and
// returns up to $keep, which the caller then sets large enough for all (rank.prerank).
UNWIND $frontier AS fid
MATCH (m:Memory {id: fid})
WHERE m.group_id = $group_id
WITH collect(m) AS frontier
// the direct matches and the concepts and values each links, read once (a few edges each): a hub is
// crossed to those that link it, never by reading every memory the hub links, which grows with the group
CALL () {
  UNWIND $related AS rid
  MATCH (r:Memory {id: rid})
  WHERE r.group_id = $group_id
  RETURN collect({memory: r, links: COLLECT { MATCH (r)-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c) RETURN c }
                                    + COLLECT { MATCH (r)-[:ATTRIBUTE]->(:Attribute)-[:VALUE]->(v:Value) RETURN v }}) AS related
}
CALL (frontier, related) {
  UNWIND frontier AS m
  CALL (m) {
    MATCH (m)-[e:CAUSALITY|REFERENCE]-(n:Memory)
    WHERE NOT n.id IN $seen
      AND ((type(e) = 'CAUSALITY' AND $causal)
           OR (type(e) = 'REFERENCE' AND ($ref_relations IS NULL OR e.relation IN $ref_relations)))
    WITH n, e LIMIT $edge_fanout
    RETURN n, type(e) AS edge, e.relation AS relation,
           CASE WHEN startNode(e) = m THEN 'out' ELSE 'in' END AS direction
  }
  RETURN m, n, edge, relation, direction, null AS via, null AS via_label, null AS degree
  UNION ALL
  UNWIND frontier AS m
  WITH m WHERE $concepts
  CALL (m) {
    MATCH (m)-[r:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c)
    RETURN c, type(r) AS edge, null AS key, labels(c)[0] AS label
    UNION
    MATCH (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(c:Value)
    RETURN c, 'VALUE' AS edge, a.key AS key, 'Value' AS label
  }
  WITH c, edge, label, collect(m) AS linked, collect(key)[0] AS key
  WITH c, edge, label, linked, key,
       COUNT { (c)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-() } + COUNT { (c)<-[:VALUE]-() } AS degree
  WHERE degree <= $hub_cap
  CALL (c, degree, linked, related) {
    // one node per entity: a name reached in one role (Object) leads to its memories in every role
    CALL (c, degree, related) {
      WITH c WHERE degree <= $fanout
      MATCH (c)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(n:Memory)
      RETURN n
      UNION
      WITH c WHERE degree <= $fanout
      MATCH (c)<-[:VALUE]-(:Attribute)<-[:ATTRIBUTE]-(n:Memory)
      RETURN n
      UNION
      WITH c, related WHERE degree > $fanout
      UNWIND [r IN related WHERE c IN r.links | r.memory] AS n
      RETURN n
    }
    WITH n LIMIT $sample
    WHERE NOT n.id IN $seen AND NOT (size(linked) = 1 AND n = linked[0])
      AND ($include_archived OR n.status <> 'archived')
      AND ($types IS NULL OR n.memory_type IN $types)
    WITH n ORDER BY n.importance DESC, coalesce(n.occurred_at, n.reference_time, n.created_at) DESC LIMIT $fanout
    RETURN n
  }
  RETURN [x IN linked WHERE x <> n][0] AS m, n, edge, key AS relation, null AS direction, c.name AS via,
         label AS via_label, degree
}
WITH m, n, edge, relation, direction, via, via_label, degree
WHERE m IS NOT NULL AND n.group_id = $group_id
  AND ($include_archived OR n.status <> 'archived')
  AND ($types IS NULL OR n.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(n.occurred_at, n.reference_time, n.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(n.occurred_at, n.reference_time, n.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (n)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(n.valid_from, n.occurred_at, n.reference_time, n.created_at)) <= datetime($as_of_end) AND (n.valid_until IS NULL OR datetime(n.valid_until) > datetime($as_of))))
WITH n, collect({from_id: m.id, edge: edge, relation: relation, direction: direction, via: via,
                 via_label: via_label, degree: degree}) AS steps
WITH n, steps, CASE WHEN $embedding IS NOT NULL THEN vector.similarity.cosine(n.embedding, $embedding) END AS score,
     any(s IN steps WHERE s.degree IS NULL OR s.degree <= $rare) AS strong
ORDER BY strong DESC, $alpha * (2 * coalesce(score, 0.5) - 1) + $beta * coalesce(n.importance, 0.5) DESC
LIMIT $keep
// one row holding the list: the driver decodes one message instead of one per neighbour
RETURN collect({memory: n {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                           .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
                score: score, steps: steps[0..4],
                // the turns it was extracted from, for a process that holds them ($with_sources)
                sources: CASE WHEN $with_sources
                              THEN [(n)-[:EXTRACTED_FROM]->(e:Episode) WHERE e.group_id = $group_id | e.id] END}) AS neighbours;

// name: search_memory_slots
// Whose slot each memory states, and its topic: a question about now puts a present home or job
// before a past one (retriever/results.py present_before_past).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.group_id = $group_id
RETURN m.id AS id, m.topic_name AS topic, m.slot AS slot, m.subject_name AS subject;

// name: search_evidence
// The episodes (conversation turns) each memory was extracted from, oldest first.
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.group_id = $group_id
CALL (m) {
  MATCH (m)-[:EXTRACTED_FROM]->(e:Episode)
  WHERE e.group_id = $group_id
  WITH e ORDER BY e.timestamp, e.order LIMIT $per_memory
  RETURN collect(e {.id, .content, .timestamp, .session_id, .speaker, .role}) AS evidence
}
RETURN m.id AS id, evidence;
