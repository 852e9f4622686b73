// recall_neighbours: the turns just before and after the given memories in their session
// (the session and position are read first, so the (user, session) index finds the rest).
// params: user_id, uids
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WITH m.uid AS uid, m.session AS session, [m.position - 1, m.position + 1] AS around
MATCH (n:Memory {user_id: $user_id, session: session})
WHERE n.position IN around
RETURN uid, n.uid AS neighbour
