// prune_sessions: delete the given sessions that no memory is in any more.
// params: user_id, sessions
// mode: write
UNWIND $sessions AS id
MATCH (s:Session {user_id: $user_id, id: id})
WHERE NOT (s)<-[:IN_SESSION]-()
DELETE s
RETURN count(*) AS sessions
