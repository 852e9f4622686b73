// recall_similarity (FalkorDB): for each given memory, the cosines recall_semantic returns (the
// whole turn and its best sentence, with the question and with its topic), for the candidates
// the semantic channel did not rank.
// The query vectors are made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, uids, vector, topic
// mode: read
WITH vecf32($vector) AS question, vecf32($topic) AS topic
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.embedding IS NOT NULL
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, 1.0 - vec.cosineDistance(m.embedding, question) AS turn,
       max(1.0 - vec.cosineDistance(s.embedding, question)) AS sentence,
       1.0 - vec.cosineDistance(m.embedding, topic) AS topic_turn,
       max(1.0 - vec.cosineDistance(s.embedding, topic)) AS topic_sentence
