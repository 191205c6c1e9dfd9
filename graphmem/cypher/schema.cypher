// Schema: constraints and indexes graphmem installs with `graphmem init`.
// Every statement is idempotent (IF NOT EXISTS). Queries named schema_* run in file order.

// name: schema_memory_id
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE;

// name: schema_subject_key
// Concept nodes are unique per group and normalised name: concurrent MERGEs never duplicate them.
CREATE CONSTRAINT subject_key IF NOT EXISTS FOR (n:Subject) REQUIRE (n.group_id, n.normalized_name) IS UNIQUE;

// name: schema_topic_key
CREATE CONSTRAINT topic_key IF NOT EXISTS FOR (n:Topic) REQUIRE (n.group_id, n.normalized_name) IS UNIQUE;

// name: schema_object_key
CREATE CONSTRAINT object_key IF NOT EXISTS FOR (n:Object) REQUIRE (n.group_id, n.normalized_name) IS UNIQUE;

// name: schema_value_key
CREATE CONSTRAINT value_key IF NOT EXISTS FOR (n:Value) REQUIRE (n.group_id, n.normalized_name) IS UNIQUE;

// name: schema_subject_id
CREATE CONSTRAINT subject_id IF NOT EXISTS FOR (n:Subject) REQUIRE n.id IS UNIQUE;

// name: schema_topic_id
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE;

// name: schema_object_id
CREATE CONSTRAINT object_id IF NOT EXISTS FOR (n:Object) REQUIRE n.id IS UNIQUE;

// name: schema_concept_key
// One node per name within a group, whatever role it plays: a concept node carries the label
// :Concept beside the label of each role it plays (:Subject, :Topic, :Object, :Value; a node may
// be :Subject:Object), and writers MERGE on :Concept, so concurrent writers never make two nodes
// of one name, even in two roles. Created after the role labels' constraints: a node's labels
// list its role labels first (labels(n)[0] is a role).
CREATE CONSTRAINT concept_key IF NOT EXISTS FOR (n:Concept) REQUIRE (n.group_id, n.normalized_name) IS UNIQUE;

// name: schema_concept_id
CREATE CONSTRAINT concept_id IF NOT EXISTS FOR (n:Concept) REQUIRE n.id IS UNIQUE;

// name: schema_concept_loose_key
// Consolidation's same-name check (lifecycle/concepts.py): a group's concepts by loose key.
CREATE INDEX concept_loose_key IF NOT EXISTS FOR (n:Concept) ON (n.group_id, n.loose_key);

// name: schema_attribute_id
CREATE CONSTRAINT attribute_id IF NOT EXISTS FOR (n:Attribute) REQUIRE n.id IS UNIQUE;

// name: schema_value_id
CREATE CONSTRAINT value_id IF NOT EXISTS FOR (n:Value) REQUIRE n.id IS UNIQUE;

// name: schema_episode_id
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;

// name: schema_job_id
CREATE CONSTRAINT extraction_job_id IF NOT EXISTS FOR (n:ExtractionJob) REQUIRE n.id IS UNIQUE;

// name: schema_meta_key
CREATE CONSTRAINT graphmem_meta_key IF NOT EXISTS FOR (n:GraphmemMeta) REQUIRE n.key IS UNIQUE;

// name: schema_memory_group
CREATE INDEX memory_group IF NOT EXISTS FOR (n:Memory) ON (n.group_id, n.status);

// name: schema_memory_time
CREATE INDEX memory_time IF NOT EXISTS FOR (n:Memory) ON (n.group_id, n.occurred_at);

// name: schema_subject_group
CREATE INDEX subject_group IF NOT EXISTS FOR (n:Subject) ON (n.group_id);

// name: schema_topic_group
CREATE INDEX topic_group IF NOT EXISTS FOR (n:Topic) ON (n.group_id);

// name: schema_object_group
CREATE INDEX object_group IF NOT EXISTS FOR (n:Object) ON (n.group_id);

// name: schema_episode_group
CREATE INDEX episode_group IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.session_id);

