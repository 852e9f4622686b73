// recall_semantic_sentences (FalkorDB): the user's memories whose sentences are nearest the
// query embedding (the sentence vector index, read $scan deep and filtered to the user), each
// with its best sentence's cosine and the whole memory's.
// params: user_id, vector, scan, limit
CALL db.idx.vector.queryNodes('Sentence', 'embedding', $scan, vecf32($vector)) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
WITH node.uid AS uid, max(1.0 - score) AS sentence
ORDER BY sentence DESC
LIMIT $limit
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN uid, 1.0 - vec.cosineDistance(m.embedding, vecf32($vector)) AS turn, sentence
