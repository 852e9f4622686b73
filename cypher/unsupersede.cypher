// unsupersede: remove the SUPERSEDES relationships of the given (subject, slot) keys, before
// supersede.cypher writes them again from the claims as they are now: those from or to a
// memory that claims the key (a memory that said a thing ended supersedes one that named it on
// that one's key, without claiming the key itself).
// $keys rows: {subject (vid), slot}
// params: user_id, keys
// mode: write
UNWIND $keys AS k
MATCH (e:Entity {user_id: $user_id, vid: k.subject})<-[c:CLAIMS]-(m:Memory {user_id: $user_id})
WHERE c.slot = k.slot
WITH DISTINCT m, k
MATCH (m)-[s:SUPERSEDES]-(:Memory)
WHERE s.subject = k.subject AND s.slot = k.slot
WITH DISTINCT s
DELETE s
RETURN count(*) AS removed
