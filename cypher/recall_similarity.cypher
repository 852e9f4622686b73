// recall_similarity: the cosine of the query embedding with each given memory and with its best
// sentence (null for a memory of one sentence), for the candidates the semantic channel did not
// rank.
// params: user_id, uids, vector
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.embedding IS NOT NULL
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, vector.similarity.cosine(m.embedding, $vector) AS turn,
       max(vector.similarity.cosine(s.embedding, $vector)) AS sentence
