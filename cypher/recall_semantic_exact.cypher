// recall_semantic_exact: exact cosine over the user's own memories, for a user whose memories
// the shared vector index, read $scan deep, does not reach (a small user among large ones).
// params: user_id, vector, limit
MATCH (m:Memory {user_id: $user_id})
WHERE m.embedding IS NOT NULL
RETURN m.uid AS uid, vector.similarity.cosine(m.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $limit
