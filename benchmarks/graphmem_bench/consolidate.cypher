// Queries of `graphmem bench consolidate` (graphmem_bench/consolidate.py), read through the
// library's loader (graphmem.store.cypher.load_queries). Every query is scoped to $group_id.

// name: bench_consolidate_concepts
// Every concept node of a group with the names it holds: what the benchmark counts before and
// after a consolidation run, and where it reads merged names from (two names are merged when
// one node holds both).
CALL () {
  MATCH (c:Subject {group_id: $group_id}) RETURN 'Subject' AS label, c
  UNION ALL
  MATCH (c:Topic {group_id: $group_id}) RETURN 'Topic' AS label, c
  UNION ALL
  MATCH (c:Object {group_id: $group_id}) RETURN 'Object' AS label, c
}
RETURN label, c.id AS id, c.name AS name, coalesce(c.aliases, [c.name]) AS aliases
ORDER BY label, name;
