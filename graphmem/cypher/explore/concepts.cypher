// Analysts' library: concepts (one :Concept node per name, labelled with the roles it plays:
// Subject, Topic, Object, Value): the most connected, the hubs, the ones that look like
// duplicates, and everything said about one. 概念节点（每个名称一个 :Concept 节点，带上它所扮演角色的标签：
// Subject、Topic、Object、Value）：连接最多的概念、枢纽节点、疑似重复的概念，以及关于某个概念的一切。

// name: top_concepts
// en: The concepts most memories hang on: each Subject/Topic/Object with how many live memories
//     use it in that role (a name used in two roles has a row for each). Add the label to narrow
//     it ($label null: all three).
// zh: 被最多记忆使用的概念：每个主体/主题/客体在该角色下被多少条未归档记忆使用（同一名称扮演两个角色时各占一行）。
//     $label 为 null 时三类都列出。
// param: group_id | the group (tenant) | 分组（租户）
// param: label = null | Subject, Topic or Object; null for all | 标签：Subject、Topic 或 Object；null 表示全部
// param: limit = 25 | at most this many concepts | 最多返回的概念数
CALL () {
  MATCH (c:Subject {group_id: $group_id})<-[:HAS_SUBJECT]-(m:Memory) WHERE m.status <> 'archived'
  RETURN 'Subject' AS label, c, count(m) AS memories
  UNION ALL
  MATCH (c:Topic {group_id: $group_id})<-[:HAS_TOPIC]-(m:Memory) WHERE m.status <> 'archived'
  RETURN 'Topic' AS label, c, count(m) AS memories
  UNION ALL
  MATCH (c:Object {group_id: $group_id})<-[:HAS_OBJECT]-(m:Memory) WHERE m.status <> 'archived'
  RETURN 'Object' AS label, c, count(m) AS memories
}
WITH label, c, memories WHERE $label IS NULL OR label = $label
RETURN label, c.name AS name, memories, coalesce(c.aliases, []) AS aliases, c.id AS id
ORDER BY memories DESC, name
LIMIT $limit;

// name: hub_nodes
// en: Hubs: the group's nodes with the most relationships (any label: a shared Value such as a
//     date or a place can tie many memories together). The retriever caps its fan-out through them.
// zh: 枢纽节点：关系最多的节点（任何标签；例如共享的日期、地点 Value 会把很多记忆连在一起）。检索时会限制经过它们的扩展。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 25 | at most this many nodes | 最多返回的节点数
CALL () {
  MATCH (n:Concept {group_id: $group_id}) RETURN n
  UNION ALL MATCH (n:Memory {group_id: $group_id}) RETURN n
}
WITH n, COUNT { (n)--() } AS degree
RETURN labels(n)[0] AS label, coalesce(n.name, n.text) AS name, degree,
       COUNT { (n)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-() } AS memories,
       COUNT { (n)<-[:VALUE]-() } AS attribute_uses, n.id AS id
ORDER BY degree DESC, name
LIMIT $limit;

// name: hub_memories
// en: The memories with the most causal and reference links (the centre of a story).
// zh: 因果和引用关系最多的记忆（一个故事的中心）。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 25 | at most this many memories | 最多返回的记忆数
MATCH (m:Memory {group_id: $group_id})
WITH m, COUNT { (m)-[:CAUSALITY]->() } AS causes_out, COUNT { (m)<-[:CAUSALITY]-() } AS causes_in,
     COUNT { (m)-[:REFERENCE]-() } AS references
WHERE causes_out + causes_in + references > 0
RETURN m.text AS text, causes_out AS is_cause_of, causes_in AS is_effect_of, references,
       causes_out + causes_in + references AS links, m.id AS memory_id
ORDER BY links DESC, text
LIMIT $limit;

