// mark_forgetting: the first step of forgetting the given memories: they leave recall at once
// (no longer complete) and each keeps, until it is deleted, what it touches beyond itself (its
// session, the entities it mentions), so that a forget interrupted anywhere is finished by the
// next writer exactly as it would have been (forget_leftovers.cypher).
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WITH m, collect(e.vid) AS vids
SET m.complete = false, m.forgetting = true, m.forget_vids = coalesce(m.forget_vids, vids)
RETURN m.uid AS uid, m.session AS session, m.forget_vids AS vids