// name: schema_sentence_group
CREATE INDEX sentence_group IF NOT EXISTS FOR (n:Sentence) ON (n.group_id);

// name: schema_job_group
CREATE INDEX extraction_job_state IF NOT EXISTS FOR (n:ExtractionJob) ON (n.group_id, n.state);

// name: schema_concept_merge_key
// A name consolidation merged away, written again, resolves to the node it went into.
CREATE INDEX concept_merge_key IF NOT EXISTS FOR (n:ConceptMerge) ON (n.group_id, n.merged_key);

// name: schema_memory_created
// The newest memory of a group (search_probe): whether a process's copy of its vectors is current.
CREATE INDEX memory_created IF NOT EXISTS FOR (n:Memory) ON (n.group_id, n.created_at);

// name: schema_consolidation_lock
// One lock node per group: two runs that MERGE it at once must find the same node, not make two.
CREATE CONSTRAINT consolidation_lock_group IF NOT EXISTS FOR (n:ConsolidationLock) REQUIRE n.group_id IS UNIQUE;

// name: schema_episode_created
// The newest turn of a group (search_probe): whether a process's copy of its turn vectors is current.
CREATE INDEX episode_created IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.created_at);

// name: schema_episode_part_key
// One episode per part of a bulk ingest (`graphmem ingest FILE`): a part's key (its file, its
// place in it and its content) is stored on its episode, so a run resumed after Ctrl-C, a crash or
// a lost server never stores a part twice, even beside another run of the same file.
CREATE CONSTRAINT episode_part_key IF NOT EXISTS FOR (n:Episode) REQUIRE (n.group_id, n.part_key) IS UNIQUE;

// name: schema_memory_vector
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (n:Memory) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_subject_vector
CREATE VECTOR INDEX subject_embedding IF NOT EXISTS FOR (n:Subject) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_topic_vector
CREATE VECTOR INDEX topic_embedding IF NOT EXISTS FOR (n:Topic) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_object_vector
CREATE VECTOR INDEX object_embedding IF NOT EXISTS FOR (n:Object) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_episode_vector
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (n:Episode) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_sentence_vector
// The sentences of a long turn, each embedded alone: "By the way, the boiler broke again"
// is found even when the rest of its turn is about something else (retriever/seeds.py).
CREATE VECTOR INDEX sentence_embedding IF NOT EXISTS FOR (n:Sentence) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

// name: schema_memory_fulltext
// The cjk analyzer splits Chinese into bigrams and still tokenises English words. group_id is
// indexed too, so a query can be narrowed to one group inside Lucene (and is re-checked in Cypher).
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (n:Memory) ON EACH [n.text, n.group_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

// name: schema_episode_fulltext
CREATE FULLTEXT INDEX episode_content IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.group_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

// name: schema_episode_fulltext_english
// English turns: the `english` analyzer stems (research / researching / researched) and drops
// stop words, which cjk does not. The speaker's name is indexed beside the content, so a
// question that names a person matches what that person said. Queried for queries without CJK.
CREATE FULLTEXT INDEX episode_content_english IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.speaker, n.group_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};

// name: schema_concept_fulltext
CREATE FULLTEXT INDEX concept_name IF NOT EXISTS FOR (n:Subject|Topic|Object) ON EACH [n.name, n.group_id]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

// name: meta_read
// The schema node: which schema version, embedding model and dimension this database holds.
MATCH (m:GraphmemMeta {key: 'schema'}) RETURN m.schema_version AS schema_version, m.model AS model, m.dimension AS dimension;

// name: meta_write
MERGE (m:GraphmemMeta {key: 'schema'})
ON CREATE SET m.created_at = datetime()
SET m.schema_version = $schema_version, m.model = $model, m.dimension = $dimension, m.updated_at = datetime();

// name: vector_index_dimensions
SHOW VECTOR INDEXES YIELD name, options
RETURN name, options.indexConfig.`vector.dimensions` AS dimension;

// name: schema_objects
SHOW INDEXES YIELD name, type, state RETURN name, type, state ORDER BY name;

// name: server_components
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition;

// name: wait_for_indexes
CALL db.awaitIndexes(300);
