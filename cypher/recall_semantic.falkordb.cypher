// recall_semantic (FalkorDB): the vector index (HNSW; it yields cosine distance), read $scan
// deep and filtered to the user.
// params: user_id, vector, scan, limit
CALL db.idx.vector.queryNodes('Memory', 'embedding', $scan, vecf32($vector)) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
RETURN node.uid AS uid, 1.0 - score AS score
ORDER BY score DESC
LIMIT $limit
