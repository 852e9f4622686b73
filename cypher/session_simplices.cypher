// session_simplices: the keys of the session simplices the given sessions' memories witness
// now: a session whose new simplex is the one it witnesses keeps it, and only gains witnesses
// (Complex.rewitness_sessions).
// params: user_id, sessions
// mode: read
UNWIND $sessions AS grp
MATCH (m:Memory {user_id: $user_id, session: grp})<-[:WITNESSED_BY]-(s:SimplexNode)
WHERE s.kind = 'session'
RETURN grp, collect(DISTINCT s.key) AS keys
