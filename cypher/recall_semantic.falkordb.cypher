// recall_semantic (FalkorDB): the user's memories nearest the question's topic by the memory
// vector index (HNSW; it yields cosine distance), read $scan deep and filtered to the user, each
// with its speaker and its cosines: of the whole turn and of its best sentence (null for a
// memory of one sentence), with the question and with its topic. Equal cosines go to the lower
// uid, alike on every backend.
// The query vectors are made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, vector, topic, scan, limit
// mode: read
WITH vecf32($vector) AS question, vecf32($topic) AS topic
CALL db.idx.vector.queryNodes('Memory', 'embedding', $scan, topic) YIELD node, score
WITH question, topic, node AS m, 1.0 - score AS topic_turn
WHERE m.user_id = $user_id
WITH question, topic, m, topic_turn
ORDER BY topic_turn DESC, m.uid
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, m.speaker AS speaker, 1.0 - vec.cosineDistance(m.embedding, question) AS turn,
       max(1.0 - vec.cosineDistance(s.embedding, question)) AS sentence, topic_turn,
       max(1.0 - vec.cosineDistance(s.embedding, topic)) AS topic_sentence
