// Conversations in: raw turns as :Episode nodes chained by NEXT, the memories extracted from
// them pointing back with EXTRACTED_FROM, and the persisted extraction queue (:ExtractionJob).
// (:Episode)-[:NEXT]->(:Episode) follows one session in order; a memory's evidence is
// (:Memory)-[:EXTRACTED_FROM]->(:Episode), written in the memory's own transaction by
// create_memories (cypher/memory_write.cypher) from the memory's episode_ids.

// name: episode_session_tail
// The last episode of a session: new turns continue its order and its NEXT chain.
MATCH (e:Episode {group_id: $group_id, session_id: $session_id})
RETURN e.id AS id, e.order AS order, e.chunk AS chunk
ORDER BY e.order DESC, e.chunk DESC
LIMIT 1;

// name: episodes_create
// One row per turn (or per chunk of a long turn). $rows[i]: {id, props, embedding, sentences};
// a long turn's sentences ({text, embedding}, each embedded alone) hang off it:
// (:Sentence)-[:PART_OF]->(:Episode).
UNWIND $rows AS r
CREATE (e:Episode {id: r.id, group_id: $group_id})
SET e += r.props, e.embedding = r.embedding
FOREACH (i IN range(0, size(coalesce(r.sentences, [])) - 1) |
  CREATE (:Sentence {group_id: $group_id, text: r.sentences[i].text, position: i,
                     embedding: r.sentences[i].embedding})-[:PART_OF]->(e))
RETURN count(e) AS created;

// name: episode_parts_stored
// Which of a bulk ingest's parts are stored already (by their keys, on the episode_part_key
// constraint's index), and in which session: a resumed run skips them and continues that session.
UNWIND $keys AS key
MATCH (e:Episode {group_id: $group_id, part_key: key})
RETURN e.part_key AS key, e.session_id AS session_id;

// name: episodes_chain
// NEXT edges between consecutive episodes of a session. $pairs: [[from_id, to_id], ...].
UNWIND $pairs AS p
MATCH (a:Episode {group_id: $group_id, id: p[0]})
MATCH (b:Episode {group_id: $group_id, id: p[1]})
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS chained;

// name: episodes_by_ids
// Episodes by id, in the order asked (the extractor reads a job's turns with this).
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Episode {group_id: $group_id, id: $ids[i]})
RETURN e {.id, .session_id, .role, .speaker, .content, .timestamp, .order, .chunk, .external_id, .source} AS episode
ORDER BY i;

// name: episodes_list
// A group's episodes in conversation order (one session, or all), without embeddings.
MATCH (e:Episode {group_id: $group_id})
WHERE $session_id IS NULL OR e.session_id = $session_id
RETURN e {.id, .session_id, .role, .speaker, .content, .timestamp, .order, .chunk, .external_id, .source} AS episode
ORDER BY e.session_id, e.order, e.chunk
SKIP $skip LIMIT $limit;

// name: job_create
// Extraction jobs, created in the same transaction as their episodes: a turn is never stored
// without the job that will extract it. $jobs[i]: {id, props}.
UNWIND $jobs AS j
CREATE (x:ExtractionJob {id: j.id, group_id: $group_id})
SET x += j.props
RETURN count(x) AS created;

// name: job_claim
// Take a job for one attempt. The first SET takes the node's write lock, so two workers never run
// the same job: the state is read after the lock. A running job is taken again when its lease
// expired, or when its holder is known to be dead ($stale: the claim of a process that no longer
// exists, or of this process's attempt that ended when its server went away). The claim records
// who holds it (host, pid) for that test.
MATCH (x:ExtractionJob {group_id: $group_id, id: $id})
SET x.touched_at = $now
WITH x
WHERE x.state = 'pending'
   OR (x.state = 'running' AND (x.lease_until < $now OR ($stale IS NOT NULL AND x.claim = $stale)))
   OR ($include_failed AND x.state = 'failed')
SET x.state = 'running', x.claim = $token, x.host = $host, x.pid = $pid,
    x.attempts = coalesce(x.attempts, 0) + 1, x.lease_until = $lease_until, x.updated_at = $now
RETURN x {.*} AS job;

