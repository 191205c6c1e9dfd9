// Analysts' library: causal and reference chains between memories. 因果链与引用链。
// CAUSALITY edges point from the cause to the effect (relation: because/so/causes);
// REFERENCE edges from the memory that refers to the one it refers to (references/based_on/related).
// CAUSALITY 边从原因指向结果；REFERENCE 边从引用者指向被引用者。边上的 relation 是关系词。
// Variable-length patterns cannot take a parameter as their bound, so the pattern is bounded at
// 4 hops and $max_depth (1-4) trims it. 变长路径上限固定为 4 跳，由 $max_depth 进一步截断。

// name: causes_of
// en: Why did this happen? Every chain of causes that leads into a memory (up to $max_depth hops),
//     with the relation word of each hop, nearest causes first.
// zh: 为什么会这样？指向某条记忆的所有原因链（最多 $max_depth 跳），含每一跳的关系词，近因在前。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory_id | the memory whose causes are wanted | 要追溯原因的记忆 id
// param: max_depth = 3 | longest chain, 1 to 4 hops | 最长链条（1–4 跳）
// param: limit = 50 | at most this many chains | 最多返回的链条数
MATCH (effect:Memory {group_id: $group_id, id: $memory_id})
MATCH p = (cause:Memory {group_id: $group_id})-[:CAUSALITY*1..4]->(effect)
WHERE length(p) <= $max_depth AND all(n IN nodes(p) WHERE n.group_id = $group_id)
RETURN length(p) AS hops, cause.id AS cause_id, cause.text AS cause, cause.importance AS importance,
       [r IN relationships(p) | r.relation] AS relations,
       [n IN nodes(p) | n.text] AS chain
ORDER BY hops, importance DESC
LIMIT $limit;

// name: effects_of
// en: What did this lead to? Every chain of effects that starts at a memory, with relation words.
// zh: 这件事导致了什么？从某条记忆出发的所有结果链，含关系词。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory_id | the memory whose effects are wanted | 要查看后果的记忆 id
// param: max_depth = 3 | longest chain, 1 to 4 hops | 最长链条（1–4 跳）
// param: limit = 50 | at most this many chains | 最多返回的链条数
MATCH (cause:Memory {group_id: $group_id, id: $memory_id})
MATCH p = (cause)-[:CAUSALITY*1..4]->(effect:Memory {group_id: $group_id})
WHERE length(p) <= $max_depth AND all(n IN nodes(p) WHERE n.group_id = $group_id)
RETURN length(p) AS hops, effect.id AS effect_id, effect.text AS effect, effect.importance AS importance,
       [r IN relationships(p) | r.relation] AS relations,
       [n IN nodes(p) | n.text] AS chain
ORDER BY hops, importance DESC
LIMIT $limit;

// name: memory_links
// en: Every memory-to-memory edge around a memory (causal and reference, both directions), with
//     the relation word, its importance and whether consolidation discovered it.
// zh: 某条记忆周围的所有记忆间关系（因果与引用，双向），含关系词、重要性、是否由整理过程发现。
// param: group_id | the group (tenant) | 分组（租户）
// param: memory_id | the memory | 记忆 id
MATCH (m:Memory {group_id: $group_id, id: $memory_id})-[r:CAUSALITY|REFERENCE]-(other:Memory {group_id: $group_id})
RETURN type(r) AS edge_type, r.relation AS relation,
       CASE WHEN startNode(r) = m THEN 'out' ELSE 'in' END AS direction,
       other.id AS other_id, other.text AS other_text, r.importance AS importance,
       coalesce(r.discovered, false) AS discovered, r.confidence AS confidence
ORDER BY edge_type, direction, importance DESC;

// name: causal_edges
// en: The group's causal graph as a list of edges (cause -> effect), strongest first.
// zh: 本分组的因果图（原因 -> 结果）边列表，按重要性降序。
// param: group_id | the group (tenant) | 分组（租户）
// param: limit = 200 | at most this many edges | 最多返回的边数
MATCH (a:Memory {group_id: $group_id})-[r:CAUSALITY]->(b:Memory {group_id: $group_id})
RETURN a.text AS cause, r.relation AS relation, b.text AS effect, r.importance AS importance,
       a.id AS cause_id, b.id AS effect_id
ORDER BY importance DESC
LIMIT $limit;
