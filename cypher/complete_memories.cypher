// complete_memories: mark memories whose ingest finished, and settle the entities they
// mention (no longer pending); the last write of each batch.
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
SET m.complete = true
WITH m
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE e.pending IS NOT NULL
REMOVE e.pending
RETURN count(DISTINCT m) AS completed
