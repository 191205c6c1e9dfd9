// Export and import of one group (graphmem/analyst/portability.py, `graphmem export|import`).
// An export is every node of the group with its properties and labels and every relationship
// that starts at one of them (a concept node, one per name, once, whatever roles it plays). Import MERGEs nodes on their id (a Sentence on its episode and position) and
// relationships on their endpoints (and their key: memory_id, relation), then SETs the exported
// properties: importing the same file twice changes nothing. Labels and relationship types are
// fixed in each query (an index lookup needs a static label); the code picks the query by name.

// name: export_nodes
// Every node of the group. A Sentence (no id of its own) is referred to by its episode.
CALL () {
  MATCH (n:Memory {group_id: $group_id}) RETURN n
  UNION MATCH (n:Subject {group_id: $group_id}) RETURN n
  UNION MATCH (n:Topic {group_id: $group_id}) RETURN n
  UNION MATCH (n:Object {group_id: $group_id}) RETURN n
  UNION MATCH (n:Attribute {group_id: $group_id}) RETURN n
  UNION MATCH (n:Value {group_id: $group_id}) RETURN n
  UNION MATCH (n:Episode {group_id: $group_id}) RETURN n
  UNION MATCH (n:Sentence {group_id: $group_id}) RETURN n
  UNION MATCH (n:ExtractionJob {group_id: $group_id}) RETURN n
}
RETURN labels(n) AS labels,
       CASE WHEN $vectors THEN properties(n) ELSE n {.*, embedding: null} END AS props,
       CASE WHEN n:Sentence THEN [(n)-[:PART_OF]->(e:Episode) | e.id][0] END AS episode_id;

// name: export_edges
// Every relationship that starts at a node of the group, with both ends' labels and refs.
CALL () {
  MATCH (n:Memory {group_id: $group_id}) RETURN n
  UNION MATCH (n:Subject {group_id: $group_id}) RETURN n
  UNION MATCH (n:Topic {group_id: $group_id}) RETURN n
  UNION MATCH (n:Object {group_id: $group_id}) RETURN n
  UNION MATCH (n:Attribute {group_id: $group_id}) RETURN n
  UNION MATCH (n:Value {group_id: $group_id}) RETURN n
  UNION MATCH (n:Episode {group_id: $group_id}) RETURN n
  UNION MATCH (n:Sentence {group_id: $group_id}) RETURN n
  UNION MATCH (n:ExtractionJob {group_id: $group_id}) RETURN n
}
MATCH (n)-[r]->(b)
RETURN type(r) AS type, properties(r) AS props, labels(n)[0] AS start_label, labels(b)[0] AS end_label,
       CASE WHEN n:Sentence THEN [(n)-[:PART_OF]->(e:Episode) | e.id][0] + ':' + toString(n.position)
            ELSE n.id END AS start, b.id AS end, b.group_id AS end_group;

// --- import: nodes -----------------------------------------------------------------------
// $rows: [{id, props}]. A node whose id exists in another group is left alone and not counted
// (the caller reports it): nothing crosses groups.

// name: import_memory
UNWIND $rows AS r
MERGE (n:Memory {id: r.id}) ON CREATE SET n.group_id = $group_id
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_concept
// A concept node (one per name) with its role labels, $rows: [{id, labels, props}].
UNWIND $rows AS r
MERGE (n:Concept {id: r.id}) ON CREATE SET n.group_id = $group_id, n.normalized_name = r.props.normalized_name
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
SET n:$(r.labels)
RETURN count(n) AS written;

