// Analysts' library: a subject's timeline. 分析师查询库：主体的时间线。
// Every query here is read-only and scoped to one group. In Neo4j Browser set the parameters
// first, e.g.  :param group_id => 'alice'   :param subject => '我'   then paste the query.
// 本目录的查询都是只读的，并且只在一个分组内执行。在 Neo4j Browser 中先用 :param 设置参数。
// Run from a shell: graphmem cypher run subject_timeline -g alice --param subject=我

// name: subject_timeline
// en: What happened to (or is known about) a subject, in time order: each memory with its time
//     (occurred_at, else when it was said), type, text, importance, status and attributes.
// zh: 某个主体（人、物）的时间线：按时间排列的记忆，含发生时间（无则说出的时间）、类型、文本、重要性、状态和属性。
// param: group_id | the group (tenant) | 分组（租户）
// param: subject = "我" | the subject's name or alias; 我/I/user means the user | 主体名称或别名；我/I/user 表示用户
// param: include_archived = false | also list archived (forgotten) memories | 是否包含已归档（遗忘）的记忆
// param: limit = 200 | at most this many rows | 最多返回的行数
MATCH (s:Subject {group_id: $group_id})
WHERE s.name = $subject OR $subject IN coalesce(s.aliases, [])
   OR s.normalized_name = toLower(trim($subject))
   OR (s.kind = 'user' AND toLower(trim($subject)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
   OR (s.kind = 'agent' AND toLower(trim($subject)) IN ['你', 'you', 'assistant', '助手', '@agent'])
MATCH (s)<-[:HAS_SUBJECT]-(m:Memory {group_id: $group_id})
WHERE $include_archived OR m.status <> 'archived'
CALL (m) {
  OPTIONAL MATCH (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value)
  RETURN collect(a.key + ': ' + v.name) AS attributes
}
RETURN coalesce(m.occurred_at, m.reference_time, m.created_at) AS at, m.occurred_at IS NOT NULL AS dated,
       s.name AS subject, m.memory_type AS memory_type, m.text AS text, m.importance AS importance,
       m.status AS status, m.superseded_by IS NOT NULL AS superseded, attributes, m.id AS memory_id
ORDER BY at, m.created_at
LIMIT $limit;

// name: topic_timeline
// en: Every memory about a topic (吃饭, work, travel...), whoever its subject, in time order.
// zh: 某个主题（如 吃饭、工作、旅行）的所有记忆，不论主体，按时间排列。
// param: group_id | the group (tenant) | 分组（租户）
// param: topic = "吃饭" | the topic's name or alias | 主题名称或别名
// param: limit = 200 | at most this many rows | 最多返回的行数
MATCH (t:Topic {group_id: $group_id})
WHERE t.name = $topic OR $topic IN coalesce(t.aliases, []) OR t.normalized_name = toLower(trim($topic))
MATCH (t)<-[:HAS_TOPIC]-(m:Memory {group_id: $group_id})-[:HAS_SUBJECT]->(s:Subject)
WHERE m.status <> 'archived'
RETURN coalesce(m.occurred_at, m.reference_time, m.created_at) AS at, s.name AS subject, m.memory_type AS memory_type,
       m.text AS text, m.importance AS importance, m.status AS status, m.id AS memory_id
ORDER BY at, m.created_at
LIMIT $limit;
