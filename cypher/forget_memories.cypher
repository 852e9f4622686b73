// forget_memories: delete the given memories with their sentences (and so their vectors and
// full-text entries). What they stated and observed is taken back before (unwitness_memories,
// forget_terms).
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
WITH m, collect(s) AS sentences
FOREACH (s IN sentences | DETACH DELETE s)
WITH m, size(sentences) AS n
DETACH DELETE m
RETURN count(*) AS memories, sum(n) AS sentences
