// recall_semantic_exact: exact cosine over the user's own memories, for a user whose memories
// the shared vector index, read $scan deep, does not reach (a small user among large ones);
// the same columns and order as recall_semantic. Neo4j's cosine is (1 + cos) / 2: mapped back to cos.
// params: user_id, vector, topic, limit
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE m.embedding IS NOT NULL
WITH m, 2 * vector.similarity.cosine(m.embedding, $topic) - 1 AS topic_turn
ORDER BY topic_turn DESC, m.uid
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, m.speaker AS speaker, 2 * vector.similarity.cosine(m.embedding, $vector) - 1 AS turn,
       max(2 * vector.similarity.cosine(s.embedding, $vector) - 1) AS sentence, topic_turn,
       max(2 * vector.similarity.cosine(s.embedding, $topic) - 1) AS topic_sentence
