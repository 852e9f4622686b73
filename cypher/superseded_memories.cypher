// superseded_memories: the uids of the user's memories that a newer complete memory superseded
// (as memory_versions reads it), in whole or in part (few: a link needs a claim and its change).
// list_memories filters by them, so that a page that does not ask reads no memory's links.
// params: user_id
// mode: read
MATCH (:Memory {user_id: $user_id, complete: true})-[:SUPERSEDES]->(m:Memory {user_id: $user_id})
RETURN DISTINCT m.uid AS uid
ORDER BY uid
