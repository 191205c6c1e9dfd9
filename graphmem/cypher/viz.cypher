// Subgraphs for pictures (notebooks, Neo4j Browser).

// name: memory_subgraph
// The memories given, their concept and attribute nodes, and memory->memory edges among them
// and to their direct neighbours. Paste into Neo4j Browser with :param group_id / ids to see it.
MATCH (m:Memory {group_id: $group_id}) WHERE m.id IN $ids
OPTIONAL MATCH (m)-[l:CAUSALITY|REFERENCE]-(n:Memory {group_id: $group_id})
WITH collect(DISTINCT m) + collect(DISTINCT n) AS ms, collect(DISTINCT l) AS links
UNWIND ms AS mem
OPTIONAL MATCH (mem)-[r:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c)
OPTIONAL MATCH (mem)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
RETURN mem.id AS memory_id, mem.text AS text, mem.memory_type AS memory_type,
       collect(DISTINCT {rel: type(r), label: labels(c)[0], id: c.id, name: c.name}) AS concepts,
       collect(DISTINCT {key: a.key, value: v.name, value_id: v.id}) AS attributes,
       [x IN links | {type: type(x), relation: x.relation, source: startNode(x).id, target: endNode(x).id}] AS links;
