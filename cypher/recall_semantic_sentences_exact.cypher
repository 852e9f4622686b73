// recall_semantic_sentences_exact: recall_semantic_sentences by exact cosine over the user's own
// sentences, for a user the shared sentence index, read $scan deep, does not reach.
// params: user_id, vector, limit
MATCH (s:Sentence {user_id: $user_id})
WITH s.uid AS uid, max(vector.similarity.cosine(s.embedding, $vector)) AS sentence
ORDER BY sentence DESC
LIMIT $limit
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN uid, vector.similarity.cosine(m.embedding, $vector) AS turn, sentence
