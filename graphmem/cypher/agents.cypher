// Where agents keep state beside the long-term graph: the working memory of a session
// (:ScratchNote key -> value with an optional expiry, :BufferedTurn recent turns in order) and
// the LangGraph store (:StoreItem, one per namespace and key). Every query is scoped to one
// group.

// name: agents_note_unique
// One note per group, session and key, however many writers.
CREATE CONSTRAINT scratch_note_key IF NOT EXISTS
FOR (n:ScratchNote) REQUIRE (n.group_id, n.session_id, n.key) IS UNIQUE;

// name: agents_turn_index
CREATE INDEX buffered_turn_session IF NOT EXISTS FOR (n:BufferedTurn) ON (n.group_id, n.session_id);

// name: agents_store_unique
// One store item per group, namespace and key.
CREATE CONSTRAINT store_item_key IF NOT EXISTS FOR (n:StoreItem) REQUIRE (n.group_id, n.ns, n.key) IS UNIQUE;

// --- working memory: the scratchpad -------------------------------------------------------------

// name: note_put
// Write or overwrite a note; $expires_ms null keeps it until the session is cleared.
MERGE (n:ScratchNote {group_id: $group_id, session_id: $session_id, key: $key})
ON CREATE SET n.created_at = $now, n.created_ms = $now_ms
SET n.value = $value, n.updated_at = $now, n.expires_ms = $expires_ms
RETURN n.key AS key, n.created_at AS created_at;

// name: notes_live
// The session's notes that have not expired, oldest first.
MATCH (n:ScratchNote {group_id: $group_id, session_id: $session_id})
WHERE n.expires_ms IS NULL OR n.expires_ms > $now_ms
RETURN n.key AS key, n.value AS value, n.created_at AS created_at, n.updated_at AS updated_at,
       n.expires_ms AS expires_ms
ORDER BY n.created_ms, n.key;

// name: note_delete
MATCH (n:ScratchNote {group_id: $group_id, session_id: $session_id, key: $key})
DELETE n
RETURN count(*) AS deleted;

// name: notes_purge_expired
// Expired notes of one session are deleted when the session is next read or written.
MATCH (n:ScratchNote {group_id: $group_id, session_id: $session_id})
WHERE n.expires_ms IS NOT NULL AND n.expires_ms <= $now_ms
DELETE n
RETURN count(*) AS deleted;

// --- working memory: the recent-turns buffer ----------------------------------------------------

// name: turn_append
// Append turns after the session's last one, in the order given.
OPTIONAL MATCH (t:BufferedTurn {group_id: $group_id, session_id: $session_id})
WITH coalesce(max(t.order), -1) AS last
UNWIND range(0, size($turns) - 1) AS i
WITH last, i, $turns[i] AS turn
CREATE (b:BufferedTurn {group_id: $group_id, session_id: $session_id, order: last + 1 + i, role: turn.role,
                        content: turn.content, speaker: turn.speaker, timestamp: turn.timestamp, created_at: $now})
RETURN b.order AS order;

// name: turns_recent
// The last $limit turns of a session, newest first (callers reverse them into reading order).
MATCH (t:BufferedTurn {group_id: $group_id, session_id: $session_id})
RETURN t.order AS order, t.role AS role, t.content AS content, t.speaker AS speaker, t.timestamp AS timestamp
ORDER BY t.order DESC
LIMIT $limit;

// name: session_clear
// End of a session: its notes and buffered turns are deleted (promote turns with ingest first).
CALL {
  MATCH (n:ScratchNote {group_id: $group_id, session_id: $session_id}) RETURN n
  UNION ALL
  MATCH (n:BufferedTurn {group_id: $group_id, session_id: $session_id}) RETURN n
}
DETACH DELETE n
RETURN count(*) AS deleted;

// --- the LangGraph store ------------------------------------------------------------------------

// name: store_put
MERGE (i:StoreItem {group_id: $group_id, ns: $ns, key: $key})
ON CREATE SET i.created_at = $now, i.namespace = $namespace
SET i.value = $value, i.updated_at = $now, i.text = $text, i.embedding = $embedding
RETURN i.created_at AS created_at, i.updated_at AS updated_at;

// name: store_get
MATCH (i:StoreItem {group_id: $group_id, ns: $ns, key: $key})
RETURN i.namespace AS namespace, i.key AS key, i.value AS value, i.created_at AS created_at,
       i.updated_at AS updated_at;

// name: store_delete
MATCH (i:StoreItem {group_id: $group_id, ns: $ns, key: $key})
DELETE i
RETURN count(*) AS deleted;

// name: store_search
// Items under a namespace prefix of one group, by similarity to $embedding (when given; items kept
// out of the index come after the scored ones), then newest.
MATCH (i:StoreItem {group_id: $group_id})
WHERE i.ns = $ns OR i.ns STARTS WITH $ns_prefix
WITH i, CASE WHEN $embedding IS NULL OR i.embedding IS NULL THEN null
             ELSE vector.similarity.cosine(i.embedding, $embedding) END AS score
RETURN i.namespace AS namespace, i.key AS key, i.value AS value, i.created_at AS created_at,
       i.updated_at AS updated_at, score
ORDER BY score IS NULL, score DESC, i.updated_at DESC, i.key;

// name: store_namespaces_group
MATCH (i:StoreItem {group_id: $group_id})
RETURN DISTINCT i.namespace AS namespace;
