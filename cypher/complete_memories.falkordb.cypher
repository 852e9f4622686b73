// complete_memories (FalkorDB): the last write of a batch. Its memories are marked complete
// and the entities they mention settled (no longer pending); then the vectors, as vecf32
// values: each memory's (for its vector index), a (:Sentence {n, text, embedding}) node per
// sentence of a memory of several, merged under it (idempotent without a uniqueness
// constraint on Sentence: FalkorDB 4.16 crashed enforcing one on the first Sentence written
// after loading a store whose AOF had been rewritten; a sentence's vector only scores the
// memories recall finds, and is not indexed), and each new or renamed entity's. One statement,
// vectors last: a batch whose vectors are stored is complete, and nothing is set on a node
// after its vector (FalkorDB re-inserts a node's vector into its index on any change to the
// node, FalkorDB#2657). An entity's vector is removed first: FalkorDB sets no vector over
// another (FalkorDB#2099).
// $rows: {uid, embedding, sentences: [{n, text, embedding}]}; $entities: {vid, embedding}
// params: user_id, rows, entities
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.complete = true
WITH m
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE e.pending IS NOT NULL
REMOVE e.pending
WITH count(DISTINCT m) AS completed
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.embedding = vecf32(row.embedding)
FOREACH (s IN row.sentences |
  MERGE (m)-[:HAS_SENTENCE]->(v:Sentence {n: s.n})
  SET v.user_id = $user_id, v.uid = row.uid, v.text = s.text, v.embedding = vecf32(s.embedding))
WITH count(m) AS embedded
UNWIND $entities AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.embedding = NULL
WITH e, row
SET e.embedding = vecf32(row.embedding)
RETURN count(e) AS entities_embedded
