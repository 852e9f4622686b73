// recall_entity_match_exact (FalkorDB): exact cosine over the user's own entity name embeddings,
// for a user whose entities the shared vector index, read $scan deep, does not reach (a small
// user among large ones); the same columns and order as recall_entity_match.
// The query vector is made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, vector, limit
// mode: read
WITH vecf32($vector) AS mention
MATCH (e:Entity {user_id: $user_id})
WHERE e.embedding IS NOT NULL
RETURN e.vid AS vid, e.name AS name, e.kind AS kind, e.frequency AS frequency,
       1.0 - vec.cosineDistance(e.embedding, mention) AS score
ORDER BY score DESC, vid
LIMIT $limit
