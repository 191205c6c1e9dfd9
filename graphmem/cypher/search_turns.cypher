// Turn seeds (graphmem/retriever/turns.py): conversation turns (:Episode) and their sentences that
// match a query, the turns around them, and the memories extracted from them.
//
// Every query is scoped to $group_id. The seed queries share these filters:
//   $include_archived   archived memories are left out unless true
//   $types              null, or a list of memory types (EVENT, FACT, RELATION, OPINION)
//   $start, $end        null, or ISO datetimes (end exclusive). A memory's time is occurred_at,
//                       else reference_time (a memory without a stated time is placed when it
//                       was said, which an import or a backfill sets in the past), else created_at
//   $said_end           an episode (a turn) is in the range when said in [$start, $said_end):
//                       $end itself, or a week later for a range read from the query
//   $subject            null, or the normalised name of the memory's subject ("@user" for 我/I)
//   $as_of, $as_of_end  null, or ISO datetimes: only what was the current fact at some moment of
//                       [$as_of, $as_of_end] (a point when equal): valid_from (its own time, else
//                       when it was said) <= $as_of_end, and no valid_until (still current) or
//                       valid_until > $as_of (superseded after). Turns: said by $said_end.
// Neo4j reports cosine similarity as (1 + cos) / 2; graphmem converts it to plain cosine.
// Equal scores are common (a word matched once in texts of the same length; the same text said
// twice), and a LIMIT must not cut among them by where the nodes happen to lie in the store:
// ties go to the newer, then the order of the conversation (or the text), so the same search
// over the same memories ranks the same way every time.

// name: search_episode_scan
// Exact cosine over one group's episodes (conversation turns), with the memories extracted
// from each that pass the filters. `extracted` counts all of them, filtered or not. A turn's
// score is the better of its own cosine and $sentence_weight × its best sentence's (plain
// cosines, c = 2·score − 1; rank.sentence_lift, the ranking profile's weight): lifted here
// because the cut to the top $k happens here. See search_sentence_scores.
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
                     AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                        .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
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
                       AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
            | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                          .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
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
                       AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
            | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                          .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
               score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
  }
  RETURN collect({episode: e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance},
                  score: score, extracted: extracted, memories: memories}) AS hits
}
RETURN size(rows) AS returned, hits;

// name: search_sentence_scores
// The best sentence cosine of each turn in $ids that has sentences (turns found by words or
// as neighbours); rank.sentence_lift weighs it.
UNWIND $ids AS eid
MATCH (s:Sentence)-[:PART_OF]->(e:Episode {id: eid})
WHERE s.group_id = $group_id AND e.group_id = $group_id
WITH eid, max(vector.similarity.cosine(s.embedding, $embedding)) AS score
RETURN collect({id: eid, score: score}) AS rows;

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
                     AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                        .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       bm25, vector.similarity.cosine(e.embedding, $embedding) AS score, extracted, memories;

// name: search_episode_fulltext_terms
// search_episode_fulltext with the group's own term statistics (a group up to
// retrieval.limits.exact_scan_limit episodes), scored as search_fulltext_terms: one Lucene query per
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
                     AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                        .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
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
RETURN collect({of: mid, episode: e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance},
                score: vector.similarity.cosine(e.embedding, $embedding)}) AS rows;

// name: search_episode_neighbours
// The turns right before and after each matched turn in $ids (its session's NEXT chain), with
// their cosine and the memories extracted from them that pass the filters (as in
// search_episode_scan): a turn is read in its context. `new` is true for a neighbour that was
// not itself matched. (Each of these per-turn reads returns one row holding the list: the driver
// decodes one message instead of one per turn.)
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
                     AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                        .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
             score: vector.similarity.cosine(m.embedding, $embedding)}] AS memories
}
RETURN collect({of: eid, new: NOT n.id IN $ids, before: startNode(r) = n,
                episode: n {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance},
                score: vector.similarity.cosine(n.embedding, $embedding), extracted: extracted,
                memories: memories}) AS rows;

