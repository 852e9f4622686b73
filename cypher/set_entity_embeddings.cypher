// set_entity_embeddings: store the embedding of each entity's canonical name (idempotent).
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.embedding = row.embedding
RETURN count(e) AS embedded
