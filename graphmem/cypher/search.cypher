// The read path (graphmem/retriever): seeds, graph expansion, evidence, statistics.
//
// Every query is scoped to $group_id. The seed queries share these filters:
//   $include_archived   archived memories are left out unless true
//   $types              null, or a list of memory types (EVENT, FACT, RELATION, OPINION)
//   $start, $end        null, or ISO datetimes (end exclusive). A memory's time is occurred_at,
//                       or created_at when it has none (a memory without a stated time is
//                       placed at the moment it was written)
//   $said_end           an episode (a turn) is in the range when said in [$start, $said_end):
//                       $end itself, or a week later for a range read from the query
//   $subject            null, or the normalised name of the memory's subject ("@user" for 我/I)
// Neo4j reports cosine similarity as (1 + cos) / 2; graphmem converts it to plain cosine.
// Equal scores are common (a word matched once in texts of the same length; the same text said
// twice), and a LIMIT must not cut among them by where the nodes happen to lie in the store:
// ties go to the newer, then the order of the conversation (or the text), so the same search
// over the same memories ranks the same way every time.

// name: search_probe
// How many memories and episodes a group has, counted up to $cap: cheap for any group size.
// (status and session_id are always set: the predicates let Neo4j use the composite group indexes.)
CALL () { MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL WITH m LIMIT $cap RETURN count(m) AS memories }
CALL () { MATCH (e:Episode {group_id: $group_id}) WHERE e.session_id IS NOT NULL WITH e LIMIT $cap RETURN count(e) AS episodes }
RETURN memories, episodes;

// name: search_group_size
// The size of a large group, and of the whole memory vector index (count store, O(1)).
CALL () { MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL RETURN count(m) AS group_size }
CALL () { MATCH (m:Memory) RETURN count(m) AS total }
RETURN group_size, total;

// name: search_vector_scan
// Exact cosine over one group's memories that pass the filters: the true top-$k.
// Used for groups small enough to scan (retrieval.exact_scan_limit) and as the fallback
// when the vector index cannot reach a group's matches.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status IS NOT NULL AND m.embedding IS NOT NULL
  AND ($include_archived OR m.status <> 'archived')
  AND ($types IS NULL OR m.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, coalesce(m.occurred_at, m.created_at) DESC, m.text LIMIT $k
RETURN m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
          .access_count, .last_accessed_at} AS memory, score;

// name: search_vector_index
// The global top-$fetch of the native vector index, then the group and the filters.
// `returned` < $fetch means the index is exhausted: nothing else could match.
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node, score
WITH collect({m: node, score: score}) AS rows
CALL (rows) {
  UNWIND rows AS r
  WITH r.m AS m, r.score AS score
  WHERE m.group_id = $group_id
    AND ($include_archived OR m.status <> 'archived')
    AND ($types IS NULL OR m.memory_type IN $types)
    AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) >= datetime($start))
    AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) < datetime($end))
    AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  WITH m, score ORDER BY score DESC, coalesce(m.occurred_at, m.created_at) DESC, m.text LIMIT $k
  RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at,
                             .created_at, .access_count, .last_accessed_at}, score: score}) AS hits
}
RETURN size(rows) AS returned, hits;

// name: search_fulltext
// BM25 over memory texts (cjk analyzer). $lucene is built by graphmem.store.fulltext.group_query:
// escaped terms AND the group; the group and the filters are checked again here.
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: $fetch}) YIELD node AS m, score AS bm25
WITH m, bm25
WHERE m.group_id = $group_id
  AND ($include_archived OR m.status <> 'archived')
  AND ($types IS NULL OR m.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
WITH m, bm25 ORDER BY bm25 DESC, coalesce(m.occurred_at, m.created_at) DESC, m.text LIMIT $k
RETURN m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
          .access_count, .last_accessed_at} AS memory, bm25,
       vector.similarity.cosine(m.embedding, $embedding) AS score;

