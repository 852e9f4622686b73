// recall_abstracts: the abstracts that hold at least $least of the given memories (recall's fused
// top), with the memories they hold and all their complete members, to lend the members a share.
// params: user_id, uids, least
// mode: read
UNWIND $uids AS uid
MATCH (:Memory {user_id: $user_id, uid: uid})<-[:SUMMARIZES]-(a:Abstract)
WITH a, collect(uid) AS held
WHERE size(held) >= $least
MATCH (a)-[:SUMMARIZES]->(m:Memory)
WHERE m.complete = true
RETURN a.key AS key, a.text AS text, a.entities AS entities, a.first_seen AS first_seen,
       a.last_seen AS last_seen, a.size AS size, held, collect(m.uid) AS members
