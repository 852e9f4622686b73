// memory_uids: the uids of the user's memories whose ingest finished (marked complete after
// their embeddings, relations and simplices were written), so a re-run can skip them.
// params: user_id
MATCH (m:Memory {user_id: $user_id})
WHERE m.complete = true
RETURN m.uid AS uid
