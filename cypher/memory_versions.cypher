// memory_versions: of the given memories, which newer memories supersede each (uid, when,
// basis, confidence) and which older ones each supersedes; and the current versions at the end
// of each one's chain (superseded by nothing complete), at most 8 steps on.
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)<-[s:SUPERSEDES]-(n:Memory {complete: true})
WITH m, collect(CASE WHEN n IS NULL THEN null ELSE [n.uid, s.at, s.basis, s.confidence] END) AS newer
OPTIONAL MATCH (m)-[:SUPERSEDES]->(o:Memory)
WITH m, newer, collect(DISTINCT o.uid) AS older
OPTIONAL MATCH (m)<-[:SUPERSEDES*1..8]-(h:Memory {complete: true})
WHERE NOT (h)<-[:SUPERSEDES]-(:Memory {complete: true})
RETURN m.uid AS uid, m.observed_at AS at, newer, older, collect(DISTINCT h.uid) AS current
ORDER BY uid
