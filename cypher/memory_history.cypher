// memory_history: a memory and every memory linked to it by supersession, either way, at most
// 20 steps, on the (subject, slot) keys it claims or by links set by hand (slot '*', which are on
// all it said): the versions of what it said, oldest first (a memory that also said something
// else links that thing's versions to it, not to this one). A memory that said a thing ended
// ("we ditched Jenkins") supersedes on the keys of what named it ("our CI runs on Jenkins"),
// which it does not claim: those keys are its versions' too.
// params: user_id, uid
// mode: read
MATCH (m:Memory {user_id: $user_id, uid: $uid})
WITH m, [(m)-[c:CLAIMS]->(e:Entity) | toString(e.vid) + '|' + c.slot] +
        [(m)-[s:SUPERSEDES]->(:Memory) WHERE s.slot <> '*' | toString(s.subject) + '|' + s.slot] AS claimed
OPTIONAL MATCH p = (m)-[:SUPERSEDES*1..20]-(v:Memory)
WHERE size(claimed) = 0 OR all(r IN relationships(p) WHERE r.slot = '*' OR (toString(r.subject) + '|' + r.slot) IN claimed)
WITH m, claimed, collect(DISTINCT v) AS others
UNWIND [m] + others AS v
WITH DISTINCT v, claimed
WHERE v.complete = true
RETURN v.uid AS uid, v.text AS text, v.speaker AS speaker, v.observed_at AS at, v.session_date AS session_date,
       claimed AS keys
ORDER BY at, uid
