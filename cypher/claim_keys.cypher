// claim_keys: the (subject, slot) keys the given memories claim something about.
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})-[c:CLAIMS]->(e:Entity)
RETURN DISTINCT e.vid AS subject, c.slot AS slot
ORDER BY subject, slot
