// import_relationships: write a batch of relationships between the user's nodes from an export
// (graphmem/transfer.py), after all of its nodes: each end found by its label and natural key
// (as import_nodes merged it), each relationship merged, so that a retry changes nothing, with
// every property the export holds. At most one relationship of a type joins two nodes, but for
// RELATES, one per (label, memory) that stated it, for CLAIMS one per claim of the memory (n),
// for SUPERSEDES one per (subject, slot) (a link set by hand: subject -1, slot '*'). Returns how many rows found both ends.
// $rels rows: {type, properties, a: {label, <its key properties>}, b: {label, <its key properties>}}
// params: user_id, rels
// mode: write
UNWIND $rels AS row
OPTIONAL MATCH (am:Memory {user_id: $user_id, uid: row.a.uid}) WHERE row.a.label = 'Memory'
OPTIONAL MATCH (ae:Entity {user_id: $user_id, vid: row.a.vid}) WHERE row.a.label = 'Entity'
OPTIONAL MATCH (an:SimplexNode {user_id: $user_id, key: row.a.key}) WHERE row.a.label = 'SimplexNode'
WITH row, coalesce(am, ae, an) AS a
OPTIONAL MATCH (bm:Memory {user_id: $user_id, uid: row.b.uid}) WHERE row.b.label = 'Memory'
OPTIONAL MATCH (be:Entity {user_id: $user_id, vid: row.b.vid}) WHERE row.b.label = 'Entity'
OPTIONAL MATCH (bn:SimplexNode {user_id: $user_id, key: row.b.key}) WHERE row.b.label = 'SimplexNode'
OPTIONAL MATCH (bt:Term {user_id: $user_id, word: row.b.word}) WHERE row.b.label = 'Term'
OPTIONAL MATCH (bs:Session {user_id: $user_id, id: row.b.id}) WHERE row.b.label = 'Session'
OPTIONAL MATCH (bu:User {id: $user_id}) WHERE row.b.label = 'User'
OPTIONAL MATCH (:Memory {user_id: $user_id, uid: row.b.uid})-[:HAS_SENTENCE]->(bx:Sentence {n: row.b.n})
  WHERE row.b.label = 'Sentence'
WITH row, a, coalesce(bm, be, bn, bt, bs, bu, bx) AS b
WHERE a IS NOT NULL AND b IS NOT NULL
FOREACH (_ IN CASE WHEN row.type = 'PARENT' THEN [1] ELSE [] END |
  MERGE (a)-[r:PARENT]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'NEXT_SAME_LABEL' THEN [1] ELSE [] END |
  MERGE (a)-[r:NEXT_SAME_LABEL]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'LABEL' THEN [1] ELSE [] END |
  MERGE (a)-[r:LABEL]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'WITNESSED_BY' THEN [1] ELSE [] END |
  MERGE (a)-[r:WITNESSED_BY]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'MENTIONS' THEN [1] ELSE [] END |
  MERGE (a)-[r:MENTIONS]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'HAS_TERM' THEN [1] ELSE [] END |
  MERGE (a)-[r:HAS_TERM]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'HAS_SENTENCE' THEN [1] ELSE [] END |
  MERGE (a)-[r:HAS_SENTENCE]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'IN_SESSION' THEN [1] ELSE [] END |
  MERGE (a)-[r:IN_SESSION]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'RECALLED_FOR' THEN [1] ELSE [] END |
  MERGE (a)-[r:RECALLED_FOR]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'CLAIMS' THEN [1] ELSE [] END |
  MERGE (a)-[r:CLAIMS {n: row.properties.n}]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'SUPERSEDES' THEN [1] ELSE [] END |
  MERGE (a)-[r:SUPERSEDES {subject: row.properties.subject, slot: row.properties.slot}]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'NOT_SUPERSEDES' THEN [1] ELSE [] END |
  MERGE (a)-[r:NOT_SUPERSEDES]->(b) SET r += row.properties)
FOREACH (_ IN CASE WHEN row.type = 'RELATES' THEN [1] ELSE [] END |
  MERGE (a)-[r:RELATES {label: row.properties.label, memory: row.properties.memory}]->(b) SET r += row.properties)
RETURN count(*) AS relationships
