// recall_semantic_exact (FalkorDB): exact cosine over the user's own memories, for a user whose
// memories the shared vector index, read $scan deep, does not reach (a small user among large
// ones); the same columns and order as recall_semantic.
// The query vectors are made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, vector, topic, limit
// mode: read
WITH vecf32($vector) AS question, vecf32($topic) AS topic
MATCH (m:Memory {user_id: $user_id})
WHERE m.embedding IS NOT NULL
WITH question, topic, m, 1.0 - vec.cosineDistance(m.embedding, topic) AS topic_turn
ORDER BY topic_turn DESC, m.uid
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, m.speaker AS speaker, 1.0 - vec.cosineDistance(m.embedding, question) AS turn,
       max(1.0 - vec.cosineDistance(s.embedding, question)) AS sentence, topic_turn,
       max(1.0 - vec.cosineDistance(s.embedding, topic)) AS topic_sentence
