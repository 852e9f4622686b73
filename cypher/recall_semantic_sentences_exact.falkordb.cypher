// recall_semantic_sentences_exact (FalkorDB): recall_semantic_sentences by exact cosine over the
// user's own sentences, for a user the shared sentence index, read $scan deep, does not reach.
// params: user_id, vector, limit
MATCH (s:Sentence {user_id: $user_id})
WITH s.uid AS uid, max(1.0 - vec.cosineDistance(s.embedding, vecf32($vector))) AS sentence
ORDER BY sentence DESC
LIMIT $limit
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN uid, 1.0 - vec.cosineDistance(m.embedding, vecf32($vector)) AS turn, sentence