// name: import_subject
// import_subject .. import_value: a version 1 file's concept nodes, one per role (the import then
// folds a name's nodes into one, store/migrate.py).
UNWIND $rows AS r
MERGE (n:Subject {id: r.id}) ON CREATE SET n.group_id = $group_id, n.normalized_name = r.props.normalized_name
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_topic
UNWIND $rows AS r
MERGE (n:Topic {id: r.id}) ON CREATE SET n.group_id = $group_id, n.normalized_name = r.props.normalized_name
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_object
UNWIND $rows AS r
MERGE (n:Object {id: r.id}) ON CREATE SET n.group_id = $group_id, n.normalized_name = r.props.normalized_name
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_attribute
UNWIND $rows AS r
MERGE (n:Attribute {id: r.id}) ON CREATE SET n.group_id = $group_id
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_value
UNWIND $rows AS r
MERGE (n:Value {id: r.id}) ON CREATE SET n.group_id = $group_id, n.normalized_name = r.props.normalized_name
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_episode
UNWIND $rows AS r
MERGE (n:Episode {id: r.id}) ON CREATE SET n.group_id = $group_id
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_extractionjob
UNWIND $rows AS r
MERGE (n:ExtractionJob {id: r.id}) ON CREATE SET n.group_id = $group_id
WITH n, r WHERE n.group_id = $group_id
SET n = r.props
RETURN count(n) AS written;

// name: import_sentence
// A sentence with its PART_OF edge: $rows: [{episode_id, props}] (props.position tells them apart).
UNWIND $rows AS r
MATCH (e:Episode {group_id: $group_id, id: r.episode_id})
MERGE (s:Sentence {group_id: $group_id, position: r.props.position})-[:PART_OF]->(e)
SET s = r.props
RETURN count(s) AS written;

// --- import: relationships ---------------------------------------------------------------
// $rows: [{start, end, props}] (start/end: the ids of both ends, in $group_id).

// name: import_has_subject
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Subject {group_id: $group_id, id: r.end})
MERGE (a)-[e:HAS_SUBJECT]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_has_topic
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Topic {group_id: $group_id, id: r.end})
MERGE (a)-[e:HAS_TOPIC]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_has_object
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Object {group_id: $group_id, id: r.end})
MERGE (a)-[e:HAS_OBJECT]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_memory_type
// One MEMORY_TYPE edge per memory between the same Subject and Topic: keyed by memory_id.
UNWIND $rows AS r
MATCH (a:Subject {group_id: $group_id, id: r.start}), (b:Topic {group_id: $group_id, id: r.end})
MERGE (a)-[e:MEMORY_TYPE {memory_id: r.props.memory_id}]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_core_relation
UNWIND $rows AS r
MATCH (a:Topic {group_id: $group_id, id: r.start}), (b:Object {group_id: $group_id, id: r.end})
MERGE (a)-[e:CORE_RELATION {memory_id: r.props.memory_id}]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_attribute_edge
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Attribute {group_id: $group_id, id: r.end})
MERGE (a)-[e:ATTRIBUTE]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_value_edge
UNWIND $rows AS r
MATCH (a:Attribute {group_id: $group_id, id: r.start}), (b:Value {group_id: $group_id, id: r.end})
MERGE (a)-[e:VALUE]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_extracted_from
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Episode {group_id: $group_id, id: r.end})
MERGE (a)-[e:EXTRACTED_FROM]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_next
UNWIND $rows AS r
MATCH (a:Episode {group_id: $group_id, id: r.start}), (b:Episode {group_id: $group_id, id: r.end})
MERGE (a)-[e:NEXT]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_causality
// Keyed by relation word, as link_causality writes them.
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Memory {group_id: $group_id, id: r.end})
MERGE (a)-[e:CAUSALITY {relation: r.props.relation}]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_reference
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Memory {group_id: $group_id, id: r.end})
MERGE (a)-[e:REFERENCE {relation: r.props.relation}]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_supersedes
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Memory {group_id: $group_id, id: r.end})
MERGE (a)-[e:SUPERSEDES]->(b) SET e = r.props
RETURN count(e) AS written;

// name: import_summarizes
UNWIND $rows AS r
MATCH (a:Memory {group_id: $group_id, id: r.start}), (b:Memory {group_id: $group_id, id: r.end})
MERGE (a)-[e:SUMMARIZES]->(b) SET e = r.props
RETURN count(e) AS written;
