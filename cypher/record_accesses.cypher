// record_accesses: add a batch of recall accesses to the user's memories (graphmem/lifecycle.py):
// each row {uid, n, at} adds n accesses and moves the last access to `at` when later. The counts
// live on the memory's (:Memory)-[:RECALLED_FOR]->(:User) relationship, not on the memory: FalkorDB
// re-inserts a node's vector and full-text entries whenever any property of it is set
// (FalkorDB#2657), and recall's counting would pay that for every memory it returned. The
// batch's id $flush is left on each relationship it counted, so a batch written again (a retry
// after a lost connection, or a flush that failed after the server applied it) counts nothing twice.
// params: user_id, flush, accesses
// mode: write
MATCH (u:User {id: $user_id})
UNWIND $accesses AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
MERGE (m)-[r:RECALLED_FOR]->(u)
WITH r, row
WHERE r.flush IS NULL OR r.flush <> $flush
SET r.accesses = coalesce(r.accesses, 0) + row.n,
    r.last_accessed = CASE WHEN r.last_accessed IS NULL OR r.last_accessed < row.at THEN row.at
                           ELSE r.last_accessed END,
    r.flush = $flush
RETURN count(r) AS counted