// name: search_fulltext_terms
// BM25 over memory texts with the group's own term statistics (a group up to
// retrieval.exact_scan_limit memories; a larger one uses search_fulltext). One Lucene query per
// term ($probes: graphmem.store.fulltext.term_probes, narrowed to the group), each fetching all
// of the group's $n memories it matches: a term's score in a text is Lucene's over the term's
// best in the group (which cancels the index-wide IDF), weighted by the term's IDF in the group,
// ln(1 + (n - df + 0.5) / (df + 0.5)); a text scores the sum over the terms it holds. So what
// other groups hold never moves a group's ranking.
UNWIND $probes AS p
CALL (p) {
  CALL db.index.fulltext.queryNodes('memory_text', p.lucene, {limit: $n}) YIELD node AS m, score
  WITH m, score WHERE m.group_id = $group_id
  WITH collect({m: m, score: score}) AS hits
  RETURN hits, size(hits) AS df, reduce(top = 0.0, h IN hits | CASE WHEN h.score > top THEN h.score ELSE top END) AS top
}
WITH hits, top, df, log(1.0 + ($n - df + 0.5) / (df + 0.5)) AS idf
WHERE df > 0 AND top > 0
UNWIND hits AS h
WITH h.m AS m, sum(idf * h.score / top) AS bm25
WHERE ($include_archived OR m.status <> 'archived')
  AND ($types IS NULL OR m.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
WITH m, bm25 ORDER BY bm25 DESC, coalesce(m.occurred_at, m.created_at) DESC, m.text LIMIT $k
RETURN m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
          .access_count, .last_accessed_at} AS memory, bm25,
       vector.similarity.cosine(m.embedding, $embedding) AS score;

// name: search_episode_scan
// Exact cosine over one group's episodes (conversation turns), with the memories extracted
// from each that pass the filters. `extracted` counts all of them, filtered or not. A turn's
// score is the better of its own cosine and $sentence_weight × its best sentence's (plain
// cosines, c = 2·score − 1; see search_sentence_scores).
MATCH (e:Episode {group_id: $group_id})
WHERE e.session_id IS NOT NULL AND e.embedding IS NOT NULL
  AND ($start IS NULL OR datetime(e.timestamp) >= datetime($start))
  AND ($said_end IS NULL OR datetime(e.timestamp) < datetime($said_end))
WITH e, vector.similarity.cosine(e.embedding, $embedding) AS own
CALL (e) {
  OPTIONAL MATCH (s:Sentence)-[:PART_OF]->(e)
  RETURN max(vector.similarity.cosine(s.embedding, $embedding)) AS sentence
}
WITH e, CASE WHEN sentence IS NOT NULL AND $sentence_weight * (2 * sentence - 1) > 2 * own - 1
             THEN (1 + $sentence_weight * (2 * sentence - 1)) / 2 ELSE own END AS score
ORDER BY score DESC, e.timestamp DESC, e.session_id, e.order, e.chunk LIMIT $k
CALL (e) {
  OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
  WHERE m.group_id = $group_id
  WITH collect(m) AS linked
  RETURN size(linked) AS extracted,
         [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                     AND ($types IS NULL OR m.memory_type IN $types)
                     AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                        .access_count, .last_accessed_at},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       score, extracted, memories;

// name: search_episode_index
// The global top-$fetch of the episode vector index, then the group (see search_vector_index).
CALL db.index.vector.queryNodes('episode_embedding', $fetch, $embedding) YIELD node, score
WITH collect({e: node, score: score}) AS rows
CALL (rows) {
  UNWIND rows AS r
  WITH r.e AS e, r.score AS score
  WHERE e.group_id = $group_id
    AND ($start IS NULL OR datetime(e.timestamp) >= datetime($start))
    AND ($said_end IS NULL OR datetime(e.timestamp) < datetime($said_end))
  WITH e, score ORDER BY score DESC, e.timestamp DESC, e.session_id, e.order, e.chunk LIMIT $k
  CALL (e) {
    OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
    WHERE m.group_id = $group_id
    WITH collect(m) AS linked
    RETURN size(linked) AS extracted,
           [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                       AND ($types IS NULL OR m.memory_type IN $types)
                       AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
            | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                          .access_count, .last_accessed_at},
               score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
  }
  RETURN collect({episode: e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance},
                  score: score, extracted: extracted, memories: memories}) AS hits
}
RETURN size(rows) AS returned, hits;

