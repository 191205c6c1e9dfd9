// Memory seeds (graphmem/retriever/seeds.py): the group's memories that match a query directly,
// by meaning (vector index or exact scan) and by words (fulltext).
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
// The word queries take $embedding null when the caller holds the group's vectors and computes
// the cosines itself (retriever/vectors.py): they are then sent before the query is embedded.
// Neo4j reports cosine similarity as (1 + cos) / 2; graphmem converts it to plain cosine.
// The seed lists come back as one row holding the list (the driver decodes one message, not one
// per hit). Equal scores are common (a word matched once in texts of the same length; the same text said
// twice), and a LIMIT must not cut among them by where the nodes happen to lie in the store:
// ties go to the newer, then the order of the conversation (or the text), so the same search
// over the same memories ranks the same way every time.

// name: search_probe
// How many memories and episodes a group has, counted up to $cap: cheap for any group size.
// (status and session_id are always set: the predicates let Neo4j use the composite group indexes.)
// For a group of up to $cache_limit memories also the newest created_at: with the count, it
// tells whether the process's copy of the group's vectors is current (retriever/vectors.py);
// episodes_latest does the same for the copy of its turns' vectors (retriever/turnvectors.py).
CALL () { MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL WITH m LIMIT $cap RETURN count(m) AS memories }
CALL (memories) {
  // (an UNWIND of nothing, not a WHERE: Neo4j would still walk a larger group's index entries)
  UNWIND CASE WHEN memories <= $cache_limit THEN [true] ELSE [] END AS wanted
  // (created_at is an ISO string: `> ''` and the index's own order, in a subquery of its own,
  // let Neo4j read the newest entry alone instead of all of the group's)
  CALL () {
    MATCH (m:Memory) WHERE m.group_id = $group_id AND m.created_at > ''
    RETURN m.created_at AS newest ORDER BY m.group_id DESC, m.created_at DESC LIMIT 1
  }
  RETURN collect(newest)[0] AS latest
}
CALL () { MATCH (e:Episode {group_id: $group_id}) WHERE e.session_id IS NOT NULL WITH e LIMIT $cap RETURN count(e) AS episodes }
CALL (episodes) {
  // the same for the copy of its turn vectors (turns are only ever added, or deleted with the group)
  UNWIND CASE WHEN episodes > 0 AND episodes <= $cache_limit THEN [true] ELSE [] END AS wanted
  CALL () {
    MATCH (e:Episode) WHERE e.group_id = $group_id AND e.created_at > ''
    RETURN e.created_at AS newest ORDER BY e.group_id DESC, e.created_at DESC LIMIT 1
  }
  RETURN collect(newest)[0] AS episodes_latest
}
RETURN memories, latest, episodes, episodes_latest;

// name: search_vector_ids
// Every memory of a group (the ones search_probe counts) with when it was written and whether
// it has a vector: what the copy of the group's vectors must hold.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status IS NOT NULL
RETURN m.id AS id, m.created_at AS created_at, m.embedding IS NOT NULL AS embedded;

// name: search_vectors_since
// The memories of a group written at or after $since, with their vectors (what a large group's
// copy lacks; the memory_created index finds them without walking the group).
MATCH (m:Memory {group_id: $group_id})
WHERE m.created_at >= $since AND m.status IS NOT NULL AND m.embedding IS NOT NULL
RETURN m.id AS id, m.created_at AS created_at, m.embedding AS embedding
LIMIT $limit;

// name: search_vectors_of
// The vectors of some of a group's memories (filling the copy of its vectors).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.group_id = $group_id AND m.embedding IS NOT NULL
RETURN m.id AS id, m.embedding AS embedding;

// name: search_cosines
// The cosines of memories a copy of the group's vectors did not hold (written since it was read).
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.group_id = $group_id
RETURN collect({id: m.id, score: vector.similarity.cosine(m.embedding, $embedding)}) AS rows;

