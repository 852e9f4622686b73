// memory_history: a memory and every memory linked to it by supersession, either way, at most
// 20 steps: the versions of what it said, oldest first.
// params: user_id, uid
// mode: read
MATCH (m:Memory {user_id: $user_id, uid: $uid})
OPTIONAL MATCH (m)-[:SUPERSEDES*1..20]-(v:Memory)
WITH m, collect(DISTINCT v) AS others
UNWIND [m] + others AS v
WITH DISTINCT v
WHERE v.complete = true
RETURN v.uid AS uid, v.text AS text, v.speaker AS speaker, v.observed_at AS at, v.session_date AS session_date
ORDER BY at, uid