// name: search_sentence_index
// The global top-$fetch of the sentence vector index, then the group: the turns whose
// sentences match, scored as in search_episode_scan (seeds.py merges them with
// search_episode_index's hits).
CALL db.index.vector.queryNodes('sentence_embedding', $fetch, $embedding) YIELD node, score
WITH collect({s: node, score: score}) AS rows
CALL (rows) {
  UNWIND rows AS r
  WITH r.s AS sentence, r.score AS sentence_score
  WHERE sentence.group_id = $group_id
  MATCH (sentence)-[:PART_OF]->(e:Episode)
  WHERE e.group_id = $group_id AND e.embedding IS NOT NULL
    AND ($start IS NULL OR datetime(e.timestamp) >= datetime($start))
    AND ($said_end IS NULL OR datetime(e.timestamp) < datetime($said_end))
  WITH e, max(sentence_score) AS best
  WITH e, best, vector.similarity.cosine(e.embedding, $embedding) AS own
  WITH e, CASE WHEN $sentence_weight * (2 * best - 1) > 2 * own - 1
               THEN (1 + $sentence_weight * (2 * best - 1)) / 2 ELSE own END AS score
  ORDER BY score DESC, e.timestamp DESC, e.session_id, e.order, e.chunk LIMIT $k
  CALL (e) {
    OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
    WHERE m.group_id = $group_id
    WITH collect(m) AS linked
    RETURN size(linked) AS extracted,
           [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                       AND ($types IS NULL OR m.memory_type IN $types)
                       AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
            | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                          .access_count, .last_accessed_at},
               score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
  }
  RETURN collect({episode: e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance},
                  score: score, extracted: extracted, memories: memories}) AS hits
}
RETURN size(rows) AS returned, hits;

// name: search_sentence_scores
// The best sentence cosine of each turn in $ids that has sentences (turns found by words or
// as neighbours): a turn is as close as its closest sentence, at $sentence_weight.
UNWIND $ids AS eid
MATCH (s:Sentence)-[:PART_OF]->(e:Episode {id: eid})
WHERE s.group_id = $group_id AND e.group_id = $group_id
RETURN eid AS id, max(vector.similarity.cosine(s.embedding, $embedding)) AS score;

// name: search_episode_fulltext
// BM25 over episode contents, narrowed to the group in Lucene and here. $index is
// 'episode_content' (cjk analyzer) or 'episode_content_english' (stemmed, with the speaker),
// chosen in code (retriever/seeds.py), never from user input.
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $fetch}) YIELD node AS e, score AS bm25
WITH e, bm25
WHERE e.group_id = $group_id
  AND ($start IS NULL OR datetime(e.timestamp) >= datetime($start))
  AND ($said_end IS NULL OR datetime(e.timestamp) < datetime($said_end))
