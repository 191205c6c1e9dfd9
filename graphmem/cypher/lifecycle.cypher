// The memory lifecycle (graphmem/lifecycle): the run lock and record, concept and memory merges,
// supersede chains, discovered links, decay, archive and summaries. Every query is scoped to
// $group_id; a concept is found by its id on :Concept (one node per name, whatever its roles).

// name: lifecycle_lock_take
// Take the group's consolidation lock for $run_id, if it is free, expired, held by $run_id itself
// (a refresh) or held by $stale (an owner known to be dead). SET before the test takes the
// node's write lock: a concurrent run waits here, then reads the owner the first one committed.
MERGE (l:ConsolidationLock {group_id: $group_id})
SET l.touched_at = $now
WITH l, (l.owner IS NULL OR l.expires_at < $now OR l.owner = $run_id OR l.owner = $stale) AS free
SET l.owner = CASE WHEN free THEN $run_id ELSE l.owner END,
    l.expires_at = CASE WHEN free THEN $expires_at ELSE l.expires_at END,
    l.host = CASE WHEN free THEN $host ELSE l.host END,
    l.pid = CASE WHEN free THEN $pid ELSE l.pid END
RETURN free AS acquired, l.owner AS owner, l.host AS host, l.pid AS pid, l.expires_at AS expires_at;

// name: lifecycle_lock_release
MATCH (l:ConsolidationLock {group_id: $group_id}) WHERE l.owner = $run_id
SET l.owner = null, l.expires_at = null, l.host = null, l.pid = null
RETURN count(l) AS released;

// name: lifecycle_run_start
CREATE (r:ConsolidationRun {group_id: $group_id, id: $run_id, started_at: $started_at, as_of: $as_of,
                            status: 'running', host: $host, pid: $pid})
RETURN r.id AS id;

// name: lifecycle_run_finish
MATCH (r:ConsolidationRun {group_id: $group_id, id: $run_id})
SET r.finished_at = $finished_at, r.status = $status, r.counts = $counts, r.errors = $errors,
    r.processed = $processed, r.seconds = $seconds
RETURN r.id AS id;

// name: lifecycle_runs
// The group's latest runs, newest first (all groups when $group_id is null).
MATCH (r:ConsolidationRun)
WHERE $group_id IS NULL OR r.group_id = $group_id
RETURN r {.*} AS run ORDER BY r.started_at DESC LIMIT $limit;

// name: lifecycle_groups
// Every group that holds memories: what a consolidation of all groups goes through.
MATCH (m:Memory) RETURN DISTINCT m.group_id AS group_id;

// name: lifecycle_staged
// The next batch of staged memories, oldest first.
MATCH (m:Memory {group_id: $group_id, status: 'staged'})
RETURN m.id AS id ORDER BY m.created_at, m.id LIMIT $limit;

// name: lifecycle_mark_consolidated
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id}) WHERE m.status = 'staged'
SET m.status = 'consolidated', m.consolidated_at = $now, m.consolidated_by = $run_id
RETURN count(m) AS marked;

