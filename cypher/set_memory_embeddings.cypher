// set_memory_embeddings: store the embedding of each memory (idempotent).
// params: user_id, rows
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.embedding = row.embedding
RETURN count(m) AS embedded
