// Re-embedding (graphmem reembed): every node with an embedding gets a vector of the target
// model in `embedding_next` (marked with `embedding_next_model`), batch by batch, while the
// vector indexes keep serving the old `embedding`; when none is left, the vectors are swapped
// in and the vector indexes rebuilt for the new dimension. Safe to stop and run again.

// name: reembed_todo
// The next batch of one label's nodes without a vector of the target model: what to embed.
// $label is one of the labels reembed knows (Memory, Episode, Sentence, Subject, Topic,
// Object); $group_id null means every group.
MATCH (n) WHERE $label IN labels(n) AND n.embedding IS NOT NULL
  AND ($group_id IS NULL OR n.group_id = $group_id)
  AND (n.embedding_next_model IS NULL OR n.embedding_next_model <> $model)
RETURN elementId(n) AS ref,
       CASE $label
         WHEN 'Memory' THEN coalesce(n.embedded_text, n.text)
         WHEN 'Episode' THEN CASE WHEN n.speaker IS NULL OR n.speaker = '' THEN n.content
                                  ELSE n.speaker + ': ' + n.content END
         WHEN 'Sentence' THEN CASE WHEN n.speaker IS NULL OR n.speaker = '' THEN n.text
                                   ELSE n.speaker + ': ' + n.text END
         ELSE n.name END AS text
LIMIT $batch;

// name: reembed_sentence_speakers
// A sentence is embedded with its turn's speaker, as when it was written.
UNWIND $refs AS ref
MATCH (s:Sentence)-[:PART_OF]->(e:Episode) WHERE elementId(s) = ref
RETURN ref, e.speaker AS speaker;

// name: reembed_store
// One batch of new vectors, kept beside the old ones until the swap.
UNWIND $rows AS row
MATCH (n) WHERE elementId(n) = row.ref
SET n.embedding_next = row.embedding, n.embedding_next_model = $model;

// name: reembed_count
// How many of a label's nodes have an embedding, and how many a vector of the target model.
MATCH (n) WHERE $label IN labels(n) AND n.embedding IS NOT NULL
  AND ($group_id IS NULL OR n.group_id = $group_id)
RETURN count(n) AS total, count(CASE WHEN n.embedding_next_model = $model THEN 1 END) AS done;

// name: reembed_drop_vector_index
// The swap drops each vector index (its dimension is the old model's) ...
DROP INDEX $name IF EXISTS;

// name: reembed_swap_batch
// ... moves the new vectors in, a batch at a time (returns how many it moved) ...
MATCH (n) WHERE $label IN labels(n) AND n.embedding_next_model = $model
WITH n LIMIT $batch
SET n.embedding = n.embedding_next
REMOVE n.embedding_next, n.embedding_next_model
RETURN count(n) AS moved;

// name: reembed_state_write
// The re-embedding under way (target model and dimension, state: embedding | swapping), on the
// schema node, so that a second run resumes it and `graphmem init` can say so.
MATCH (m:GraphmemMeta {key: 'schema'})
SET m.reembed_model = $model, m.reembed_dimension = $dimension, m.reembed_state = $state,
    m.reembed_updated_at = datetime();

// name: reembed_state_clear
MATCH (m:GraphmemMeta {key: 'schema'})
REMOVE m.reembed_model, m.reembed_dimension, m.reembed_state, m.reembed_updated_at;

// name: reembed_state_read
MATCH (m:GraphmemMeta {key: 'schema'})
RETURN m.model AS model, m.dimension AS dimension, m.reembed_model AS reembed_model,
       m.reembed_dimension AS reembed_dimension, m.reembed_state AS reembed_state;
