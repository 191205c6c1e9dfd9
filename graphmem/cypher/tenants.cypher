// Tenant ids as stored: `graphmem stats` reports those outside the group id rule (graphmem/types.py
// GROUP_ID_RULE), written before the rule existed; they stay readable.

// name: stored_group_ids
// Every distinct group id that holds memories or conversation turns.
MATCH (m:Memory) RETURN DISTINCT m.group_id AS group_id
UNION
MATCH (e:Episode) RETURN DISTINCT e.group_id AS group_id;
