// recall_entity_match_exact: exact cosine over the user's own entity name embeddings, for a user
// whose entities the shared vector index, read $scan deep, does not reach (a small user among
// large ones); the same columns and order as recall_entity_match. Neo4j's cosine is
// (1 + cos) / 2: mapped back to cos.
// params: user_id, vector, limit
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.embedding IS NOT NULL
WITH e, 2 * vector.similarity.cosine(e.embedding, $vector) - 1 AS score
RETURN e.vid AS vid, e.name AS name, e.kind AS kind, e.frequency AS frequency, score
ORDER BY score DESC, vid
LIMIT $limit
