// lifecycle_memories: one page of the user's complete memories, in order of their uid after
// $after (null: from the first), with what the lifecycle rule weighs (graphmem/lifecycle.py):
// when each was said, its accesses (record_accesses.cypher), its state, whether it is a standing instruction, the
// (subject, slot) keys it claims and those a newer memory gave a new value for (superseded:
// all of them; graphmem/supersession.py).
// params: user_id, after, limit
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE m.complete = true AND ($after IS NULL OR m.uid > $after)
WITH m ORDER BY m.uid
LIMIT $limit
// one row per memory, should a race ever have left it two counts
OPTIONAL MATCH (m)-[a:RECALLED_FOR]->(:User)
WITH m, sum(a.accesses) AS accesses, max(a.last_accessed) AS last_accessed
RETURN m.uid AS uid, m.observed_at AS said_at, last_accessed,
       accesses, m.state AS state, coalesce(m.standing, false) AS standing,
       [(m)-[c:CLAIMS]->(e:Entity) | toString(e.vid) + '|' + c.slot] AS claimed,
       // '' for an edge with no key (it retires all): FalkorDB leaves a null out of the list
       [(m)<-[s:SUPERSEDES]-(newer:Memory {user_id: $user_id, complete: true}) |
        coalesce(toString(s.subject) + '|' + s.slot, '')] AS retired
ORDER BY uid
