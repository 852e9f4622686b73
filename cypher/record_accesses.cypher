// record_accesses: add a batch of recall accesses to the user's memories (graphmem/lifecycle.py):
// each row {uid, n, at} adds n accesses and moves the last access to `at` when later. The
// batch's id $flush is left on each memory it counted, so a batch written again (a retry after a
// lost connection, or a flush that failed after the server applied it) counts nothing twice.
// params: user_id, flush, accesses
// mode: write
UNWIND $accesses AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
WHERE m.access_flush IS NULL OR m.access_flush <> $flush
SET m.accesses = coalesce(m.accesses, 0) + row.n,
    m.last_accessed = CASE WHEN m.last_accessed IS NULL OR m.last_accessed < row.at THEN row.at
                           ELSE m.last_accessed END,
    m.access_flush = $flush
RETURN count(m) AS counted
