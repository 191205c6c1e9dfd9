// Queries of the library's own benchmarks (graphmem/bench/: write, search, faults): the exact-scan
// baseline and the synthetic graphs of `graphmem bench search`. Every query is scoped to $group_id.
// The dataset runners keep theirs beside them, in benchmarks/ (a package the library never imports).

// name: search_exact_baseline
// The way Graphiti and Mem0 search Neo4j: cosine against every memory of the group, no
// vector index. Kept for `graphmem bench search`, which compares it with search_memories.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status IS NOT NULL AND m.status <> 'archived'
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
RETURN m.id AS id, m.text AS text, score;

// name: search_exact_baseline_turns
// The same for a conversation: cosine against every turn of the group (how a system that keeps
// only the raw turns searches them), no vector index.
MATCH (e:Episode {group_id: $group_id})
WHERE e.session_id IS NOT NULL
WITH e, vector.similarity.cosine(e.embedding, $embedding) AS score
ORDER BY score DESC, e.timestamp DESC LIMIT $k
RETURN e.id AS id, e.content AS text, score;


// --- synthetic graphs (`graphmem bench search`) ------------------------------------------

// name: synthetic_subjects
// Concept and value nodes of a synthetic group, shaped like create_memories writes them.
UNWIND $rows AS r
CREATE (:Subject:Concept {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                  embedding: r.embedding, kind: r.kind, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_topics
UNWIND $rows AS r
CREATE (:Topic:Concept {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                embedding: r.embedding, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_objects
UNWIND $rows AS r
CREATE (:Object:Concept {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                 embedding: r.embedding, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_values
UNWIND $rows AS r
CREATE (:Value:Concept {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, iso: r.name, parsed: true,
                created_at: $now})
RETURN count(*) AS written;

// name: synthetic_memories
// Memories of a synthetic group, shaped like create_memories writes them, in one batch.
UNWIND $rows AS r
MATCH (s:Subject {group_id: $group_id, normalized_name: r.subject})
MATCH (t:Topic {group_id: $group_id, normalized_name: r.topic})
MATCH (o:Object {group_id: $group_id, normalized_name: r.object})
MATCH (v:Value {group_id: $group_id, normalized_name: r.day})
CREATE (m:Memory {id: r.id, group_id: $group_id, memory_type: r.memory_type, text: r.text,
                  importance: r.importance, status: r.status, occurred_at: r.occurred_at, created_at: r.created_at,
                  reference_time: r.created_at, access_count: r.access_count, last_accessed_at: r.last_accessed_at,
                  session_id: 'bench', source: 'bench', subject_name: s.name, topic_name: t.name,
                  object_name: o.name, embedding: r.embedding})
CREATE (m)-[:HAS_SUBJECT]->(s), (m)-[:HAS_TOPIC]->(t), (m)-[:HAS_OBJECT]->(o)
CREATE (s)-[:MEMORY_TYPE {memory_id: r.id, memory_type: r.memory_type, group_id: $group_id}]->(t)
CREATE (t)-[:CORE_RELATION {memory_id: r.id, group_id: $group_id}]->(o)
CREATE (m)-[:ATTRIBUTE {key: 'time'}]->(:Attribute {id: r.id + '-time', group_id: $group_id, key: 'time',
                                         name: 'time', original: r.day, memory_id: r.id})-[:VALUE]->(v)
RETURN count(*) AS written;

// name: synthetic_links
// Memory-to-memory edges of a synthetic group: CAUSALITY from cause to effect, or REFERENCE.
UNWIND $rows AS r
MATCH (a:Memory {id: r.source}) WHERE a.group_id = $group_id
MATCH (b:Memory {id: r.target}) WHERE b.group_id = $group_id
FOREACH (_ IN CASE WHEN r.edge = 'CAUSALITY' THEN [1] ELSE [] END |
  CREATE (a)-[:CAUSALITY {relation: r.relation, importance: 0.6, strength: 0.6, discovered: false,
                          confidence: 1.0, group_id: $group_id, created_at: $now}]->(b))
FOREACH (_ IN CASE WHEN r.edge = 'REFERENCE' THEN [1] ELSE [] END |
  CREATE (a)-[:REFERENCE {relation: r.relation, importance: 0.5, strength: 0.5, discovered: false,
                          confidence: 1.0, group_id: $group_id, created_at: $now}]->(b))
RETURN count(*) AS written;

// name: synthetic_noise_memories
// Bare memories in throw-away groups ($prefix + i % $groups) with unit vectors drawn near the
// given $bases (each base plus uniform noise of width $noise, normalised), generated on the
// server so that 100,000 of them take seconds, not a 150 MB parameter.
UNWIND range($from, $to - 1) AS i
WITH i, $bases[i % size($bases)] AS base
WITH i, [x IN base | x + $noise * (rand() - 0.5)] AS v
WITH i, v, sqrt(reduce(acc = 0.0, x IN v | acc + x * x)) AS norm
CREATE (:Memory {id: $prefix + toString(i), group_id: $prefix + toString(i % $groups),
                 memory_type: ['EVENT', 'FACT', 'RELATION', 'OPINION'][i % 4], text: $texts[i % size($texts)],
                 importance: 0.5, status: 'staged', created_at: $now, access_count: 0,
                 embedding: [x IN v | x / norm]})
RETURN count(*) AS written;

// name: synthetic_delete_memories
// Delete up to $batch memories (with their attributes) of the groups whose id starts with
// $prefix (synthetic data only). Call until it returns 0, then synthetic_delete_concepts.
MATCH (n:Memory) WHERE n.group_id STARTS WITH $prefix AND n.status IS NOT NULL
WITH n LIMIT $batch
OPTIONAL MATCH (n)-[:ATTRIBUTE]->(a:Attribute)
WITH n, collect(a) AS attributes
FOREACH (a IN attributes | DETACH DELETE a)
DETACH DELETE n
RETURN count(*) AS deleted;

// name: synthetic_delete_concepts
// Delete up to $batch concept and value nodes of the groups whose id starts with $prefix,
// once their memories are gone (each then holds only the MEMORY_TYPE/CORE_RELATION edges left).
CALL () {
  MATCH (n:Subject) WHERE n.group_id STARTS WITH $prefix
  WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS subjects
}
CALL () {
  MATCH (n:Topic) WHERE n.group_id STARTS WITH $prefix
  WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS topics
}
CALL () {
  MATCH (n:Object) WHERE n.group_id STARTS WITH $prefix
  WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS objects
}
CALL () {
  MATCH (n:Value) WHERE n.group_id STARTS WITH $prefix AND n.normalized_name IS NOT NULL
  WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS values_
}
RETURN subjects + topics + objects + values_ AS deleted;

// name: synthetic_episode
// One conversation turn shaped like the ingest path writes it, with the memories said to be
// extracted from it (tests of the read path).
CREATE (e:Episode {id: $id, group_id: $group_id, session_id: $session_id, role: $role, speaker: $speaker,
                   content: $content, timestamp: $timestamp, order: $order, embedding: $embedding})
WITH e
CALL (e) {
  UNWIND $memory_ids AS mid
  MATCH (m:Memory {id: mid}) WHERE m.group_id = $group_id
  CREATE (m)-[:EXTRACTED_FROM]->(e)
}
RETURN e.id AS id;

// name: bench_server_memory
// The server's heap and page cache, reported with benchmark figures.
CALL dbms.listConfig() YIELD name, value
WHERE name IN ['server.memory.heap.max_size', 'server.memory.pagecache.size']
RETURN name, value;