// name: lifecycle_unkeyed_concepts
// Concepts without a loose key yet (the consolidator computes it: width, case, punctuation,
// traditional -> simplified).
MATCH (n:Concept {group_id: $group_id}) WHERE n.loose_key IS NULL
RETURN [l IN labels(n) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']][0] AS label, n.id AS id, n.name AS name,
       n.aliases AS aliases LIMIT $limit;

// name: lifecycle_set_loose_keys
UNWIND $rows AS r
MATCH (n:Concept {id: r.id}) WHERE n.group_id = $group_id
SET n.loose_key = r.loose_key
RETURN count(n) AS set;

// name: lifecycle_batch_concepts
// The concept nodes the batch's memories use (the user and agent left out: they are one node by
// construction), with their role labels, how many memories use each and whether they are the batch's.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c)
WHERE c.kind IS NULL
WITH DISTINCT c
RETURN [l IN labels(c) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']] AS labels, c.id AS id, c.name AS name,
       c.loose_key AS loose_key, c.created_at AS created_at,
       COUNT { (c)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(:Memory) } AS uses;

// name: lifecycle_loose_matches
// Other concepts of the group, in any role, with the same loose key (the user and the agent never).
UNWIND $items AS it
MATCH (n:Concept {group_id: $group_id, loose_key: it.loose_key})
WHERE n.id <> it.id AND n.kind IS NULL
RETURN it.id AS id, n.id AS other_id, n.name AS other_name, n.created_at AS other_created_at,
       [l IN labels(n) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']] AS other_labels,
       COUNT { (n)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(:Memory) } AS other_uses;

// name: lifecycle_role_people
// The people the user named in a role (我的同事叫李明: the relation 我 | 同事 | 李明), and the
// group's subjects named by the user's role alone (我同事, my colleague): the unnamed node of a
// role may be the person named in it (the consolidator pairs them by the role's canonical word).
CALL () {
  MATCH (m:Memory {group_id: $group_id, memory_type: 'RELATION'})-[:HAS_SUBJECT]->(:Concept {kind: 'user'})
  WHERE m.status <> 'archived' AND m.superseded_by IS NULL
  MATCH (m)-[:HAS_TOPIC]->(t), (m)-[:HAS_OBJECT]->(p)
  WHERE p.kind IS NULL
  RETURN 'named' AS what, t.name AS role, p AS node
  UNION
  MATCH (p:Subject {group_id: $group_id})
  WHERE p.kind IS NULL AND size(p.name) <= 24
    AND (p.name STARTS WITH '我' OR toLower(p.name) STARTS WITH 'my ')
  RETURN 'unnamed' AS what, null AS role, p AS node
}
RETURN DISTINCT what, role, node.id AS id, node.name AS name, node.created_at AS created_at,
       [l IN labels(node) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']] AS labels,
       COUNT { (node)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(:Memory) } AS uses;

// name: lifecycle_concept_neighbours
// The group's nearest concepts of the same label (vector index, global top-$fetch kept when in
// the group), at cosine >= $min_cosine, each with whether the two are used in the same context:
// two topics by one subject in memories of one type, two objects under one topic. A node that is
// a Subject is merged by name only (小明 and 小红 are close in any embedding space): never a hit.
UNWIND $items AS it
MATCH (c:Concept {id: it.id}) WHERE c.group_id = $group_id AND c.embedding IS NOT NULL
CALL db.index.vector.queryNodes(it.index, $fetch, c.embedding) YIELD node, score
WITH it, c, node, 2 * score - 1 AS cosine
WHERE node.group_id = $group_id AND node.id <> c.id AND cosine >= $min_cosine AND NOT node:Subject
RETURN it.id AS id, it.label AS label, node.id AS other_id, node.name AS other_name,
       node.created_at AS other_created_at,
       [l IN labels(node) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']] AS other_labels,
       COUNT { (node)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(:Memory) } AS other_uses, cosine,
       CASE it.label
         WHEN 'Topic' THEN EXISTS { MATCH (s:Subject)-[a:MEMORY_TYPE]->(c), (s)-[b:MEMORY_TYPE]->(node)
                                    WHERE a.memory_type = b.memory_type }
         ELSE EXISTS { MATCH (t:Topic)-[:CORE_RELATION]->(c), (t)-[:CORE_RELATION]->(node) }
       END AS context_agrees;

// name: lifecycle_concept_props
// A concept node's properties (what an unmerge puts back).
MATCH (n:Concept {id: $id}) WHERE n.group_id = $group_id
RETURN properties(n) AS props;

// name: lifecycle_merge_concept
// Fold $gone_id into $keep_id: every edge of the gone node is recreated on the surviving one with
// its type and properties (its merged_from list naming the gone node, so an unmerge can move it
// back; an edge between the two becomes a loop on the survivor: nothing is lost), the gone node
// is deleted and its role labels move to the survivor; the survivor keeps its id and gains the
// gone node's names as aliases; a :ConceptMerge record keeps the gone node's properties
// ($props_json; null for the schema migration's folds, which cannot be undone: $undoable false).
// Nodes are found through their role labels (each label's id constraint), so the schema migration
// folds nodes written before the :Concept label existed.
CALL () {
  OPTIONAL MATCH (s:Subject {id: $keep_id}) WHERE s.group_id = $group_id
  OPTIONAL MATCH (t:Topic {id: $keep_id}) WHERE t.group_id = $group_id
  OPTIONAL MATCH (o:Object {id: $keep_id}) WHERE o.group_id = $group_id
  OPTIONAL MATCH (v:Value {id: $keep_id}) WHERE v.group_id = $group_id
  RETURN coalesce(s, t, o, v) AS keep
}
CALL () {
  OPTIONAL MATCH (s:Subject {id: $gone_id}) WHERE s.group_id = $group_id
  OPTIONAL MATCH (t:Topic {id: $gone_id}) WHERE t.group_id = $group_id
  OPTIONAL MATCH (o:Object {id: $gone_id}) WHERE o.group_id = $group_id
  OPTIONAL MATCH (v:Value {id: $gone_id}) WHERE v.group_id = $group_id
  RETURN coalesce(s, t, o, v) AS gone
}
WITH keep, gone WHERE keep IS NOT NULL AND gone IS NOT NULL AND keep <> gone
CREATE (rec:ConceptMerge {group_id: $group_id, id: $merge_id, label: $label, survivor_id: keep.id,
                          survivor_name: keep.name, merged_id: gone.id, merged_name: gone.name,
                          merged_key: gone.normalized_name, merged_props: $props_json, reason: $reason,
                          merged_labels: [l IN labels(gone) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']],
                          undoable: $undoable, similarity: $similarity, run_id: $run_id, merged_at: $now,
                          added_aliases: [a IN coalesce(gone.aliases, [gone.name]) WHERE NOT a IN coalesce(keep.aliases, [])]})
SET keep.aliases = coalesce(keep.aliases, [keep.name]) + rec.added_aliases,
    keep.merged_ids = coalesce(keep.merged_ids, []) + gone.id,
    keep.merge_history = coalesce(keep.merge_history, []) + $merge_id,
    keep.embedding = coalesce(keep.embedding, gone.embedding),
    keep.kind = coalesce(keep.kind, gone.kind)
WITH keep, gone, rec
CALL (keep, gone) {
  MATCH (gone)-[r]->(x)
  WITH keep, gone, r, CASE WHEN x = gone THEN keep ELSE x END AS x, type(r) AS kind, properties(r) AS p
  CREATE (keep)-[n:$(kind)]->(x)
  SET n = p, n.merged_from = coalesce(p.merged_from, []) + gone.id
  DELETE r
  RETURN count(*) AS moved_out
}
CALL (keep, gone) {
  MATCH (x)-[r]->(gone)
  WITH keep, gone, r, x, type(r) AS kind, properties(r) AS p
  CREATE (x)-[n:$(kind)]->(keep)
  SET n = p, n.merged_from = coalesce(p.merged_from, []) + gone.id
  DELETE r
  RETURN count(*) AS moved_in
}
WITH keep, gone, rec, moved_out, moved_in, rec.merged_labels AS roles
DETACH DELETE gone
SET keep:$(roles)
RETURN rec.id AS merge_id, moved_out + moved_in AS moved;

// name: lifecycle_merge_of
// The merge records of a group that folded a node named $name (or with id $name), newest first
// (the schema migration's folds are not undoable and not listed).
MATCH (rec:ConceptMerge {group_id: $group_id})
WHERE rec.undone_at IS NULL AND coalesce(rec.undoable, true)
  AND (rec.merged_id = $name OR rec.merged_key = $key OR rec.id = $name)
RETURN rec {.*} AS merge ORDER BY rec.merged_at DESC;

// name: lifecycle_merged_into
// Where a node went when a later merge folded it (what an unmerge follows to the edges' holder).
MATCH (rec:ConceptMerge {group_id: $group_id, merged_id: $id}) WHERE rec.undone_at IS NULL
RETURN rec.survivor_id AS survivor_id ORDER BY rec.merged_at DESC LIMIT 1;

// name: lifecycle_unmerge_concept
// Undo a merge: recreate the gone node (its role labels, the properties it had), move back every
// edge whose merged_from names it (from whichever node holds them now), take its names off the
// holder, and the role labels no edge of the holder gives it any more.
MATCH (holder:Concept {id: $holder_id}) WHERE holder.group_id = $group_id
MATCH (rec:ConceptMerge {group_id: $group_id, id: $merge_id}) WHERE rec.undone_at IS NULL
CREATE (gone:Concept)
SET gone = $props, gone.group_id = $group_id
SET gone:$(coalesce(rec.merged_labels, [rec.label]))
SET holder.aliases = [a IN coalesce(holder.aliases, []) WHERE NOT a IN coalesce(rec.added_aliases, [])],
    holder.merged_ids = [i IN coalesce(holder.merged_ids, []) WHERE i <> rec.merged_id],
    rec.undone_at = $now
WITH holder, gone, rec
CALL (holder, gone) {
  MATCH (holder)-[r]->(x) WHERE gone.id IN coalesce(r.merged_from, [])
  WITH holder, gone, r, x, type(r) AS kind, properties(r) AS p
  CREATE (gone)-[n:$(kind)]->(x)
  SET n = p, n.merged_from = CASE WHEN size([i IN p.merged_from WHERE i <> gone.id]) = 0 THEN null
                                  ELSE [i IN p.merged_from WHERE i <> gone.id] END
  DELETE r
  RETURN count(*) AS back_out
}
CALL (holder, gone) {
  MATCH (x)-[r]->(holder) WHERE gone.id IN coalesce(r.merged_from, [])
  WITH holder, gone, r, x, type(r) AS kind, properties(r) AS p
  CREATE (x)-[n:$(kind)]->(gone)
  SET n = p, n.merged_from = CASE WHEN size([i IN p.merged_from WHERE i <> gone.id]) = 0 THEN null
                                  ELSE [i IN p.merged_from WHERE i <> gone.id] END
  DELETE r
  RETURN count(*) AS back_in
}
// the holder keeps the role labels its remaining edges give it (at least one)
WITH holder, gone, back_out, back_in,
     [x IN [['Subject', COUNT { (holder)<-[:HAS_SUBJECT]-() }], ['Topic', COUNT { (holder)<-[:HAS_TOPIC]-() }],
            ['Object', COUNT { (holder)<-[:HAS_OBJECT]-() }], ['Value', COUNT { (holder)<-[:VALUE]-() }]]
      WHERE x[1] > 0 | x[0]] AS roles
WITH holder, gone, back_out, back_in, [l IN labels(holder) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']
                                       AND NOT l IN roles AND size(roles) > 0] AS unused
REMOVE holder:$(unused)
RETURN gone.id AS restored_id, gone.name AS restored_name, holder.id AS holder_id, back_out + back_in AS moved;

// name: lifecycle_batch_memories
// The batch's live memories with what duplicate and conflict detection compare: parts (node
// ids; the names as the memory said them, which rules read), attributes, when it was said.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id}) WHERE m.status <> 'archived'
MATCH (m)-[:HAS_SUBJECT]->(s:Subject)
MATCH (m)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
RETURN m.id AS id, m.text AS text, m.memory_type AS memory_type, m.importance AS importance,
       coalesce(m.reference_time, m.created_at) AS said_at, m.created_at AS created_at,
       m.superseded_by AS superseded_by, s.id AS subject_id, s.name AS subject, t.id AS topic_id,
       coalesce(m.topic_name, t.name) AS topic, o.id AS object_id, coalesce(m.object_name, o.name) AS object,
       m.slot AS slot, m.slot_ends AS slot_ends,
       [(m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value) | {key: a.key, value: v.normalized_name}] AS attributes;

// name: lifecycle_related_memories
// Older live memories of the same subject that a batch memory may repeat or contradict: the
// same topic and object (a repeat); for $object_ids (stances) the same object; for $topic_ids
// (corrections, single-valued attributes) the same topic; for $slot_ids any memory of the subject
// whose topic is one of $topic_keys (the single-valued slots' words) or that names its slot (m.slot,
// set by the extractors); for $parting_ids (sold, 卖了) what the subject has ($possession_keys).
// Each lookup is narrow, so
// a hub (我 吃 米饭 three hundred times) costs its repeats, not the whole hub.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})-[:HAS_SUBJECT]->(s:Subject)
MATCH (m)-[:HAS_TOPIC]->(mt:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(mo:Object)
CALL (m, s, mt, mo) {
  MATCH (d:Memory)-[:HAS_OBJECT]->(mo) WHERE d <> m AND (d)-[:HAS_TOPIC]->(mt) RETURN d
  UNION
  MATCH (d:Memory)-[:HAS_TOPIC]->(mt) WHERE mo IS NULL AND d <> m AND NOT (d)-[:HAS_OBJECT]->() RETURN d
  UNION
  MATCH (d:Memory)-[:HAS_OBJECT]->(mo) WHERE m.id IN $object_ids AND d <> m RETURN d
  UNION
  MATCH (d:Memory)-[:HAS_TOPIC]->(mt) WHERE m.id IN $topic_ids AND d <> m RETURN d
  UNION
  MATCH (s)<-[:HAS_SUBJECT]-(d:Memory)-[:HAS_TOPIC]->(t:Topic)
  WHERE m.id IN $slot_ids AND d <> m AND (t.loose_key IN $topic_keys OR d.slot IS NOT NULL) RETURN d
  UNION
  MATCH (s)<-[:HAS_SUBJECT]-(d:Memory)-[:HAS_TOPIC]->(t:Topic)
  WHERE m.id IN $parting_ids AND d <> m AND t.loose_key IN $possession_keys RETURN d
}
WITH DISTINCT s, d
WHERE d.group_id = $group_id AND d.status <> 'archived' AND (d)-[:HAS_SUBJECT]->(s)
MATCH (d)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (d)-[:HAS_OBJECT]->(o:Object)
RETURN d.id AS id, d.text AS text, d.memory_type AS memory_type, d.importance AS importance,
       coalesce(d.reference_time, d.created_at) AS said_at, d.created_at AS created_at,
       d.superseded_by AS superseded_by, s.id AS subject_id, s.name AS subject, t.id AS topic_id,
       coalesce(d.topic_name, t.name) AS topic, o.id AS object_id, coalesce(d.object_name, o.name) AS object,
       d.slot AS slot, d.slot_ends AS slot_ends,
       [(d)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value) | {key: a.key, value: v.normalized_name}] AS attributes;

// name: lifecycle_merge_memory
// Fold the duplicate memory into the survivor: the survivor gains the duplicate's evidence
// (episodes) and links, the higher importance and both access counts; the duplicate is archived
// (never deleted) and names its survivor.
MATCH (keep:Memory {group_id: $group_id, id: $keep_id}), (dup:Memory {group_id: $group_id, id: $dup_id})
WHERE dup.status <> 'archived'
SET keep.importance = CASE WHEN dup.importance > keep.importance THEN dup.importance ELSE keep.importance END,
    keep.access_count = coalesce(keep.access_count, 0) + coalesce(dup.access_count, 0),
    keep.merged_memory_ids = coalesce(keep.merged_memory_ids, []) + dup.id,
    dup.status_before_archive = dup.status, dup.status = 'archived', dup.archived_at = $now,
    dup.archived_reason = 'duplicate', dup.duplicate_of = keep.id, dup.archived_by = $run_id
WITH keep, dup
CALL (keep, dup) {
  MATCH (dup)-[:EXTRACTED_FROM]->(e:Episode)
  MERGE (keep)-[:EXTRACTED_FROM]->(e)
  RETURN count(e) AS episodes
}
CALL (keep, dup) {
  MATCH (dup)-[r:CAUSALITY|REFERENCE]->(x:Memory) WHERE x <> keep
  WITH keep, x, type(r) AS kind, properties(r) AS p
  CALL (keep, x, kind, p) {
    WITH keep, x, kind, p WHERE kind = 'CAUSALITY'
    MERGE (keep)-[n:CAUSALITY {relation: p.relation}]->(x) ON CREATE SET n = p
    RETURN count(n) AS c
    UNION ALL
    WITH keep, x, kind, p WHERE kind = 'REFERENCE'
    MERGE (keep)-[n:REFERENCE {relation: p.relation}]->(x) ON CREATE SET n = p
    RETURN count(n) AS c
  }
  RETURN sum(c) AS outgoing
}
CALL (keep, dup) {
  MATCH (x:Memory)-[r:CAUSALITY|REFERENCE]->(dup) WHERE x <> keep
  WITH keep, x, type(r) AS kind, properties(r) AS p
  CALL (keep, x, kind, p) {
    WITH keep, x, kind, p WHERE kind = 'CAUSALITY'
    MERGE (x)-[n:CAUSALITY {relation: p.relation}]->(keep) ON CREATE SET n = p
    RETURN count(n) AS c
    UNION ALL
    WITH keep, x, kind, p WHERE kind = 'REFERENCE'
    MERGE (x)-[n:REFERENCE {relation: p.relation}]->(keep) ON CREATE SET n = p
    RETURN count(n) AS c
  }
  RETURN sum(c) AS incoming
}
RETURN keep.id AS keep_id, dup.id AS dup_id, episodes;

// name: lifecycle_supersede
// $newer_id supersedes $older_id: a SUPERSEDES edge newer -> older; the older one names what
// replaced it and since when it is no longer true, and keeps the interval in which it was the
// current fact: valid_from (its own time, else when it was said) until valid_until (the newer
// one's own time when it has one after that, "I moved to Shanghai in March" told in May; else when
// the newer one was said, $invalid_at). Only a current (not yet superseded) older one.
MATCH (newer:Memory {group_id: $group_id, id: $newer_id}), (older:Memory {group_id: $group_id, id: $older_id})
WHERE older.superseded_by IS NULL
MERGE (newer)-[e:SUPERSEDES]->(older)
ON CREATE SET e.group_id = $group_id, e.reason = $reason, e.run_id = $run_id, e.created_at = $now,
              e.discovered = true
WITH newer, older, coalesce(older.valid_from, older.occurred_at, older.reference_time, older.created_at) AS since
SET older.superseded_by = newer.id, older.invalid_at = $invalid_at, older.valid_from = since,
    older.valid_until = CASE
      WHEN newer.occurred_at IS NOT NULL AND since IS NOT NULL AND datetime(newer.occurred_at) > datetime(since)
      THEN newer.occurred_at ELSE $invalid_at END
RETURN newer.id AS newer_id, older.id AS older_id;

// name: lifecycle_ended_by
// The current memories that a death ends ($items: {id, subject_id, thing} of memories saying someone
// died, 外婆去世了, "Max passed away"): those whose object is the one who died (我 | 狗 | Max, "I | have |
// Max"); for a death of the speaker's own said without a name (it.thing: "my dog" → dog), the
// speaker's possessions (topics $possession_keys), which the caller keeps when their object
// (older_object) is that thing. Each said before the death was: what held until then.
UNWIND $items AS it
MATCH (death:Memory {group_id: $group_id, id: it.id})
CALL (it) {
  MATCH (old:Memory {group_id: $group_id})-[:HAS_OBJECT]->(x {id: it.subject_id})
  RETURN old, false AS by_thing
  UNION
  MATCH (:Concept {group_id: $group_id, normalized_name: $user_key})<-[:HAS_SUBJECT]-(old:Memory)-[:HAS_TOPIC]->(t:Topic)
  WHERE it.thing IS NOT NULL AND t.loose_key IN $possession_keys
  RETURN old, true AS by_thing
}
WITH it, death, old, by_thing
WHERE old.group_id = $group_id AND old.id <> it.id AND old.superseded_by IS NULL AND old.status <> 'archived'
  AND old.memory_type IN ['RELATION', 'FACT']
  AND coalesce(old.reference_time, old.created_at) <= coalesce(death.reference_time, death.created_at)
RETURN it.id AS newer_id, old.id AS older_id, old.text AS older_text, by_thing,
       [(old)-[:HAS_OBJECT]->(o) | coalesce(old.object_name, o.name)][0] AS older_object;

// name: lifecycle_chain
// The supersede chain through a memory: from the current one down to the oldest it replaced,
// each with its depth below the current one and the interval in which it was the current fact.
MATCH (m:Memory {group_id: $group_id, id: $id})
OPTIONAL MATCH (m)<-[:SUPERSEDES*1..20]-(head:Memory) WHERE head.superseded_by IS NULL
WITH coalesce(head, m) AS head LIMIT 1
MATCH q = (head)-[:SUPERSEDES*0..40]->(n:Memory)
WITH n, min(length(q)) AS depth
RETURN n.id AS id, n.text AS text, n.status AS status, n.superseded_by AS superseded_by,
       coalesce(n.reference_time, n.created_at) AS said_at,
       coalesce(n.valid_from, n.occurred_at, n.reference_time, n.created_at) AS valid_from,
       n.valid_until AS valid_until, depth
ORDER BY depth, said_at DESC;

// name: lifecycle_link_candidates
// Discovery: for each batch memory, the latest earlier live memory sharing its topic or object
// (a chain of "related" links through each shared concept, so a hub gets two links per memory,
// not a clique), and its temporal neighbours within $window_s seconds of the same session.
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id}) WHERE m.status <> 'archived'
CALL (m) {
  MATCH (m)-[:HAS_TOPIC|HAS_OBJECT]->(c)
  WHERE COUNT { (c)<-[:HAS_TOPIC|HAS_OBJECT]-(:Memory) } <= $hub_cap
  MATCH (c)<-[:HAS_TOPIC|HAS_OBJECT]-(d:Memory)
  WHERE d <> m AND d.status <> 'archived' AND d.group_id = $group_id
        AND [d.created_at, d.id] < [m.created_at, m.id]
  WITH c, d ORDER BY d.created_at DESC, d.id DESC
  WITH c, collect(d)[0] AS d
  RETURN collect({id: d.id, shared: c.name}) AS shared
}
CALL (m) {
  MATCH (d:Memory {group_id: $group_id, session_id: m.session_id})
  WHERE m.session_id IS NOT NULL AND d <> m AND d.status <> 'archived'
        AND abs(duration.inSeconds(datetime(coalesce(d.reference_time, d.created_at)),
                                   datetime(coalesce(m.reference_time, m.created_at))).seconds) <= $window_s
  RETURN collect({id: d.id, text: d.text, said_at: coalesce(d.reference_time, d.created_at)})[0..$near_cap] AS near
}
RETURN m.id AS id, m.text AS text, coalesce(m.reference_time, m.created_at) AS said_at, shared, near;

// name: lifecycle_link
// A discovered link (REFERENCE or CAUSALITY), never replacing one a user or an extractor made.
UNWIND $links AS l
MATCH (a:Memory {group_id: $group_id, id: l.source_id}), (b:Memory {group_id: $group_id, id: l.target_id})
CALL (a, b, l) {
  WITH a, b, l WHERE l.edge_type = 'REFERENCE' AND NOT EXISTS { (a)-[:REFERENCE]-(b) }
  CREATE (a)-[e:REFERENCE]->(b)
  SET e.relation = l.relation, e.importance = l.importance, e.strength = l.importance, e.discovered = true,
      e.confidence = l.confidence, e.group_id = $group_id, e.created_at = $now, e.run_id = $run_id
  RETURN count(e) AS n
  UNION ALL
  WITH a, b, l WHERE l.edge_type = 'CAUSALITY' AND NOT EXISTS { (a)-[:CAUSALITY]-(b) }
  CREATE (a)-[e:CAUSALITY]->(b)
  SET e.relation = l.relation, e.importance = l.importance, e.strength = l.importance, e.discovered = true,
      e.confidence = l.confidence, e.group_id = $group_id, e.created_at = $now, e.run_id = $run_id
  RETURN count(e) AS n
}
RETURN sum(n) AS created;

// name: lifecycle_decay_page
// A page of the group's live memories with what their strength is computed from.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' AND m.id > $after
RETURN m.id AS id, m.memory_type AS memory_type, m.importance AS importance,
       coalesce(m.access_count, 0) AS access_count, m.created_at AS created_at,
       m.last_accessed_at AS last_accessed_at, m.superseded_by AS superseded_by,
       m.source AS source, m.text AS text
ORDER BY m.id LIMIT $limit;

// name: lifecycle_set_strength
UNWIND $rows AS r
MATCH (m:Memory {group_id: $group_id, id: r.id})
SET m.strength = r.strength, m.strength_at = $as_of
RETURN count(m) AS set;

// name: lifecycle_archive
// Archive faded memories (never deleted; `restore` puts back the status they had).
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id}) WHERE m.status <> 'archived'
SET m.status_before_archive = m.status, m.status = 'archived', m.archived_at = $now,
    m.archived_reason = $reason, m.archived_by = $run_id
RETURN collect(m.id) AS archived;

// name: lifecycle_summary_candidates
// Old, unimportant, current memories (no summary of their own), with subject and topic, for
// folding into summaries.
MATCH (m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' AND m.superseded_by IS NULL AND m.importance < $max_importance
      AND m.created_at < $before AND coalesce(m.source, '') <> 'summary'
MATCH (m)-[:HAS_SUBJECT]->(s:Subject)
MATCH (m)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
RETURN m.id AS id, m.text AS text, m.memory_type AS memory_type, m.importance AS importance,
       coalesce(m.occurred_at, m.reference_time, m.created_at) AS at, m.created_at AS created_at,
       s.id AS subject_id, s.name AS subject, t.id AS topic_id, t.name AS topic, o.name AS object
ORDER BY s.id, t.id, at;

// name: lifecycle_summarize
// Link a summary memory to what it folds (SUMMARIZES edges) and archive the originals, still
// reachable from the summary.
MATCH (sm:Memory {group_id: $group_id, id: $summary_id})
UNWIND $ids AS id
MATCH (m:Memory {group_id: $group_id, id: id})
MERGE (sm)-[e:SUMMARIZES]->(m) ON CREATE SET e.group_id = $group_id, e.created_at = $now, e.run_id = $run_id
SET m.status_before_archive = CASE WHEN m.status = 'archived' THEN m.status_before_archive ELSE m.status END,
    m.status = 'archived', m.archived_at = coalesce(m.archived_at, $now), m.archived_reason = 'summarized',
    m.summarized_by = sm.id, m.archived_by = $run_id
RETURN count(m) AS folded;

// name: lifecycle_memory_exists
MATCH (m:Memory {group_id: $group_id, id: $id}) RETURN m.id AS id;

// name: lifecycle_counts
// Memories by status, and the last run.
MATCH (m:Memory {group_id: $group_id})
RETURN m.status AS status, count(*) AS n;
