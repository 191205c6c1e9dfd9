// Statistics of a group or the database (graphmem stats, the retriever's size probes).

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
