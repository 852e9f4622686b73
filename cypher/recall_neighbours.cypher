// recall_neighbours: the turns just before and after the given memories in their session.
// params: user_id, uids
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
MATCH (n:Memory {user_id: $user_id, session: m.session})
WHERE n.position IN [m.position - 1, m.position + 1]
RETURN m.uid AS uid, n.uid AS neighbour
