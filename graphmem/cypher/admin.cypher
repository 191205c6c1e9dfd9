// Administration: whole-group operations (graphmem/store/admin.py). Each batch query changes at
// most $batch nodes in its own transaction (and returns how many as `changed`); it is run until
// it changes nothing: a run that is killed has committed its batches, and running it again
// finishes the job.

// name: group_deletion_start
// The mark of a group deletion under way (stats --all names a group whose deletion did not finish).
MERGE (d:GroupDeletion {group_id: $group_id})
ON CREATE SET d.started_at = $now
SET d.resumed_at = CASE WHEN d.started_at = $now THEN null ELSE $now END
RETURN d.started_at AS started_at, d.resumed_at IS NOT NULL AS resumed;

// name: group_deletion_finish
MATCH (d:GroupDeletion {group_id: $group_id})
DELETE d
RETURN count(*) AS finished;

// name: group_delete_memories
// Up to $batch of a group's memories with their own Attribute nodes (through the memory_group index).
MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL
WITH m LIMIT $batch
OPTIONAL MATCH (m)-[:ATTRIBUTE]->(a:Attribute)
WITH collect(DISTINCT m) AS memories, collect(DISTINCT a) AS attributes
FOREACH (a IN attributes | DETACH DELETE a)
FOREACH (m IN memories | DETACH DELETE m)
RETURN size(memories) + size(attributes) AS changed, size(memories) AS memories, size(attributes) AS attributes;

// name: group_delete_batch
// Up to $batch of a group's other nodes, each label through its group index (the predicates that
// look redundant let the planner use the composite ones), with their edges. A name's one node
// (:Concept, with the labels of its roles) once, through the concept key; role nodes without
// :Concept are those of a database not yet moved to one node per name.
CALL () {
  MATCH (n:Episode {group_id: $group_id}) WHERE n.session_id IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Sentence {group_id: $group_id}) RETURN n
  UNION ALL
  MATCH (n:ExtractionJob {group_id: $group_id}) WHERE n.state IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Concept {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Value {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL AND NOT n:Concept RETURN n
  UNION ALL
  MATCH (n:Subject {group_id: $group_id}) WHERE NOT n:Concept RETURN n
  UNION ALL
  MATCH (n:Topic {group_id: $group_id}) WHERE NOT n:Concept RETURN n
  UNION ALL
  MATCH (n:Object {group_id: $group_id}) WHERE NOT n:Concept RETURN n
  UNION ALL
  MATCH (n:ConceptMerge {group_id: $group_id}) WHERE n.merged_key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ScratchNote {group_id: $group_id}) WHERE n.session_id IS NOT NULL AND n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:BufferedTurn {group_id: $group_id}) WHERE n.session_id IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:StoreItem {group_id: $group_id}) WHERE n.ns IS NOT NULL AND n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:WriteRequest {group_id: $group_id}) WHERE n.id IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ConsolidationRun {group_id: $group_id}) RETURN n
  UNION ALL
  MATCH (n:ConsolidationLock {group_id: $group_id}) RETURN n
}
// a concept with several roles (:Subject:Object) comes once per label: deleted once
WITH DISTINCT n LIMIT $batch
WITH n, head(labels(n)) AS label
DETACH DELETE n
RETURN label, count(*) AS changed;

// name: group_delete_sweep
// Whatever of the group is left under any label (a node without the indexed properties, a label
// added later): a scan of every node, run last, until it finds nothing.
MATCH (n) WHERE n.group_id = $group_id AND NOT n:GroupDeletion
WITH n LIMIT $batch
WITH n, head(labels(n)) AS label
DETACH DELETE n
RETURN label, count(*) AS changed;

// name: count_group_nodes
// How many nodes of each label a group holds (a scan of every node).
MATCH (n) WHERE n.group_id = $group_id
RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label;

// name: count_group_edges
// How many relationships touch a group's nodes (a scan of every node).
MATCH (n)-[r]-() WHERE n.group_id = $group_id
RETURN count(DISTINCT r) AS n;

// name: group_census
// Every group id any node carries, with its nodes by label (a scan of every node).
MATCH (n) WHERE n.group_id IS NOT NULL
RETURN n.group_id AS group_id, head(labels(n)) AS label, count(*) AS n
ORDER BY group_id, label;

// name: group_has_nodes
// A row when any node carries the group id (a scan that stops at the first).
MATCH (n) WHERE n.group_id = $group_id
RETURN true AS found
LIMIT 1;

// name: group_rename_start
// The mark of a rename under way: a re-run after a crash may continue into a group that already
// holds the renamed part.
MERGE (r:GroupRename {from_group_id: $old, to_group_id: $new})
ON CREATE SET r.started_at = $now
RETURN r.started_at AS started_at;

// name: group_rename_pending
// A rename into $new that did not finish (from which group).
MATCH (r:GroupRename {to_group_id: $new})
RETURN r.from_group_id AS old, r.started_at AS started_at;

// name: group_rename_batch
// Up to $batch nodes of group $old, and the relationships of theirs that carry the group id, moved
// to group $new.
MATCH (n) WHERE n.group_id = $old
WITH n LIMIT $batch
CALL (n) {
  MATCH (n)-[r]-() WHERE r.group_id = $old
  SET r.group_id = $new
}
SET n.group_id = $new
RETURN count(n) AS changed;

// name: group_rename_finish
MATCH (r:GroupRename {from_group_id: $old, to_group_id: $new})
DELETE r
RETURN count(*) AS finished;
