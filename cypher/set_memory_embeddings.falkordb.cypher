// set_memory_embeddings (FalkorDB): vectors are vecf32 values for the vector index.
// params: user_id, rows
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.embedding = vecf32(row.embedding)
RETURN count(m) AS embedded