// name: duplicate_concepts
// en: Pairs of concepts that look like one thing named twice, in any roles, for a person to
//     review (nothing is merged): embeddings closer than $min_similarity ((1 + cosine) / 2, as the
//     vector index scores), one name containing the other, or a shared alias. Compares at most
//     $max_nodes concepts (the comparison is pairwise); each with the roles it plays.
// zh: 疑似重复的概念对（任何角色），供人工审核（不会自动合并）：向量相似度高于 $min_similarity
//     （与向量索引相同的 (1 + cos) / 2）、一个名称包含另一个、或有相同别名。最多比较 $max_nodes 个概念；并列出各自扮演的角色。
// param: group_id | the group (tenant) | 分组（租户）
// param: min_similarity = 0.95 | similarity threshold, 0.5 to 1 | 相似度阈值（0.5–1）
// param: max_nodes = 1000 | concepts compared | 比较的概念数上限
// param: limit = 100 | at most this many pairs | 最多返回的概念对
MATCH (n:Concept {group_id: $group_id}) WHERE n.kind IS NULL
WITH n ORDER BY n.name
WITH collect(n)[0..$max_nodes] AS nodes
UNWIND range(0, size(nodes) - 2) AS i
UNWIND range(i + 1, size(nodes) - 1) AS j
WITH nodes[i] AS a, nodes[j] AS b
WITH a, b,
     CASE WHEN a.embedding IS NULL OR b.embedding IS NULL THEN null
          ELSE vector.similarity.cosine(a.embedding, b.embedding) END AS similarity,
     (size(a.normalized_name) >= 2 AND size(b.normalized_name) >= 2
      AND (a.normalized_name CONTAINS b.normalized_name OR b.normalized_name CONTAINS a.normalized_name)) AS contained,
     [x IN coalesce(a.aliases, []) WHERE x IN coalesce(b.aliases, [])] AS shared_aliases
WHERE similarity >= $min_similarity OR contained OR size(shared_aliases) > 0
RETURN [l IN labels(a) WHERE l <> 'Concept'] AS roles_a, [l IN labels(b) WHERE l <> 'Concept'] AS roles_b,
       a.name AS name_a, b.name AS name_b, round(similarity, 4) AS similarity,
       contained AS name_contained, shared_aliases,
       COUNT { (a)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-() } AS memories_a,
       COUNT { (b)<-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-() } AS memories_b, a.id AS id_a, b.id AS id_b
ORDER BY similarity DESC, name_a
LIMIT $limit;

// name: concept_neighbourhood
// en: Everything said about one person or thing: the memories that name it in any role (subject,
//     topic, object, or an attribute's value: one node per name), with the other concepts of each
//     memory. Two facts joined only by a name ("I met Marco in Porto", "Marco flies gliders") come
//     back together.
// zh: 关于某人或某物的一切：以任何角色（主体、主题、客体或属性值；每个名称一个节点）提到它的记忆，以及每条记忆的其他概念。
//     只靠一个名字相连的两条事实（“我在波尔图认识了 Marco”“Marco 周末开滑翔机”）会一起出现。
// param: group_id | the group (tenant) | 分组（租户）
// param: name = "我" | the concept's name or alias (我/I/user: the user) | 概念名称或别名（我/I/user 表示用户）
// param: limit = 200 | at most this many memories | 最多返回的记忆数
MATCH (c:Concept {group_id: $group_id})
WHERE c.name = $name OR $name IN coalesce(c.aliases, []) OR c.normalized_name = toLower(trim($name))
   OR (c.kind = 'user' AND toLower(trim($name)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
CALL (c) {
  MATCH (c)<-[r:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]-(m:Memory {group_id: $group_id})
  RETURN m, substring(type(r), 4) AS role
  UNION ALL
  MATCH (c)<-[:VALUE]-(a:Attribute)<-[:ATTRIBUTE]-(m:Memory {group_id: $group_id})
  RETURN m, 'VALUE (' + a.key + ')' AS role
}
WITH c, m, role WHERE m.status <> 'archived'
OPTIONAL MATCH (m)-[:HAS_SUBJECT]->(s:Subject)
OPTIONAL MATCH (m)-[:HAS_TOPIC]->(t:Topic)
OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o:Object)
RETURN [l IN labels(c) WHERE l <> 'Concept'] AS roles, c.name AS concept, role, m.memory_type AS memory_type,
       s.name AS subject, t.name AS topic, o.name AS object, m.text AS text, m.importance AS importance,
       coalesce(m.occurred_at, m.reference_time, m.created_at) AS at, m.id AS memory_id
ORDER BY importance DESC, at DESC
LIMIT $limit;
