// rekey_claims: give claims a new slot, and remove the SUPERSEDES relationships of their old
// one: supersession.rekey settles the new slot's versions afterwards. Idempotent: a slot
// already renamed matches nothing.
// $renames rows: {subject (vid), old, new}
// params: user_id, renames
// mode: write
UNWIND $renames AS r
MATCH (e:Entity {user_id: $user_id, vid: r.subject})<-[c:CLAIMS]-(m:Memory {user_id: $user_id})
WHERE c.slot = r.old
SET c.slot = r.new
WITH DISTINCT m, r
OPTIONAL MATCH (m)-[s:SUPERSEDES]->(:Memory)
WHERE s.subject = r.subject AND s.slot = r.old
DELETE s
RETURN count(DISTINCT m) AS memories