// name: jobs_running
// The running jobs of one group or all ($group_id null), with who holds them: the stranded ones
// among them (their process or server died) are taken up again.
MATCH (x:ExtractionJob)
WHERE ($group_id IS NULL OR x.group_id = $group_id) AND x.state = 'running'
RETURN x.group_id AS group_id, x.id AS id, x.claim AS claim, x.host AS host, x.pid AS pid,
       x.lease_until AS lease_until
ORDER BY x.updated_at
LIMIT $limit;

// name: job_save_plan
// The validated extraction (memories and links as JSON), kept so that a retry after a crash
// between its writes finishes the same plan instead of asking the LLM again.
MATCH (x:ExtractionJob {group_id: $group_id, id: $id})
SET x.plan = $plan, x.updated_at = $now
RETURN x.id AS id;

// name: job_finish
// The end of one attempt: done, pending again (with the backoff's next_attempt_at) or failed.
MATCH (x:ExtractionJob {group_id: $group_id, id: $id})
SET x.state = $state, x.last_error = $last_error, x.next_attempt_at = $next_attempt_at,
    x.updated_at = $now, x.lease_until = null, x.claim = null, x.host = null, x.pid = null,
    x.memories = coalesce($memories, x.memories), x.links = coalesce($links, x.links),
    x.plan = CASE WHEN $state = 'done' THEN null ELSE x.plan END,
    x.finished_at = CASE WHEN $state IN ['done', 'failed'] THEN $now ELSE null END
RETURN x {.*} AS job;

// name: jobs_due
// Jobs a retry should take: pending ones whose next attempt is due ($force: all pending ones),
// running ones whose lease expired, and failed ones when asked. One group, or all ($group_id null).
MATCH (x:ExtractionJob)
WHERE ($group_id IS NULL OR x.group_id = $group_id)
  AND ((x.state = 'pending' AND ($force OR x.next_attempt_at <= $now))
       OR (x.state = 'running' AND x.lease_until < $now)
       OR ($include_failed AND x.state = 'failed'))
RETURN x.group_id AS group_id, x.id AS id
ORDER BY x.next_attempt_at, x.created_at
LIMIT $limit;

// name: jobs_list
// A group's extraction jobs, newest first, optionally of one state.
MATCH (x:ExtractionJob {group_id: $group_id})
WHERE $state IS NULL OR x.state = $state
RETURN x {.id, .group_id, .session_id, .episode_ids, .extractor, .state, .attempts, .last_error,
          .next_attempt_at, .created_at, .updated_at, .finished_at, .memories, .links} AS job
ORDER BY x.created_at DESC
LIMIT $limit;

// name: job_counts
// Extraction jobs by state, for one group or all ($group_id null): stats show pending and failed.
MATCH (x:ExtractionJob)
WHERE $group_id IS NULL OR x.group_id = $group_id
RETURN x.state AS state, count(*) AS count;

// name: job_written_memories
// Memories a job already wrote (by their extract_key): a retry never writes them twice.
MATCH (m:Memory {group_id: $group_id})
WHERE m.job_id = $job_id
RETURN m.extract_key AS key, m.id AS id;

// name: people_known
// The people a group's speakers have named with a role (我表妹小雯, my cousin Ruth), newest first:
// whose role (the speaker, by subject key: '@user' for the user), the role, the name, and when the
// person was last spoken of (as the relation's object or as a memory's subject). The extractor reads
// them before a window of turns, so a later session's 我表妹 means 小雯 and its 她 the person
// spoken of last. Only what was said in conversation (a memory extracted from turns) makes a person
// recent: one an agent wrote about with a tool call is known by role, but a 她 in the next
// session means the person the conversation spoke of (last_said '' when it never did).
MATCH (m:Memory {group_id: $group_id, memory_type: 'RELATION'})-[:HAS_OBJECT]->(p)
WHERE m.status <> 'archived' AND m.superseded_by IS NULL
MATCH (m)-[:HAS_SUBJECT]->(s)
MATCH (m)-[:HAS_TOPIC]->(t)
WITH s.normalized_name AS owner, t.name AS role, coalesce(m.object_name, p.name) AS name,
     p.normalized_name AS key,
     CASE WHEN EXISTS { (m)-[:EXTRACTED_FROM]->(:Episode) } THEN coalesce(m.reference_time, m.created_at) ELSE '' END AS said_at
