// Analysts' library: pictures. These return paths (not tables) for Neo4j Bloom and Browser to
// draw; they are the search phrases of the Bloom perspective (bloom/graphmem.json).
// 图形查询：返回路径（而非表格），供 Neo4j Bloom 和 Browser 绘图；也是 Bloom 视角（bloom/graphmem.json）中的搜索短语。

// name: graph_memories_of
// en: Memories of a subject, drawn as sentences: (Subject)-[MEMORY_TYPE]->(Topic)-[CORE_RELATION]->(Object),
//     with each Memory node and its attribute values.
// zh: 某个主体的记忆，画成句子：(主体)-[类型]->(主题)-[核心关系]->(客体)，并带上每个记忆节点及其属性值。
// param: group_id | the group (tenant) | 分组（租户）
// param: subject = "我" | the subject's name or alias (我/I/user: the user) | 主体名称或别名（我/I/user 表示用户）
// param: limit = 100 | at most this many memories | 最多返回的记忆数
MATCH (s:Subject {group_id: $group_id})
WHERE s.name = $subject OR $subject IN coalesce(s.aliases, []) OR s.normalized_name = toLower(trim($subject))
   OR (s.kind = 'user' AND toLower(trim($subject)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
MATCH sentence = (s)-[mt:MEMORY_TYPE]->(t:Topic)
MATCH (m:Memory {group_id: $group_id, id: mt.memory_id}) WHERE m.status <> 'archived'
WITH s, sentence, mt, t, m ORDER BY m.importance DESC LIMIT $limit
OPTIONAL MATCH object = (t)-[:CORE_RELATION {memory_id: mt.memory_id}]->(:Object)
OPTIONAL MATCH hub = (m)-[:HAS_SUBJECT|HAS_TOPIC]->()
OPTIONAL MATCH attribute = (m)-[:ATTRIBUTE]->(:Attribute)-[:VALUE]->(:Value)
RETURN sentence, object, hub, attribute;

// name: graph_why
// en: Why? A memory found by its words (fulltext) and the causal chains into it, up to 3 hops.
// zh: 为什么？按文字（全文索引）找到一条记忆，以及指向它的因果链（最多 3 跳）。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory = "心情" | words of the memory (its text) | 记忆中的文字
// param: limit = 50 | at most this many chains | 最多返回的链条数
CALL db.index.fulltext.queryNodes('memory_text', $memory, {limit: 50}) YIELD node, score
WITH node AS m, score WHERE m.group_id = $group_id AND m.status <> 'archived'
WITH m ORDER BY score DESC LIMIT 1
OPTIONAL MATCH chain = (:Memory {group_id: $group_id})-[:CAUSALITY*1..3]->(m)
RETURN m, chain LIMIT $limit;

// name: graph_timeline
// en: A subject's memories with their time values: (Memory)-[ATTRIBUTE]->(Attribute)-[VALUE]->(Value),
//     so the memories of one day gather around the day's Value node.
// zh: 某个主体的记忆及其时间值：(记忆)-[属性]->(属性节点)-[值]->(值节点)，同一天的记忆会聚在同一个日期值节点周围。
// param: group_id | the group (tenant) | 分组（租户）
// param: subject = "我" | the subject's name or alias (我/I/user: the user) | 主体名称或别名（我/I/user 表示用户）
// param: limit = 200 | at most this many memories | 最多返回的记忆数
MATCH (s:Subject {group_id: $group_id})
WHERE s.name = $subject OR $subject IN coalesce(s.aliases, []) OR s.normalized_name = toLower(trim($subject))
   OR (s.kind = 'user' AND toLower(trim($subject)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
MATCH who = (m:Memory {group_id: $group_id})-[:HAS_SUBJECT]->(s)
WHERE m.status <> 'archived'
WITH who, m ORDER BY coalesce(m.occurred_at, m.reference_time, m.created_at) DESC LIMIT $limit
OPTIONAL MATCH time = (m)-[:ATTRIBUTE]->(a:Attribute)-[:VALUE]->(v:Value) WHERE v.parsed
RETURN who, time;

// name: graph_sources
// en: Where did it come from? A memory found by its words and the conversation turns it was
//     extracted from, with the turns around them.
// zh: 从哪里来？按文字找到一条记忆，以及它所提取自的对话轮次和前后的轮次。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory = "心情" | words of the memory (its text) | 记忆中的文字
CALL db.index.fulltext.queryNodes('memory_text', $memory, {limit: 50}) YIELD node, score
WITH node AS m, score WHERE m.group_id = $group_id
WITH m ORDER BY score DESC LIMIT 1
MATCH evidence = (m)-[:EXTRACTED_FROM]->(e:Episode {group_id: $group_id})
OPTIONAL MATCH around = (:Episode {group_id: $group_id})-[:NEXT]-(e)
RETURN evidence, around;

// name: graph_history
// en: How a fact changed: the supersede chains (newer)-[SUPERSEDES]->(older) of a subject's memories.
// zh: 一个事实如何变化：某个主体的记忆之间的取代链（新）-[SUPERSEDES]->（旧）。
// param: group_id | the group (tenant) | 分组（租户）
// param: subject = "我" | the subject's name or alias (我/I/user: the user) | 主体名称或别名（我/I/user 表示用户）
MATCH (s:Subject {group_id: $group_id})
WHERE s.name = $subject OR $subject IN coalesce(s.aliases, []) OR s.normalized_name = toLower(trim($subject))
   OR (s.kind = 'user' AND toLower(trim($subject)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
MATCH (m:Memory {group_id: $group_id})-[:HAS_SUBJECT]->(s)
MATCH history = (m)-[:SUPERSEDES*1..8]->(:Memory {group_id: $group_id})
RETURN history;

// name: graph_about
// en: Everything about a person or a thing, as a picture: its one node (whatever roles it plays)
//     and every memory that names it, as subject, topic, object or an attribute's value, with the
//     other concepts of each memory: two facts joined only by the name show as one picture.
// zh: 关于某人或某物的一切（图形）：它的唯一节点（无论扮演什么角色）以及以主体、主题、客体或属性值提到它的每条记忆，
//     并带上每条记忆的其他概念：只靠这个名字相连的两条事实会画在同一张图里。
// param: group_id | the group (tenant) | 分组（租户）
// param: name = "我" | the name or an alias (我/I/user: the user) | 名称或别名（我/I/user 表示用户）
// param: limit = 100 | at most this many memories | 最多返回的记忆数
MATCH (c:Concept {group_id: $group_id})
WHERE c.name = $name OR $name IN coalesce(c.aliases, []) OR c.normalized_name = toLower(trim($name))
   OR (c.kind = 'user' AND toLower(trim($name)) IN ['我', 'i', 'me', 'user', '用户', '@user'])
CALL (c) {
  MATCH named = (m:Memory {group_id: $group_id})-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->(c)
  RETURN m, named
  UNION ALL
  MATCH named = (m:Memory {group_id: $group_id})-[:ATTRIBUTE]->(:Attribute)-[:VALUE]->(c)
  RETURN m, named
}
WITH m, named WHERE m.status <> 'archived'
WITH m, named ORDER BY m.importance DESC LIMIT $limit
OPTIONAL MATCH parts = (m)-[:HAS_SUBJECT|HAS_TOPIC|HAS_OBJECT]->()
RETURN named, parts;
