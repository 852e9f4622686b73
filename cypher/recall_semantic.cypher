// recall_semantic: the user's memories nearest the query embedding (vector index). The index
// spans every user, so it is read $scan deep and filtered to the user.
// params: user_id, vector, scan, limit
CALL db.index.vector.queryNodes('memory_embedding', $scan, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
RETURN node.uid AS uid, score
ORDER BY score DESC
LIMIT $limit
