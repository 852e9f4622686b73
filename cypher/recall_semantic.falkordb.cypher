// recall_semantic (FalkorDB): the user's memories nearest the query embedding by the memory
// vector index (HNSW; it yields cosine distance), read $scan deep and filtered to the user, each
// with its best sentence's cosine (null for a memory of one sentence).
// params: user_id, vector, scan, limit
CALL db.idx.vector.queryNodes('Memory', 'embedding', $scan, vecf32($vector)) YIELD node, score
WITH node AS m, 1.0 - score AS turn
WHERE m.user_id = $user_id
WITH m, turn
ORDER BY turn DESC
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, turn, max(1.0 - vec.cosineDistance(s.embedding, vecf32($vector))) AS sentence
