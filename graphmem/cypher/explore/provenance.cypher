// Analysts' library: where a memory came from and what it is evidence of. 记忆的来源与证据。
// (:Memory)-[:EXTRACTED_FROM]->(:Episode): the conversation turns a memory was extracted from;
// (:Episode)-[:NEXT]->(:Episode) chains the turns of a session in order.
// 记忆通过 EXTRACTED_FROM 指向它所提取自的对话轮次（Episode），Episode 之间用 NEXT 按顺序相连。

// name: memory_sources
// en: Where did this memory come from? The turns it was extracted from (speaker, time, content),
//     each with the turn before and after it for context, and how the memory was written.
// zh: 这条记忆从哪里来？它所提取自的对话轮次（说话人、时间、内容），附前后各一轮作为上下文，以及写入方式。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory_id | the memory | 记忆 id
MATCH (m:Memory {group_id: $group_id, id: $memory_id})
OPTIONAL MATCH (m)-[:EXTRACTED_FROM]->(e:Episode {group_id: $group_id})
OPTIONAL MATCH (before:Episode {group_id: $group_id})-[:NEXT]->(e)
OPTIONAL MATCH (e)-[:NEXT]->(after:Episode {group_id: $group_id})
RETURN m.text AS memory, m.source AS written_by, m.session_id AS session_id,
       e.id AS episode_id, e.speaker AS speaker, e.role AS role, e.timestamp AS said_at,
       e.content AS content, before.content AS turn_before, after.content AS turn_after
ORDER BY e.session_id, e.order, e.chunk;

// name: episode_evidence_of
// en: What is this turn evidence of? The memories extracted from one episode.
// zh: 这一轮对话是哪些记忆的证据？从某个 Episode 提取出的记忆。
// param: group_id | the group (tenant) | 分组（租户）
// param: episode_id | the episode (turn) | 对话轮次 id
MATCH (e:Episode {group_id: $group_id, id: $episode_id})<-[:EXTRACTED_FROM]-(m:Memory {group_id: $group_id})
RETURN e.content AS turn, m.id AS memory_id, m.memory_type AS memory_type, m.text AS memory,
       m.importance AS importance, m.status AS status
ORDER BY m.created_at;

// name: session_transcript
// en: A session's turns in order, each with how many memories it is evidence of.
// zh: 某个会话的全部轮次（按顺序），以及每一轮支撑了多少条记忆。
// param: group_id | the group (tenant) | 分组（租户）
// param: session_id | the session | 会话 id
// param: limit = 500 | at most this many turns | 最多返回的轮次
MATCH (e:Episode {group_id: $group_id, session_id: $session_id})
OPTIONAL MATCH (e)<-[:EXTRACTED_FROM]-(m:Memory {group_id: $group_id})
RETURN e.order AS turn, e.chunk AS chunk, e.speaker AS speaker, e.role AS role, e.timestamp AS said_at,
       e.content AS content, count(m) AS memories, collect(m.text)[0..5] AS memory_texts, e.id AS episode_id
ORDER BY turn, chunk
LIMIT $limit;

// name: memories_without_evidence
// en: Memories that point to no episode (written directly through the API or tools), newest first.
// zh: 没有来源对话的记忆（通过 API 或工具直接写入），最新的在前。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 100 | at most this many rows | 最多返回的行数
MATCH (m:Memory {group_id: $group_id})
WHERE NOT (m)-[:EXTRACTED_FROM]->(:Episode)
RETURN m.id AS memory_id, m.text AS text, m.source AS written_by, m.created_at AS created_at
ORDER BY created_at DESC
LIMIT $limit;
