// migrate_accesses: graphmem once kept a memory's recall accesses on the memory itself
// (accesses, last_accessed, access_flush); record_accesses.cypher keeps them on its
// (:Memory)-[:RECALLED_FOR]->(:User) relationship. Move them there and remove the three
// properties, once per graph: a (:Graphmem {layout: 'accesses'}) marker says it is done, so later
// runs read one node (an import of an older export moves its memories' own: graphmem/transfer.py).
// Run by Memory.setup. One statement: a crash leaves either the memories as they were or all of
// them moved and the marker. Each property is removed in a part of its own (FalkorDB#1787:
// tests/test_cypher_files.py). The memories are found from their users: FalkorDB 4.16 refuses
// an index seek by a property of a variable an OPTIONAL MATCH left null.
// params:
// mode: write
OPTIONAL MATCH (done:Graphmem {layout: 'accesses'})
WITH done WHERE done IS NULL
MATCH (u:User)
MATCH (m:Memory {user_id: u.id})
WHERE coalesce(m.accesses, 0) > 0 OR m.last_accessed IS NOT NULL
MERGE (m)-[r:RECALLED_FOR]->(u)
SET r.accesses = coalesce(r.accesses, 0) + coalesce(m.accesses, 0),
    r.last_accessed = CASE WHEN r.last_accessed IS NULL OR r.last_accessed < m.last_accessed
                           THEN m.last_accessed ELSE r.last_accessed END
WITH count(*) AS moved
OPTIONAL MATCH (done:Graphmem {layout: 'accesses'})
WITH moved, done WHERE done IS NULL
OPTIONAL MATCH (m:Memory)
WHERE m.accesses IS NOT NULL
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | REMOVE m.accesses)
WITH count(*) AS part, moved
OPTIONAL MATCH (m:Memory)
WHERE m.last_accessed IS NOT NULL
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | REMOVE m.last_accessed)
WITH count(*) AS part, moved
OPTIONAL MATCH (m:Memory)
WHERE m.access_flush IS NOT NULL
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | REMOVE m.access_flush)
WITH count(*) AS part, moved
MERGE (:Graphmem {layout: 'accesses'})
RETURN moved AS migrated
