// Analysts' library: conflicts and supersede chains. 冲突与取代链。
// When a newer memory contradicts an older one (same subject and topic, another object), the
// newer supersedes the older and the history is kept: (newer)-[:SUPERSEDES]->(older), and the
// older memory's superseded_by (the newer's id) and invalid_at. Both forms are read here.
// 新记忆与旧记忆矛盾（同一主体和主题，不同客体）时，新的取代旧的并保留历史：
// (新)-[:SUPERSEDES]->(旧)，旧记忆带有 superseded_by（新记忆 id）和 invalid_at。两种表示都会读取。

// name: supersessions
// en: Every "newer replaces older" pair, from SUPERSEDES edges or the superseded_by property,
//     newest change first.
// zh: 所有“新记忆取代旧记忆”的记录（来自 SUPERSEDES 边或 superseded_by 属性），最近的变化在前。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 200 | at most this many pairs | 最多返回的记录数
CALL () {
  MATCH (newer:Memory {group_id: $group_id})-[:SUPERSEDES]->(older:Memory {group_id: $group_id})
  RETURN newer, older, 'edge' AS recorded_as
  UNION
  MATCH (older:Memory {group_id: $group_id}) WHERE older.superseded_by IS NOT NULL
  MATCH (newer:Memory {group_id: $group_id, id: older.superseded_by})
  RETURN newer, older, 'property' AS recorded_as
}
WITH newer, older, collect(recorded_as) AS recorded_as
RETURN older.text AS was, newer.text AS now, coalesce(older.invalid_at, newer.created_at) AS changed_at,
       older.status AS older_status, recorded_as, older.id AS older_id, newer.id AS newer_id
ORDER BY changed_at DESC
LIMIT $limit;

// name: supersede_chains
// en: The history of a fact: chains of SUPERSEDES edges from the current memory back to the
//     oldest one it replaced (up to 8 steps), longest histories first.
// zh: 一个事实的历史：从当前记忆沿 SUPERSEDES 边回溯到最早被取代的记忆（最多 8 步），历史最长的在前。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 100 | at most this many chains | 最多返回的链条数
MATCH p = (current:Memory {group_id: $group_id})-[:SUPERSEDES*1..8]->(oldest:Memory {group_id: $group_id})
WHERE NOT EXISTS { (:Memory {group_id: $group_id})-[:SUPERSEDES]->(current) }
  AND NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Memory) }
RETURN current.text AS current, length(p) AS replaced, [n IN nodes(p) | n.text] AS history,
       [n IN nodes(p) | coalesce(n.occurred_at, n.reference_time, n.created_at)] AS times, current.id AS current_id
ORDER BY replaced DESC, current
LIMIT $limit;

// name: possible_conflicts
// en: Live memories that may contradict each other and are not yet resolved: same subject, same
//     topic and type, different objects, neither superseded. For review: some are not conflicts
//     (a person can like both tea and coffee).
// zh: 可能互相矛盾且尚未处理的记忆：同一主体、同一主题和类型、不同客体，且都未被取代。供人工审核（有些并非冲突，比如同时喜欢茶和咖啡）。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 100 | at most this many pairs | 最多返回的记录数
MATCH (s:Subject {group_id: $group_id})<-[:HAS_SUBJECT]-(a:Memory {group_id: $group_id})-[:HAS_TOPIC]->(t:Topic)
MATCH (s)<-[:HAS_SUBJECT]-(b:Memory {group_id: $group_id})-[:HAS_TOPIC]->(t)
WHERE a.created_at < b.created_at AND a.memory_type = b.memory_type
  AND a.status <> 'archived' AND b.status <> 'archived'
  AND a.superseded_by IS NULL AND b.superseded_by IS NULL
  AND NOT EXISTS { (b)-[:SUPERSEDES]-(a) }
MATCH (a)-[:HAS_OBJECT]->(oa:Object), (b)-[:HAS_OBJECT]->(ob:Object)
WHERE oa <> ob
RETURN s.name AS subject, t.name AS topic, a.memory_type AS memory_type, oa.name AS older_object,
       ob.name AS newer_object, a.text AS older, b.text AS newer, a.id AS older_id, b.id AS newer_id
ORDER BY subject, topic, b.created_at DESC
LIMIT $limit;