// --- with a copy of the group's turn vectors (retriever/turnvectors.py) ----------------------
// A process that holds a current copy finds the turns nearest the query, and their closest
// sentences, with matrix products; the database reads only what those turns say and lead to.

// name: search_turn_ids
// Every turn of a group (the ones search_probe counts) with when it was written, whether it has
// a vector, what a search reads of it (as search_episode_scan projects it) and the turns right
// after it (its session's NEXT chain): what the copy must hold. (A turn is never changed once
// written: the copy of what it says stays true while the copy is current.)
MATCH (e:Episode {group_id: $group_id})
WHERE e.session_id IS NOT NULL
RETURN e.id AS id, e.created_at AS created_at, e.embedding IS NOT NULL AS embedded,
       e {.id, .group_id, .content, .timestamp, .session_id, .speaker, .role, .importance} AS episode,
       e.order AS order, e.chunk AS chunk,
       [(e)-[:NEXT]->(n:Episode) WHERE n.group_id = $group_id | n.id] AS next;

// name: search_turn_vectors_of
// The vectors of the turns in $ids, and of their sentences (turn: the id of the turn a sentence
// is part of).
CALL () {
  UNWIND $ids AS eid
  MATCH (e:Episode {id: eid})
  WHERE e.group_id = $group_id AND e.embedding IS NOT NULL
  RETURN collect({id: eid, embedding: e.embedding}) AS turns
}
CALL () {
  UNWIND $ids AS eid
  MATCH (s:Sentence)-[:PART_OF]->(e:Episode {id: eid})
  WHERE s.group_id = $group_id AND e.group_id = $group_id AND s.embedding IS NOT NULL
  RETURN collect({turn: eid, embedding: s.embedding}) AS sentences
}
RETURN turns, sentences;

// name: search_episode_fulltext_terms_held
// search_episode_fulltext_terms for a process that holds the group's turn vectors, sent before
// the query is embedded: every turn of the group the words match (in the time range), as two
// lists (ids, and their scores weighted by the group's IDF as there). The copy ranks them, knows
// their cosines and which of them were found by meaning; search_turns_read reads the ones kept.
// A term that names a speaker is not among $probes: its hits are the same for every query
// (search_episode_term_hits, held with the copy).
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
RETURN collect(e.id) AS ids, collect(bm25) AS bm25;

// name: search_episode_term_hits
// The turns of the group one term probe ($lucene, one of store.fulltext.term_probes) matches, with
// their raw scores: a speaker's name, whose hits (everything they said) a process that holds the
// group's turn vectors keeps with them.
CALL db.index.fulltext.queryNodes($index, $lucene, {limit: $n}) YIELD node AS e, score
WITH e, score WHERE e.group_id = $group_id
RETURN collect(e.id) AS ids, collect(score) AS scores;

// name: search_turns_read
// For a process that holds the group's turn vectors (and what they say, and the order they were
// said in): the memories extracted from each turn in $ids that pass the filters (as in
// search_episode_scan; `extracted` counts all of them). Each memory says how many turns it was
// extracted from (`sources`): one, and it was read with it. No cosine: the copies have them.
UNWIND $ids AS eid
MATCH (e:Episode {id: eid})
WHERE e.group_id = $group_id
CALL (e) {
  OPTIONAL MATCH (m:Memory)-[:EXTRACTED_FROM]->(e)
  WHERE m.group_id = $group_id
  WITH collect(m) AS linked
  RETURN size(linked) AS extracted,
         [m IN linked WHERE ($include_archived OR m.status <> 'archived')
                     AND ($types IS NULL OR m.memory_type IN $types)
                     AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
                     AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
          | {memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                        .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
             sources: COUNT { (m)-[:EXTRACTED_FROM]->(:Episode) }}] AS memories
}
RETURN collect({id: eid, extracted: extracted, memories: memories}) AS turns;
