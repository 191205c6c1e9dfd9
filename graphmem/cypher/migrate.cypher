// Schema migrations (graphmem/store/migrate.py), run by `graphmem init` and on first use when the
// database's schema version is older than this graphmem's. Each step works in small transactions
// and finds its remaining work again when it starts: a run that stops half-way is finished by the
// next one.

// --- schema 9: one node per name -----------------------------------------------------------

// name: migrate_concept_duplicates
// Up to $limit sets of concept nodes that schema 8 kept apart and that are one node now: within a
// group, the same normalised name in several roles (Marco the Object of one memory and the Subject
// of another, 杭州 an Object and a Value), and an Object named by a pronoun of the user or the agent
// ($pronouns: name -> @user / @agent) beside that person's node. Each node with its role labels and
// how many memories use it (the survivor of a set is chosen from these).
CALL () {
  MATCH (n:Subject) RETURN n
  UNION
  MATCH (n:Topic) RETURN n
  UNION
  MATCH (n:Object) RETURN n
  UNION
  MATCH (n:Value) WHERE n.normalized_name IS NOT NULL RETURN n
}
WITH n, CASE WHEN n:Object AND NOT n:Subject AND n.normalized_name IN keys($pronouns)
             THEN $pronouns[n.normalized_name] ELSE n.normalized_name END AS key
WHERE key IS NOT NULL
WITH n.group_id AS group_id, key, collect(n) AS nodes
WHERE size(nodes) > 1
RETURN group_id, key,
       [n IN nodes | {id: n.id, key: n.normalized_name, created_at: n.created_at,
                      labels: [l IN labels(n) WHERE l IN ['Subject', 'Topic', 'Object', 'Value']],
                      uses: COUNT { (n)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT|VALUE]-() }}] AS nodes
LIMIT $limit;

// name: migrate_concept_label
// Up to $batch concept nodes without the :Concept label get it (once their duplicates are folded,
// the label's uniqueness constraint holds).
CALL () {
  MATCH (n:Subject) WHERE NOT n:Concept RETURN n
  UNION
  MATCH (n:Topic) WHERE NOT n:Concept RETURN n
  UNION
  MATCH (n:Object) WHERE NOT n:Concept RETURN n
  UNION
  MATCH (n:Value) WHERE NOT n:Concept AND n.normalized_name IS NOT NULL RETURN n
}
WITH n LIMIT $batch
SET n:Concept
RETURN count(n) AS labelled;

// name: migrate_valid_from
// Up to $batch memories get valid_from: since when what they say holds (their own time, else when
// it was said), as create_memories writes it now.
MATCH (m:Memory)
WHERE m.valid_from IS NULL AND coalesce(m.occurred_at, m.reference_time, m.created_at) IS NOT NULL
WITH m LIMIT $batch
SET m.valid_from = coalesce(m.occurred_at, m.reference_time, m.created_at)
RETURN count(m) AS set;

// name: migrate_valid_until
// Up to $batch superseded memories get valid_until: the time of the memory that replaced them (its
// own time when it has one after theirs, else when it was said), as lifecycle_supersede writes it now.
MATCH (newer:Memory)-[:SUPERSEDES]->(older:Memory)
WHERE older.valid_until IS NULL AND older.superseded_by = newer.id
  AND coalesce(older.invalid_at, newer.reference_time, newer.created_at) IS NOT NULL
WITH newer, older LIMIT $batch
SET older.valid_until = CASE
      WHEN newer.occurred_at IS NOT NULL AND older.valid_from IS NOT NULL
           AND datetime(newer.occurred_at) > datetime(older.valid_from) THEN newer.occurred_at
      ELSE coalesce(older.invalid_at, newer.reference_time, newer.created_at) END
RETURN count(older) AS set;
