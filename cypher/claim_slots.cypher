// claim_slots: the (subject, slot) keys of a user's claims whose slot starts with $prefix
// (supersession.rekey: the slots an older version of graphmem may have named otherwise).
// params: user_id, prefix
// mode: read
MATCH (m:Memory {user_id: $user_id})-[c:CLAIMS]->(e:Entity)
WHERE c.slot STARTS WITH $prefix
RETURN DISTINCT e.vid AS subject, c.slot AS slot
ORDER BY subject, slot