ORDER BY said_at DESC
LIMIT $limit
OPTIONAL MATCH (x:Subject {group_id: $group_id, normalized_name: key})<-[:HAS_SUBJECT]-(later:Memory)
WHERE EXISTS { (later)-[:EXTRACTED_FROM]->(:Episode) }
WITH owner, role, name, said_at, max(coalesce(later.reference_time, later.created_at)) AS as_subject
RETURN owner, role, name, CASE WHEN as_subject > said_at THEN as_subject ELSE said_at END AS last_said
ORDER BY last_said;

// name: people_unnamed
// The people a group's speakers spoke of by their role alone (my daughter, 我儿子, a named
// speaker's Ivy's daughter / 小王的儿子: a subject named so, with no name ever given), newest first,
// with when a memory extracted from turns last said something of them: a later session's she / 她
// may mean them (the extractor keeps only the names whose words are a role). Tool-call memories do
// not make them recent, as in people_known.
MATCH (s:Subject {group_id: $group_id})
WHERE (s.name STARTS WITH 'my ' OR s.name STARTS WITH 'My ' OR s.name STARTS WITH '我'
       OR s.name CONTAINS "' " OR s.name CONTAINS "'s " OR s.name CONTAINS '的') AND size(s.name) <= 24
MATCH (s)<-[:HAS_SUBJECT]-(m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' AND EXISTS { (m)-[:EXTRACTED_FROM]->(:Episode) }
WITH s.name AS name, max(coalesce(m.reference_time, m.created_at)) AS last_said
RETURN name, last_said
ORDER BY last_said DESC
LIMIT $limit;

// name: people_named
// The people a group's speakers spoke of by a plain name, no role ever said (Rosa comes to clean our
// house, Mrs Ortiz runs the bakery: a subject whose name matches $pattern), newest first, with when a
// memory extracted from turns last said something of them: a later session's "Rosa …" is read as
// her and its she / her may mean her. Tool-call memories do not count, as in people_known, nor does
// one of the conversation's speakers (a subject of what they said themselves): "Dana, thanks …"
// addresses her.
MATCH (s:Subject {group_id: $group_id})
WHERE s.name =~ $pattern
  AND NOT EXISTS { (s)<-[:HAS_SUBJECT]-(:Memory)-[:EXTRACTED_FROM]->(e:Episode) WHERE e.speaker = s.name }
MATCH (s)<-[:HAS_SUBJECT]-(m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' AND EXISTS { (m)-[:EXTRACTED_FROM]->(:Episode) }
WITH s.name AS name, max(coalesce(m.reference_time, m.created_at)) AS last_said
RETURN name, last_said
ORDER BY last_said DESC
LIMIT $limit;

// name: people_described
// What the people of people_known were said to be (老周是退休的中学老师, Ruth is a nurse) or where
// they are from (阿凯 来自 广东), newest first: a later session's 那位退休老师, 那个广东同事 or "the
// retired teacher next door" means the one so described. $topics: the normalized topics of an
// identity ("is a", 是, "is from", 来自). As in people_known, only
// what was said in conversation makes a person recent.
MATCH (r:Memory {group_id: $group_id, memory_type: 'RELATION'})-[:HAS_OBJECT]->(p)
WHERE r.status <> 'archived' AND r.superseded_by IS NULL
WITH DISTINCT p
MATCH (p)<-[:HAS_SUBJECT]-(f:Memory {group_id: $group_id, memory_type: 'FACT'})-[:HAS_TOPIC]->(t)
WHERE t.normalized_name IN $topics AND f.status <> 'archived' AND f.superseded_by IS NULL
MATCH (f)-[:HAS_OBJECT]->(o)
RETURN p.name AS name, coalesce(f.object_name, o.name) AS description,
       CASE WHEN EXISTS { (f)-[:EXTRACTED_FROM]->(:Episode) } THEN coalesce(f.reference_time, f.created_at) ELSE '' END
         AS last_said
ORDER BY last_said DESC
LIMIT $limit;
