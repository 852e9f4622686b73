// recall_candidates: the speaker of each candidate memory and its session neighbours (the turns
// just before and after it) with theirs. The session and position are read first, so the
// (user, session) index finds the neighbours.
// params: user_id, uids
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WITH m.uid AS uid, m.speaker AS speaker, m.session AS session, [m.position - 1, m.position + 1] AS around
OPTIONAL MATCH (n:Memory {user_id: $user_id, session: session})
WHERE n.position IN around
RETURN uid, speaker, collect(CASE WHEN n IS NOT NULL THEN [n.uid, n.speaker] END) AS neighbours