// name: search_memories_by_ids
// The memories the copy of the group's vectors found nearest ($ids, with their cosine in the
// form Neo4j reports it, $scores), those that pass the filters, best first (ties as in the scan).
UNWIND range(0, size($ids) - 1) AS i
MATCH (m:Memory {id: $ids[i]})
WHERE m.group_id = $group_id
  AND ($include_archived OR m.status <> 'archived')
  AND ($types IS NULL OR m.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
WITH m, $scores[i] AS score
ORDER BY score DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                           .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until}, score: score}) AS hits;

// name: search_group_size
// The size of a large group, and of the whole memory vector index (count store, O(1)).
CALL () { MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL RETURN count(m) AS group_size }
CALL () { MATCH (m:Memory) RETURN count(m) AS total }
RETURN group_size, total;

// name: search_vector_scan
// Exact cosine over one group's memories that pass the filters: the true top-$k.
// Used for groups small enough to scan (retrieval.limits.exact_scan_limit) and as the fallback
// when the vector index cannot reach a group's matches.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status IS NOT NULL AND m.embedding IS NOT NULL
  AND ($include_archived OR m.status <> 'archived')
  AND ($types IS NULL OR m.memory_type IN $types)
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
RETURN m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
          .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until} AS memory, score;

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
    AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
    AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
    AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
    AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
  WITH m, score ORDER BY score DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
  RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time,
                             .created_at, .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until}, score: score}) AS hits
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
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
WITH m, bm25 ORDER BY bm25 DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                           .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until}, bm25: bm25,
                score: CASE WHEN $embedding IS NOT NULL THEN vector.similarity.cosine(m.embedding, $embedding) END})
       AS hits;

// name: search_fulltext_terms
// BM25 over memory texts with the group's own term statistics (a group up to
// retrieval.limits.exact_scan_limit memories; a larger one uses search_fulltext). One Lucene query per
// term ($probes: graphmem.store.fulltext.term_probes, narrowed to the group), each fetching all
// of the group's $n memories it matches: a term's score in a text is Lucene's over the term's
// best in the group (which cancels the index-wide IDF), weighted by the term's IDF in the group,
// ln(1 + (n - df + 0.5) / (df + 0.5)) (rank.group_idf); a text scores the sum over the terms it
// holds. So what other groups hold never moves a group's ranking. Summed here, not in Python,
// because the top $k by words is cut here; rank.word_evidence turns the sum into evidence.
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
  AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
  AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
  AND ($subject IS NULL OR EXISTS { (m)-[:HAS_SUBJECT]->(:Subject {normalized_name: $subject}) })
  AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
WITH m, bm25 ORDER BY bm25 DESC, coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.text LIMIT $k
RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                           .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until}, bm25: bm25,
                score: CASE WHEN $embedding IS NOT NULL THEN vector.similarity.cosine(m.embedding, $embedding) END})
       AS hits;

// name: search_current_of
// For superseded memories, the current (newest, not archived) memory of their supersede chain.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})
MATCH p = (newest:Memory)-[:SUPERSEDES*1..20]->(m)
WHERE newest.superseded_by IS NULL AND newest.group_id = $group_id AND newest.status <> 'archived'
WITH m, newest ORDER BY length(p) DESC
WITH m, collect(newest)[0] AS n
RETURN m.id AS id, n {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
          .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until} AS current;

// name: search_subject_memories
// A question about someone ("What does Anna like?", "小明喜欢什么？") gathers from all they are
// known for: the subjects of the group whose name is one of $names (the query's words and word
// runs, normalised as names are: retriever/subjects.py), and up to $per_subject of each one's memories
// (the newest) that pass the filters, each with its topic, so the caller can keep the best of
// each topic. Looked up by the (group_id, normalized_name) constraint: no scan of the group's
// subjects; a name folded into another node (its :ConceptMerge record: 我上司 once the boss was named
// 赵雅琳) finds the node it went into. $embedding null: the caller holds the group's vectors and
// computes the cosines. One row, {subject, rows} per subject found: it can share a round trip with
// the word query sent at the same moment (store/cypher.py together).
UNWIND $names AS name
OPTIONAL MATCH (named:Subject {group_id: $group_id, normalized_name: name})
OPTIONAL MATCH (rec:ConceptMerge {group_id: $group_id, merged_key: name})
  WHERE named IS NULL AND rec.undone_at IS NULL
