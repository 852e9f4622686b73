// set_memory_embeddings (FalkorDB): each memory's embedding and, for a memory of several
// sentences, a (:Sentence {n, text, embedding}) node per sentence, merged under its memory
// (idempotent without a uniqueness constraint on Sentence: FalkorDB 4.16 crashed enforcing
// one on the first Sentence written after loading a store whose AOF had been rewritten).
// Vectors are vecf32 values (the memory's for its vector index; a sentence's only to score the
// memories recall finds, not indexed).
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.embedding = vecf32(row.embedding)
FOREACH (s IN row.sentences |
  MERGE (m)-[:HAS_SENTENCE]->(v:Sentence {n: s.n})
  SET v.user_id = $user_id, v.uid = row.uid, v.text = s.text, v.embedding = vecf32(s.embedding))
RETURN count(m) AS embedded
