// recall_semantic_exact: exact cosine over the user's own memories, for a user whose memories
// the shared vector index, read $scan deep, does not reach (a small user among large ones);
// each with its best sentence's cosine (null for a memory of one sentence).
// params: user_id, vector, limit
MATCH (m:Memory {user_id: $user_id})
WHERE m.embedding IS NOT NULL
WITH m, vector.similarity.cosine(m.embedding, $vector) AS turn
ORDER BY turn DESC
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, turn, max(vector.similarity.cosine(s.embedding, $vector)) AS sentence
