// recall_entity_match: the user's entities whose names are nearest the query's mentions, found
// by the vector index over entity name embeddings, read $scan deep and filtered to the user;
// recall runs recall_entity_match_exact instead when this finds fewer than $limit (the index
// reached too few of the user's entities: a small user among large ones).
// The index gives the candidates only: Neo4j 5.23+ quantizes a vector index unless told not to
// (schema.cypher tells it; an index made before that, or by hand, may still be), so the scores
// it yields are approximate, and a match floor applied to them would drift. Each candidate's
// cosine is computed exactly; Neo4j scores cosine as (1 + cos) / 2: mapped back to cos, which
// the match floors are set in. Equal scores go to the lower vid, alike on every backend.
// params: user_id, vector, scan, limit
// mode: read
CALL db.index.vector.queryNodes('entity_embedding', $scan, $vector) YIELD node
WITH node AS e
WHERE e.user_id = $user_id
WITH e, 2 * vector.similarity.cosine(e.embedding, $vector) - 1 AS score
RETURN e.vid AS vid, e.name AS name, e.kind AS kind, e.frequency AS frequency, score
ORDER BY score DESC, vid
LIMIT $limit
