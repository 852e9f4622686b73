// recall_entity_match: the user's entities whose names are nearest the query's mentions
// (vector index over entity name embeddings), read $scan deep and filtered to the user. Neo4j
// scores cosine as (1 + cos) / 2: mapped back to cos, which the match floors are set in.
// params: user_id, vector, scan, limit
// mode: read
CALL db.index.vector.queryNodes('entity_embedding', $scan, $vector) YIELD node, score
WITH node, 2 * score - 1 AS score
WHERE node.user_id = $user_id
RETURN node.vid AS vid, node.name AS name, node.kind AS kind, node.frequency AS frequency, score
ORDER BY score DESC
LIMIT $limit
