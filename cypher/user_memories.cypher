// user_memories: how many memories the user holds (as counted at the end of its last ingest).
// params: user_id
// mode: read
MATCH (u:User {id: $user_id})
RETURN coalesce(u.memories, 0) AS memories
