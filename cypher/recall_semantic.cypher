// recall_semantic: the user's memories nearest the query embedding by the memory vector index,
// each with its best sentence's cosine (null for a memory of one sentence). The index spans
// every user, so it is read $scan deep and filtered to the user.
// params: user_id, vector, scan, limit
CALL db.index.vector.queryNodes('memory_embedding', $scan, $vector) YIELD node, score
WITH node AS m, score AS turn
WHERE m.user_id = $user_id
WITH m, turn
ORDER BY turn DESC
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, turn, max(vector.similarity.cosine(s.embedding, $vector)) AS sentence
