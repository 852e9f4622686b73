// complete_memories: mark memories whose ingest finished; the last write of each batch.
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
SET m.complete = true
RETURN count(m) AS completed
