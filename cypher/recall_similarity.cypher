// recall_similarity: for each given memory, the cosines recall_semantic returns (the whole turn
// and its best sentence, with the question and with its topic), for the candidates the semantic
// channel did not rank. Neo4j's cosine is (1 + cos) / 2: mapped back to cos.
// params: user_id, uids, vector, topic
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.embedding IS NOT NULL
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, 2 * vector.similarity.cosine(m.embedding, $vector) - 1 AS turn,
       max(2 * vector.similarity.cosine(s.embedding, $vector) - 1) AS sentence,
       2 * vector.similarity.cosine(m.embedding, $topic) - 1 AS topic_turn,
       max(2 * vector.similarity.cosine(s.embedding, $topic) - 1) AS topic_sentence
