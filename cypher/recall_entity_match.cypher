// recall_entity_match: the user's entities whose names are nearest the query's mentions
// (vector index over entity name embeddings), read $scan deep and filtered to the user.
// params: user_id, vector, scan, limit
CALL db.index.vector.queryNodes('entity_embedding', $scan, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
RETURN node.vid AS vid, node.name AS name, node.kind AS kind, node.frequency AS frequency, score
ORDER BY score DESC
LIMIT $limit
