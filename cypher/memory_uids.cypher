// memory_uids: which of the given memories the user holds complete (marked after their
// embeddings, relations and simplices were written), so a re-run can skip them.
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.complete = true
RETURN m.uid AS uid
