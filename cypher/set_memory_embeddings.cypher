// set_memory_embeddings: each memory's embedding and, for a memory of several sentences, a
// (:Sentence {n, text, embedding}) node per sentence, merged under its memory (idempotent). A
// sentence's vector is not indexed: recall scores the memories it finds by it.
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.embedding = row.embedding
FOREACH (s IN row.sentences |
  MERGE (m)-[:HAS_SENTENCE]->(v:Sentence {n: s.n})
  SET v.user_id = $user_id, v.uid = row.uid, v.text = s.text, v.embedding = s.embedding)
RETURN count(m) AS embedded
