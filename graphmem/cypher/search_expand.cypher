// Graph expansion (graphmem/retriever/expand.py) and the evidence of results. Every query is
// scoped to $group_id; filters as in search_memories.cypher.

// name: search_expand
// One level of the breadth-first walk: the memories one hop from $frontier, not yet $seen
// ($seen holds the frontier too). Hops: CAUSALITY/REFERENCE edges in either direction
// (direction kept), and shared Subject/Topic/Object/Value nodes. A concept or value linked to
// more than $hub_cap memories is a hub and is not walked through; through any other, at most
// $fanout memories are taken: the most important (then most recent) of the first $sample
// linked to it that Neo4j walks to, so a well-used concept costs $sample rows, not its degree. A concept shared by several frontier memories is
// walked once, from the first of them ($frontier is best first). $causal / $ref_relations /
// $concepts carry the relation filters: with filters set, only the matching memory-to-memory
// edges are walked. The neighbours pass the same filters as seeds ($start/$end here are the
// caller's explicit time range only; $as_of/$as_of_end apply as to seeds). Each neighbour comes once, with up to 4 ways it was
// reached. Only the best $keep neighbours by $alpha·cosine + $beta·importance (the two largest
// parts of the score that vary within a level; the search's ranking profile's, rank.prerank_params)
// come back: ranked here because the cut happens here; rank.Scorer scores what comes back.
// $embedding null: the caller holds the group's vectors (retriever/vectors.py) and computes the
// cosines itself: the query reads no embedding (the costliest property to read), ranks by
// importance alone and returns up to $keep, which the caller then sets large enough for all.
UNWIND $frontier AS fid
MATCH (m:Memory {id: fid})
WHERE m.group_id = $group_id
WITH collect(m) AS frontier
CALL (frontier) {
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
  RETURN m, n, edge, relation, direction, null AS via, null AS via_label
  UNION ALL
  UNWIND frontier AS m
  WITH m WHERE $concepts
  MATCH (m)-[r:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c)
  WITH c, type(r) AS edge, collect(m) AS linked
  WHERE COUNT { (c)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-() } <= $hub_cap
  CALL (c) {
    MATCH (c)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(n:Memory)
    WITH n LIMIT $sample
    WHERE NOT n.id IN $seen
      AND ($include_archived OR n.status <> 'archived')
      AND ($types IS NULL OR n.memory_type IN $types)
    WITH n ORDER BY n.importance DESC, coalesce(n.occurred_at, n.created_at) DESC LIMIT $fanout
    RETURN n
  }
  RETURN linked[0] AS m, n, edge, null AS relation, null AS direction, c.name AS via, labels(c)[0] AS via_label
  UNION ALL
  UNWIND frontier AS m
  WITH m WHERE $concepts
  MATCH (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
  WITH v, collect(m) AS linked, collect(a.key)[0] AS key
  WHERE COUNT { (v)<-[:VALUE]-() } <= $hub_cap
  CALL (v) {
    MATCH (v)<-[:VALUE]-(:Attribute)<-[:ATTRIBUTE]-(n:Memory)
    WITH n LIMIT $sample
    WHERE NOT n.id IN $seen
      AND ($include_archived OR n.status <> 'archived')
      AND ($types IS NULL OR n.memory_type IN $types)
    WITH n ORDER BY n.importance DESC, coalesce(n.occurred_at, n.created_at) DESC LIMIT $fanout
    RETURN n
  }
  RETURN linked[0] AS m, n, 'VALUE' AS edge, key AS relation, null AS direction, v.name AS via,
         'Value' AS via_label
}
WITH m, n, edge, relation, direction, via, via_label
WHERE n.group_id = $group_id
  AND ($include_archived OR n.status <> 'archived')
  AND ($types IS NULL OR n.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(n.occurred_at, n.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(n.occurred_at, n.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (n)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(n.valid_from, n.occurred_at, n.reference_time, n.created_at)) <= datetime($as_of_end) AND (n.valid_until IS NULL OR datetime(n.valid_until) > datetime($as_of))))
WITH n, collect({from_id: m.id, edge: edge, relation: relation, direction: direction, via: via,
                 via_label: via_label}) AS steps
WITH n, steps, CASE WHEN $embedding IS NOT NULL THEN vector.similarity.cosine(n.embedding, $embedding) END AS score
ORDER BY $alpha * (2 * coalesce(score, 0.5) - 1) + $beta * coalesce(n.importance, 0.5) DESC
LIMIT $keep
// one row holding the list: the driver decodes one message instead of one per neighbour
RETURN collect({memory: n {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                           .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
                score: score, steps: steps[0..4],
                // the turns it was extracted from, for a process that holds them ($with_sources)
                sources: CASE WHEN $with_sources
                              THEN [(n)-[:EXTRACTED_FROM]->(e:Episode) WHERE e.group_id = $group_id | e.id] END}) AS neighbours;

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
