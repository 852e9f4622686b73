// recall_entity_match (FalkorDB): exact cosine over the user's entity name embeddings.
// params: user_id, vector, limit
MATCH (e:Entity {user_id: $user_id})
WHERE e.embedding IS NOT NULL
RETURN e.vid AS vid, e.name AS name, e.kind AS kind, e.frequency AS frequency,
       1.0 - vec.cosineDistance(e.embedding, vecf32($vector)) AS score
ORDER BY score DESC
LIMIT $limit
