// Administration: whole-group operations. Run as auto-commit queries (CALL ... IN TRANSACTIONS
// commits in batches, so deleting a large group never needs one huge transaction).

// name: delete_group_memories
// A group's memories with their own Attribute nodes, $batch memories per transaction.
MATCH (m:Memory {group_id: $group_id}) WHERE m.status IS NOT NULL
CALL (m) {
  OPTIONAL MATCH (m)-[:ATTRIBUTE]->(a:Attribute)
  WITH m, collect(a) AS attributes
  FOREACH (a IN attributes | DETACH DELETE a)
  DETACH DELETE m
  RETURN 1 + size(attributes) AS removed
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(removed), 0) AS deleted;

// name: delete_group_nodes
// Everything else the group owns: concepts, values, leftover attributes, episodes and their
// sentences, extraction jobs.
CALL () {
  MATCH (n:Subject {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Topic {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Object {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Value {group_id: $group_id}) WHERE n.normalized_name IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Memory {group_id: $group_id}) RETURN n
  UNION ALL
  MATCH (n:Attribute) WHERE n.group_id = $group_id RETURN n
  UNION ALL
  MATCH (n:Episode) WHERE n.group_id = $group_id RETURN n
  UNION ALL
  MATCH (n:Sentence) WHERE n.group_id = $group_id RETURN n
  UNION ALL
  MATCH (n:ExtractionJob) WHERE n.group_id = $group_id RETURN n
  UNION ALL
  MATCH (n:WriteRequest) WHERE n.group_id = $group_id RETURN n
}
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted;

// name: count_group_nodes
// How many nodes of each label a group holds.
MATCH (n) WHERE n.group_id = $group_id
RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label;
