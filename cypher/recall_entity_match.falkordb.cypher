// recall_entity_match (FalkorDB): the user's entities whose names are nearest the query's
// mentions, found by the entity vector index (HNSW), read $scan deep and filtered to the user;
// each candidate's cosine is computed exactly, as recall_entity_match_exact computes it, which
// recall runs instead when this finds fewer than $limit (the index reached too few of the
// user's entities). Equal scores go to the lower vid, alike on every backend.
// The query vector is made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, vector, scan, limit
// mode: read
WITH vecf32($vector) AS mention
CALL db.idx.vector.queryNodes('Entity', 'embedding', $scan, mention) YIELD node
WITH mention, node AS e
WHERE e.user_id = $user_id
RETURN e.vid AS vid, e.name AS name, e.kind AS kind, e.frequency AS frequency,
       1.0 - vec.cosineDistance(e.embedding, mention) AS score
ORDER BY score DESC, vid
LIMIT $limit
