// prune_sessions: delete the given sessions that no memory is in any more but those being
// forgotten (forget_memories.cypher deletes those next).
// params: user_id, sessions
// mode: write
UNWIND $sessions AS id
MATCH (s:Session {user_id: $user_id, id: id})
OPTIONAL MATCH (s)<-[:IN_SESSION]-(m:Memory)
WHERE m.forgetting IS NULL
WITH s, count(m) AS kept
WHERE kept = 0
DETACH DELETE s
RETURN count(*) AS sessions
