// complete_memories: the last write of a batch. Its memories are marked complete and the
// entities they mention settled (no longer pending); then the vectors: each memory's, a
// (:Sentence {n, text, embedding}) node per sentence of a memory of several, merged under it,
// and each new or renamed entity's. One statement, vectors last: a batch whose vectors are
// stored is complete, and nothing is set on a node after its vector (FalkorDB re-inserts a
// node's vector into its index on any change to the node, FalkorDB#2657). A sentence's vector
// is not indexed: recall scores the memories it finds by it.
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
SET m.embedding = row.embedding
FOREACH (s IN row.sentences |
  MERGE (m)-[:HAS_SENTENCE]->(v:Sentence {n: s.n})
  SET v.user_id = $user_id, v.uid = row.uid, v.text = s.text, v.embedding = s.embedding)
WITH count(m) AS embedded
UNWIND $entities AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.embedding = row.embedding
RETURN count(e) AS entities_embedded
