// Analysts' library: a memory's life: access, decay, archive. 记忆的生命周期：访问、衰减、归档。
// Retention follows the retriever's time decay, exp(-rate · days) with a rate per memory type
// (seed 004 §5.3: EVENT 0.05, FACT 0.01, RELATION 0.005, OPINION 0.03 per day).
// 保留度与检索的时间衰减一致：exp(-速率 · 天数)，速率按记忆类型而定。

// name: never_accessed
// en: Live memories no search has ever returned, older than $min_age_days, least important first.
// zh: 从未被检索命中的未归档记忆（写入超过 $min_age_days 天），重要性低的在前。
// param: group_id | the group (tenant) | 分组（租户）
// param: min_age_days = 0 | only memories written at least this many days ago | 只看写入至少这么多天的记忆
// param: as_of = null | "now" as an ISO datetime; null: the server's clock | 以哪个时刻为“现在”（ISO 时间）；null 表示服务器当前时间
// param: limit = 100 | at most this many rows | 最多返回的行数
WITH coalesce(datetime($as_of), datetime()) AS now
MATCH (m:Memory {group_id: $group_id})
WHERE m.status <> 'archived' AND coalesce(m.access_count, 0) = 0
WITH m, duration.inDays(datetime(m.created_at), now).days AS age_days
WHERE age_days >= $min_age_days
RETURN m.text AS text, m.memory_type AS memory_type, m.importance AS importance, age_days,
       m.created_at AS created_at, m.id AS memory_id
ORDER BY importance, age_days DESC
LIMIT $limit;

// name: fading_memories
// en: Live memories whose importance × retention has fallen below $floor: what consolidation
//     would archive next. Days count from occurred_at (else when it was said, reference_time) to $as_of.
// zh: 重要性 × 保留度低于 $floor 的未归档记忆：整理过程下一步会归档的记忆。天数从 occurred_at（无则说出的时间 reference_time）算到 $as_of。
// param: group_id | the group (tenant) | 分组（租户）
// param: floor = 0.05 | importance × retention below this is fading | 低于此值视为正在淡忘
// param: decay = {"EVENT": 0.05, "FACT": 0.01, "RELATION": 0.005, "OPINION": 0.03} | decay rate per day, by memory type | 每种记忆类型每天的衰减速率
// param: as_of = null | "now" as an ISO datetime; null: the server's clock | 以哪个时刻为“现在”（ISO 时间）；null 表示服务器当前时间
// param: limit = 100 | at most this many rows | 最多返回的行数
WITH coalesce(datetime($as_of), datetime()) AS now
MATCH (m:Memory {group_id: $group_id})
WHERE m.status <> 'archived'
WITH m, duration.inSeconds(datetime(coalesce(m.occurred_at, m.reference_time, m.created_at)), now).seconds / 86400.0 AS days
WITH m, days, exp(-coalesce($decay[m.memory_type], 0.01) * CASE WHEN days > 0 THEN days ELSE 0 END) AS retention
WITH m, days, retention, coalesce(m.importance, 0.5) * retention AS raw_strength
WHERE raw_strength < $floor
RETURN m.text AS text, m.memory_type AS memory_type, m.importance AS importance, round(days, 1) AS days,
       round(retention, 4) AS retention, round(raw_strength, 4) AS strength,
       coalesce(m.access_count, 0) AS accesses, m.id AS memory_id
ORDER BY raw_strength
LIMIT $limit;

// name: archived_memories
// en: Archived (forgotten, never deleted) memories: when, and the status they had before.
// zh: 已归档（遗忘但从不删除）的记忆：归档时间，以及归档前的状态。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 200 | at most this many rows | 最多返回的行数
MATCH (m:Memory {group_id: $group_id, status: 'archived'})
RETURN m.text AS text, m.memory_type AS memory_type, m.importance AS importance,
       m.archived_at AS archived_at, m.status_before_archive AS status_before,
       m.superseded_by IS NOT NULL AS superseded, m.id AS memory_id
ORDER BY archived_at DESC
LIMIT $limit;

// name: most_accessed
// en: The memories searches return most often, with when they were last returned.
// zh: 被检索返回次数最多的记忆，以及最近一次被返回的时间。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 25 | at most this many rows | 最多返回的行数
MATCH (m:Memory {group_id: $group_id})
WHERE coalesce(m.access_count, 0) > 0
RETURN m.text AS text, m.access_count AS accesses, m.last_accessed_at AS last_accessed_at,
       m.importance AS importance, m.status AS status, m.id AS memory_id
ORDER BY accesses DESC, last_accessed_at DESC
LIMIT $limit;
