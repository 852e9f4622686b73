// recall_semantic_sentences: the user's memories whose sentences are nearest the query
// embedding (the sentence vector index, read $scan deep and filtered to the user), each with its
// best sentence's cosine and the whole memory's.
// params: user_id, vector, scan, limit
CALL db.index.vector.queryNodes('sentence_embedding', $scan, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
WITH node.uid AS uid, max(score) AS sentence
ORDER BY sentence DESC
LIMIT $limit
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN uid, vector.similarity.cosine(m.embedding, $vector) AS turn, sentence
