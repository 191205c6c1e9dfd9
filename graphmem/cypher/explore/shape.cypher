// Analysts' library: a group's shape. 分组的整体形态：按标签、类型、状态、时间的计数。

// name: group_overview
// en: One row about a group: memories live and archived, concepts (names, and how many of them
//     play each role: a name used as subject and object counts in both), episodes and sessions,
//     links, and the time span the memories cover.
// zh: 一个分组的概况（一行）：未归档与已归档记忆数、概念数（名称总数，以及扮演各角色的数量：同时作为主体和客体的名称两边都计）、
//     对话轮次与会话数、关系数，以及记忆覆盖的时间范围。
// param: group_id | the group (tenant) | 分组（租户）
CALL () {
  MATCH (m:Memory {group_id: $group_id})
  RETURN count(m) AS memories, count(CASE WHEN m.status = 'archived' THEN 1 END) AS archived,
         min(coalesce(m.occurred_at, m.reference_time, m.created_at)) AS first_at, max(coalesce(m.occurred_at, m.reference_time, m.created_at)) AS last_at,
         sum(COUNT { (m)-[:CAUSALITY]->() }) AS causal_links, sum(COUNT { (m)-[:REFERENCE]->() }) AS reference_links
}
CALL () {
  MATCH (e:Episode {group_id: $group_id})
  RETURN count(e) AS episodes, count(DISTINCT e.session_id) AS sessions
}
RETURN memories, memories - archived AS live, archived,
       COUNT { MATCH (n:Concept {group_id: $group_id}) RETURN n } AS concepts,
       COUNT { MATCH (n:Subject {group_id: $group_id}) RETURN n } AS subjects,
       COUNT { MATCH (n:Topic {group_id: $group_id}) RETURN n } AS topics,
       COUNT { MATCH (n:Object {group_id: $group_id}) RETURN n } AS objects,
       episodes, sessions, causal_links, reference_links, first_at, last_at;

// name: nodes_by_label
// en: How many nodes of each label the group holds (a concept node counts under :Concept and
//     under each role label it carries).
// zh: 本分组每个标签的节点数（概念节点计入 :Concept，也计入它带有的每个角色标签）。
// param: group_id | the group (tenant) | 分组（租户）
CALL () {
  MATCH (n:Memory {group_id: $group_id}) RETURN 'Memory' AS label, count(n) AS count
  UNION ALL MATCH (n:Concept {group_id: $group_id}) RETURN 'Concept' AS label, count(n) AS count
  UNION ALL MATCH (n:Subject {group_id: $group_id}) RETURN 'Subject' AS label, count(n) AS count
  UNION ALL MATCH (n:Topic {group_id: $group_id}) RETURN 'Topic' AS label, count(n) AS count
  UNION ALL MATCH (n:Object {group_id: $group_id}) RETURN 'Object' AS label, count(n) AS count
  UNION ALL MATCH (n:Attribute {group_id: $group_id}) RETURN 'Attribute' AS label, count(n) AS count
  UNION ALL MATCH (n:Value {group_id: $group_id}) RETURN 'Value' AS label, count(n) AS count
  UNION ALL MATCH (n:Episode {group_id: $group_id}) RETURN 'Episode' AS label, count(n) AS count
  UNION ALL MATCH (n:Sentence {group_id: $group_id}) RETURN 'Sentence' AS label, count(n) AS count
  UNION ALL MATCH (n:ExtractionJob {group_id: $group_id}) RETURN 'ExtractionJob' AS label, count(n) AS count
}
RETURN label, count ORDER BY count DESC, label;

// name: relationships_by_type
// en: How many relationships of each type start at the group's nodes.
// zh: 从本分组节点出发的各类型关系数。
// param: group_id | the group (tenant) | 分组（租户）
CALL () {
  MATCH (n:Memory {group_id: $group_id}) RETURN n
  UNION ALL MATCH (n:Concept {group_id: $group_id}) RETURN n
  UNION ALL MATCH (n:Attribute {group_id: $group_id}) RETURN n
  UNION ALL MATCH (n:Episode {group_id: $group_id}) RETURN n
  UNION ALL MATCH (n:Sentence {group_id: $group_id}) RETURN n
}
MATCH (n)-[r]->()
RETURN type(r) AS type, count(r) AS count ORDER BY count DESC, type;

// name: memories_by_type_and_status
// en: Memories by type (EVENT, FACT, RELATION, OPINION) and status (staged, consolidated, archived).
// zh: 按类型（事件、事实、关系、观点）和状态（暂存、已整理、已归档）统计记忆。
// param: group_id | the group (tenant) | 分组（租户）
MATCH (m:Memory {group_id: $group_id})
RETURN m.memory_type AS memory_type, m.status AS status, count(*) AS count,
       round(avg(m.importance), 3) AS avg_importance
ORDER BY memory_type, status;

// name: memories_by_month
// en: Memories by month of their time (occurred_at, else when said) and type: when the group's
//     life happened, as the graph knows it.
// zh: 按月份（发生时间，无则说出的时间）和类型统计记忆：图谱所知道的生活发生在何时。
// param: group_id | the group (tenant) | 分组（租户）
MATCH (m:Memory {group_id: $group_id})
RETURN substring(coalesce(m.occurred_at, m.reference_time, m.created_at), 0, 7) AS month, m.memory_type AS memory_type,
       count(*) AS count
ORDER BY month, memory_type;

// name: memories_by_source
// en: How the memories were written (api, tool, an extractor...) and from how many sessions.
// zh: 记忆的写入来源（API、工具、抽取器……）及其来自多少个会话。
// param: group_id | the group (tenant) | 分组（租户）
MATCH (m:Memory {group_id: $group_id})
RETURN coalesce(m.source, '?') AS source, count(*) AS count, count(DISTINCT m.session_id) AS sessions
ORDER BY count DESC;