WITH e, bm25 ORDER BY bm25 DESC, e.timestamp DESC, e.session_id, e.order, e.chunk LIMIT $k
CALL (e) {
  OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
  WHERE m.group_id = $group_id
  WITH collect(m) AS linked
  RETURN size(linked) AS extracted,
         [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                     AND ($types IS NULL OR m.memory_type IN $types)
                     AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                        .access_count, .last_accessed_at},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       bm25, vector.similarity.cosine(e.embedding, $embedding) AS score, extracted, memories;

// name: search_episode_fulltext_terms
// search_episode_fulltext with the group's own term statistics (a group up to
// retrieval.exact_scan_limit episodes), scored as search_fulltext_terms: one Lucene query per
// term over $index, each term weighted by its IDF among the group's $n turns. Returns the top $k
// by words and, beyond them, the turns in $also that the words match (the ones found by meaning:
// their word evidence should not depend on whether it made the cut).
UNWIND $probes AS p
CALL (p) {
  CALL db.index.fulltext.queryNodes($index, p.lucene, {limit: $n}) YIELD node AS e, score
  WITH e, score WHERE e.group_id = $group_id
  WITH collect({e: e, score: score}) AS hits
  RETURN hits, size(hits) AS df, reduce(top = 0.0, h IN hits | CASE WHEN h.score > top THEN h.score ELSE top END) AS top
}
WITH hits, top, df, log(1.0 + ($n - df + 0.5) / (df + 0.5)) AS idf
WHERE df > 0 AND top > 0
UNWIND hits AS h
WITH h.e AS e, sum(idf * h.score / top) AS bm25
WHERE ($start IS NULL OR datetime(e.timestamp) >= datetime($start))
  AND ($said_end IS NULL OR datetime(e.timestamp) < datetime($said_end))
WITH e, bm25 ORDER BY bm25 DESC, e.timestamp DESC, e.session_id, e.order, e.chunk
WITH collect({e: e, bm25: bm25}) AS ranked
UNWIND range(0, size(ranked) - 1) AS i
WITH i, ranked[i] AS r WHERE i < $k OR r.e.id IN $also
WITH r.e AS e, r.bm25 AS bm25
CALL (e) {
  OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
  WHERE m.group_id = $group_id
  WITH collect(m) AS linked
  RETURN size(linked) AS extracted,
         [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                     AND ($types IS NULL OR m.memory_type IN $types)
                     AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                        .access_count, .last_accessed_at},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       bm25, vector.similarity.cosine(e.embedding, $embedding) AS score, extracted, memories;

// name: search_name_terms
// Which of the query's terms name a speaker of the group: one fulltext lookup per term
// ($probes from store.fulltext.name_probes, each narrowed to the group in Lucene and here).
// $index is chosen in code (retriever/seeds.py), never from user input.
UNWIND $probes AS probe
CALL (probe) {
  CALL db.index.fulltext.queryNodes($index, probe.lucene, {limit: 1}) YIELD node
  WHERE node.group_id = $group_id
  RETURN count(node) AS hits
}
WITH probe, hits WHERE hits > 0
RETURN collect(probe.term) AS terms;

// name: search_group_speakers
// The names of everyone who speaks in the group's conversations: a query with CJK characters
// has no word boundaries to probe term by term, so the names it holds are looked for in it
// (retriever/seeds.py; a large group's list is kept for a minute).
MATCH (e:Episode {group_id: $group_id})
WHERE e.speaker IS NOT NULL
RETURN collect(DISTINCT e.speaker) AS speakers;

// name: search_memory_sources
// The turns each memory in $ids was extracted from, with their cosine: a memory drawn from a
// conversation is ranked with what was actually said.
UNWIND $ids AS mid
MATCH (m:Memory {id: mid})-[:EXTRACTED_FROM]->(e:Episode)
WHERE m.group_id = $group_id AND e.group_id = $group_id AND e.embedding IS NOT NULL
RETURN mid AS of, e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       vector.similarity.cosine(e.embedding, $embedding) AS score;

// name: search_episode_neighbours
// The turns right before and after each matched turn in $ids (its session's NEXT chain), with
// their cosine and the memories extracted from them that pass the filters (as in
// search_episode_scan): a turn is read in its context. `new` is true for a neighbour that was
// not itself matched.
UNWIND $ids AS eid
MATCH (e:Episode {id: eid})-[r:NEXT]-(n:Episode)
WHERE e.group_id = $group_id AND n.group_id = $group_id AND n.embedding IS NOT NULL
  AND ($start IS NULL OR datetime(n.timestamp) >= datetime($start))
  AND ($said_end IS NULL OR datetime(n.timestamp) < datetime($said_end))
CALL (n) {
  OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(n)
  WHERE m.group_id = $group_id
  WITH collect(m) AS linked
  RETURN size(linked) AS extracted,
         [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                     AND ($types IS NULL OR m.memory_type IN $types)
                     AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
                        .access_count, .last_accessed_at},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN eid AS of, NOT n.id IN $ids AS new, startNode(r) = n AS before,
       n {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       vector.similarity.cosine(n.embedding, $embedding) AS score, extracted, memories;

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
// caller's explicit time range only). Each neighbour comes once, with up to 4 ways it was
// reached. Only the best $keep neighbours by α·cosine + β·importance (the two largest parts of
// the score that vary within a level) come back: the others could not reach the top.
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
WITH n, collect({from_id: m.id, edge: edge, relation: relation, direction: direction, via: via,
                 via_label: via_label}) AS steps
WITH n, steps, vector.similarity.cosine(n.embedding, $embedding) AS score
ORDER BY $alpha * (2 * coalesce(score, 0.5) - 1) + $beta * coalesce(n.importance, 0.5) DESC
LIMIT $keep
RETURN n {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .created_at,
          .access_count, .last_accessed_at} AS memory, score, steps[0..4] AS steps;

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

// name: search_exact_baseline
// The way Graphiti and Mem0 search Neo4j: cosine against every memory of the group, no
// vector index. Kept for `graphmem bench search`, which compares it with search_memories.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status IS NOT NULL AND m.status <> 'archived'
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, coalesce(m.occurred_at, m.created_at) DESC, m.text LIMIT $k
RETURN m.id AS id, m.text AS text, score;


// --- statistics (`graphmem stats`) -----------------------------------------------------

// name: stats_memories_group
// One group's memories by type and status.
MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL
RETURN m.memory_type AS memory_type, m.status AS status, count(*) AS count
ORDER BY memory_type, status;

// name: stats_memories_all
MATCH (m:Memory)
RETURN m.memory_type AS memory_type, m.status AS status, count(*) AS count
ORDER BY memory_type, status;

// name: stats_nodes_group
// One group's nodes by label (each label through its group index).
CALL () { MATCH (n:Memory {group_id: $group_id}) WHERE n.status IS NOT NULL RETURN 'Memory' AS label, count(n) AS count
  UNION ALL MATCH (n:Subject {group_id: $group_id}) RETURN 'Subject' AS label, count(n) AS count
  UNION ALL MATCH (n:Topic {group_id: $group_id}) RETURN 'Topic' AS label, count(n) AS count
  UNION ALL MATCH (n:Object {group_id: $group_id}) RETURN 'Object' AS label, count(n) AS count
  UNION ALL MATCH (n:Value {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN 'Value' AS label, count(n) AS count
  UNION ALL MATCH (m:Memory {group_id: $group_id})-[:ATTRIBUTE]->(n:Attribute) WHERE m.status IS NOT NULL RETURN 'Attribute' AS label, count(n) AS count
  UNION ALL MATCH (n:Episode {group_id: $group_id}) WHERE n.session_id IS NOT NULL RETURN 'Episode' AS label, count(n) AS count
  UNION ALL MATCH (n:Sentence {group_id: $group_id}) RETURN 'Sentence' AS label, count(n) AS count
  UNION ALL MATCH (n:ExtractionJob {group_id: $group_id}) WHERE n.state IS NOT NULL RETURN 'ExtractionJob' AS label, count(n) AS count }
RETURN label, count;

// name: stats_edges_group
// One group's relationships by type, counted from the group's nodes that start them.
CALL () { MATCH (m:Memory {group_id: $group_id})-[r]->() WHERE m.status IS NOT NULL RETURN type(r) AS type, count(r) AS count
  UNION ALL MATCH (:Subject {group_id: $group_id})-[r]->() RETURN type(r) AS type, count(r) AS count
  UNION ALL MATCH (:Topic {group_id: $group_id})-[r]->() RETURN type(r) AS type, count(r) AS count
  UNION ALL MATCH (m:Memory {group_id: $group_id})-[:ATTRIBUTE]->()-[r]->() WHERE m.status IS NOT NULL RETURN type(r) AS type, count(r) AS count
  UNION ALL MATCH (e:Episode {group_id: $group_id})-[r]->() WHERE e.session_id IS NOT NULL RETURN type(r) AS type, count(r) AS count
  UNION ALL MATCH (:Sentence {group_id: $group_id})-[r]->() RETURN type(r) AS type, count(r) AS count }
RETURN type, sum(count) AS count ORDER BY type;

// name: stats_graph_counts
// Nodes by label and relationships by type for the whole database, from the count store.
CALL db.stats.retrieve('GRAPH COUNTS') YIELD data
RETURN [n IN data.nodes WHERE n.label IS NOT NULL | {label: n.label, count: n.count}] AS nodes,
       [r IN data.relationships WHERE r.relationshipType IS NOT NULL AND r.startLabel IS NULL
          AND r.endLabel IS NULL | {type: r.relationshipType, count: r.count}] AS edges;

// name: stats_groups
// How many groups hold memories.
MATCH (m:Memory) RETURN count(DISTINCT m.group_id) AS groups;


// --- synthetic data (`graphmem bench search`, tests/test_search_scale.py) ----------------

// name: synthetic_subjects
// Concept and value nodes of a synthetic group, shaped like create_memories writes them.
UNWIND $rows AS r
CREATE (:Subject {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                  embedding: r.embedding, kind: r.kind, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_topics
UNWIND $rows AS r
CREATE (:Topic {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                embedding: r.embedding, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_objects
UNWIND $rows AS r
CREATE (:Object {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, aliases: [r.name],
                 embedding: r.embedding, created_at: $now})
RETURN count(*) AS written;

// name: synthetic_values
UNWIND $rows AS r
CREATE (:Value {id: r.id, group_id: $group_id, name: r.name, normalized_name: r.key, iso: r.name, parsed: true,
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