OPTIONAL MATCH (folded:Subject {id: rec.survivor_id}) WHERE folded.group_id = $group_id
WITH DISTINCT coalesce(named, folded) AS s
WHERE s IS NOT NULL
CALL (s) {
  MATCH (s)<-[:HAS_SUBJECT]-(m:Memory)
  WHERE m.group_id = $group_id AND m.embedding IS NOT NULL
    AND ($include_archived OR m.status <> 'archived')
    AND ($types IS NULL OR m.memory_type IN $types)
    AND ($start IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) >= datetime($start))
    AND ($end IS NULL OR datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)) < datetime($end))
    AND ($as_of IS NULL OR (datetime(coalesce(m.valid_from, m.occurred_at, m.reference_time, m.created_at)) <= datetime($as_of_end) AND (m.valid_until IS NULL OR datetime(m.valid_until) > datetime($as_of))))
  WITH m ORDER BY coalesce(m.occurred_at, m.reference_time, m.created_at) DESC, m.id LIMIT $per_subject
  OPTIONAL MATCH (m)-[:HAS_TOPIC]->(t:Topic)
  RETURN collect({memory: m {.id, .group_id, .text, .memory_type, .importance, .status, .occurred_at, .reference_time, .created_at,
                             .access_count, .last_accessed_at, .superseded_by, .valid_from, .valid_until},
                  topic: t.normalized_name,
                  score: CASE WHEN $embedding IS NOT NULL THEN vector.similarity.cosine(m.embedding, $embedding) END})
         AS rows
}
RETURN collect({subject: s.name, rows: rows}) AS subjects;

// name: search_people_meant
// The people a question means by a role it says ($roles: canonical role words, 家教, tutor,
// neighbour): the Object of a current RELATION memory whose Topic is the role (my neighbour Olga),
// and the Subject of a current identity fact ($identity topics: is a, 是) whose Object ends with the
// role (小吴 是 家教, Felix is a tutor). Read from the role's and the identity topics' nodes, not from
// a scan of the group's memories; the walk's step through them is strong (retriever/rank.Paths).
// theirs: the ids of the memories about them, those that say who they are among them, and about
// the speaker's one in the role that no name was given ($unnamed: 我叔叔, my cousin, as the reader
// names them) (retriever/walk.answer_meant).
UNWIND $roles AS role
OPTIONAL MATCH (:Topic {group_id: $group_id, normalized_name: role})<-[:HAS_TOPIC]-(m:Memory)-[:HAS_OBJECT]->(p)
  WHERE m.memory_type = 'RELATION' AND m.status <> 'archived' AND m.superseded_by IS NULL
WITH collect(DISTINCT p) AS by_role
OPTIONAL MATCH (i:Topic {group_id: $group_id})<-[:HAS_TOPIC]-(f:Memory)-[:HAS_OBJECT]->(o), (f)-[:HAS_SUBJECT]->(s)
  WHERE i.normalized_name IN $identity AND f.memory_type = 'FACT' AND f.status <> 'archived'
    AND f.superseded_by IS NULL AND any(role IN $roles WHERE o.normalized_name ENDS WITH role)
WITH by_role, collect(DISTINCT s) AS described
OPTIONAL MATCH (u:Subject {group_id: $group_id}) WHERE u.normalized_name IN $unnamed
WITH by_role + described AS people, collect(DISTINCT u) AS unnamed
RETURN [q IN people | q.name] AS names,
       reduce(ids = [], q IN people + unnamed | ids + [(q)<-[:HAS_SUBJECT|HAS_OBJECT]-(x:Memory) | x.id]) AS theirs;
