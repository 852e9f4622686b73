// recall_semantic (FalkorDB): exact cosine over the user's own memories. FalkorDB's vector
// index cannot be filtered by user while it searches, and reading it deep then filtering
// drops a small user's memories; an exact scan of one user's memories is both right and fast.
// params: user_id, vector, limit
MATCH (m:Memory {user_id: $user_id})
WHERE m.embedding IS NOT NULL
RETURN m.uid AS uid, 1.0 - vec.cosineDistance(m.embedding, vecf32($vector)) AS score
ORDER BY score DESC
LIMIT $limit
