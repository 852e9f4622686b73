// recall_similarity (FalkorDB): the cosine of the query embedding with each given memory and
// with its best sentence (null for a memory of one sentence), for the candidates the semantic
// channel did not rank.
// params: user_id, uids, vector
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.embedding IS NOT NULL
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, 1.0 - vec.cosineDistance(m.embedding, vecf32($vector)) AS turn,
       max(1.0 - vec.cosineDistance(s.embedding, vecf32($vector))) AS sentence
