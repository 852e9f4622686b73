// recall_semantic: the user's memories nearest the question's topic by the memory vector index,
// each with its speaker and its cosines: of the whole turn and of its best sentence (null for a
// memory of one sentence), with the question and with its topic. The index spans every user, so
// it is read $scan deep and filtered to the user. The index gives the candidates only (a
// quantized index's scores are approximate: recall_entity_match.cypher): every cosine is
// computed exactly. Neo4j scores cosine as (1 + cos) / 2: mapped back to cos. Equal cosines go
// to the lower uid, alike on every backend.
// params: user_id, vector, topic, scan, limit
// mode: read
CALL db.index.vector.queryNodes('memory_embedding', $scan, $topic) YIELD node
WITH node AS m
WHERE m.user_id = $user_id
WITH m, 2 * vector.similarity.cosine(m.embedding, $topic) - 1 AS topic_turn
ORDER BY topic_turn DESC, m.uid
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, m.speaker AS speaker, 2 * vector.similarity.cosine(m.embedding, $vector) - 1 AS turn,
       max(2 * vector.similarity.cosine(s.embedding, $vector) - 1) AS sentence, topic_turn,
       max(2 * vector.similarity.cosine(s.embedding, $topic) - 1) AS topic_sentence
