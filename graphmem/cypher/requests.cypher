// Idempotency keys (request_id): a :WriteRequest {group_id, id} node is written in the same
// transaction as what the request wrote, with that write's result, so a retried request returns
// the first result instead of writing again (graphmem/builder/requests.py).

// name: schema_write_request_key
// One request per id and group: two concurrent retries of one request serialise on this key.
CREATE CONSTRAINT write_request_key IF NOT EXISTS FOR (n:WriteRequest) REQUIRE (n.group_id, n.id) IS UNIQUE;

// name: write_request_claim
// Claim the key inside the write's transaction. $token is unique to this attempt: claimed_by =
// $token means this transaction created the request (go on and write); otherwise it exists,
// committed with its result, and the write is not done again.
MERGE (r:WriteRequest {group_id: $group_id, id: $id})
  ON CREATE SET r.kind = $kind, r.fingerprint = $fingerprint, r.created_at = $now, r.claimed_by = $token
RETURN r.claimed_by = $token AS claimed, r.kind AS kind, r.fingerprint AS fingerprint, r.result AS result;

// name: write_request_finish
// The request's result (JSON), stored before its transaction commits.
MATCH (r:WriteRequest {group_id: $group_id, id: $id})
SET r.result = $result, r.finished_at = $now
RETURN r.id AS id;

// name: write_request_get
// A request already applied in this group: its kind, fingerprint and result.
MATCH (r:WriteRequest {group_id: $group_id, id: $id})
RETURN r.kind AS kind, r.fingerprint AS fingerprint, r.result AS result;
