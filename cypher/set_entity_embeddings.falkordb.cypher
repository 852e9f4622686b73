// set_entity_embeddings (FalkorDB): vectors are vecf32 values for the vector index. A vector
// already there is removed first: FalkorDB sets no vector over another (FalkorDB#2099).
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.embedding = NULL
WITH e, row
SET e.embedding = vecf32(row.embedding)
RETURN count(e) AS embedded
