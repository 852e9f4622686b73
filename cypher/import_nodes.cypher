// import_nodes: write a batch of the user's nodes from an export (graphmem/transfer.py), each
// merged on its natural key, so that a retry, or an import interrupted and run again, changes
// nothing: the user by its id, a memory by its uid, an entity by its vid, a trie node by its
// key, a term by its word, a session by its id, a sentence under its memory by its place n.
// Every property the export holds is set; `embedding` (a list of floats, or null) is kept
// apart, as the store keeps vectors (here: a LIST<FLOAT> property, what the vector indexes read).
// An entity from an export older than `alias_norms` (the aliases lower-cased) gets them here.
// $nodes rows: {label, properties: {...} (user_id already the target user's), embedding}
// params: user_id, nodes
// mode: write
UNWIND $nodes AS row
FOREACH (_ IN CASE WHEN row.label = 'User' THEN [1] ELSE [] END |
  MERGE (n:User {id: $user_id})
  SET n += row.properties)
FOREACH (_ IN CASE WHEN row.label = 'Session' THEN [1] ELSE [] END |
  MERGE (n:Session {user_id: $user_id, id: row.properties.id})
  SET n += row.properties)
FOREACH (_ IN CASE WHEN row.label = 'Term' THEN [1] ELSE [] END |
  MERGE (n:Term {user_id: $user_id, word: row.properties.word})
  SET n += row.properties)
FOREACH (_ IN CASE WHEN row.label = 'Entity' THEN [1] ELSE [] END |
  MERGE (n:Entity {user_id: $user_id, vid: row.properties.vid})
  SET n += row.properties, n.embedding = row.embedding,
      n.alias_norms = coalesce(row.properties.alias_norms, [a IN coalesce(row.properties.aliases, []) | toLower(a)]))
FOREACH (_ IN CASE WHEN row.label = 'Memory' THEN [1] ELSE [] END |
  MERGE (n:Memory {user_id: $user_id, uid: row.properties.uid})
  SET n += row.properties, n.embedding = row.embedding)
FOREACH (_ IN CASE WHEN row.label = 'Sentence' THEN [1] ELSE [] END |
  MERGE (m:Memory {user_id: $user_id, uid: row.properties.uid})
  MERGE (m)-[:HAS_SENTENCE]->(n:Sentence {n: row.properties.n})
  SET n += row.properties, n.embedding = row.embedding)
FOREACH (_ IN CASE WHEN row.label = 'SimplexNode' THEN [1] ELSE [] END |
  MERGE (n:SimplexNode {user_id: $user_id, key: row.properties.key})
  SET n += row.properties)
RETURN count(*) AS nodes
