// verify: the simplex tree's invariants, then the memory's (what a lost write breaks: counts,
// embeddings, witnesses, session simplices); each statement returns one row per violation.
// (Counts come from OPTIONAL MATCH, not pattern comprehensions: FalkorDB 4.16 evaluates
// some comprehension directions and inner WHEREs wrongly.)
// params: user_id
// mode: read
MATCH (n:SimplexNode {user_id: $user_id})
OPTIONAL MATCH (n)-[:PARENT]->(p)
WITH n, count(p) AS parents
WHERE parents > 1 OR (parents = 0 AND (n.depth <> 1 OR n.key <> toString(n.vertex) OR n.path <> [n.vertex]))
RETURN 'root with wrong depth, key or path, or more than one parent' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})-[:PARENT]->(p)
WITH n, p, p:SimplexNode AND p.user_id = n.user_id AND n.depth = p.depth + 1 AND n.vertex > p.vertex
     AND n.key = p.key + ',' + toString(n.vertex) AND n.path = p.path + [n.vertex] AS consistent
WHERE NOT consistent
RETURN 'child inconsistent with its parent (user, depth, vertex order, key or path)' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})
OPTIONAL MATCH (n)-[:LABEL]->(e)
WITH n, count(e) AS labels, sum(CASE WHEN e:Entity AND e.user_id = n.user_id AND e.vid = n.vertex THEN 1 ELSE 0 END) AS right
WHERE labels <> 1 OR right <> 1
RETURN 'label edge missing or wrong' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})
WHERE n.count = 0
OPTIONAL MATCH (c)-[:PARENT]->(n)
WITH n, count(c) AS children
WHERE children = 0
RETURN 'orphan: a prefix node with no stored simplex below it' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})
WHERE n.fresh IS NOT NULL
RETURN 'insert left a node half-linked' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})
OPTIONAL MATCH (n)-[:NEXT_SAME_LABEL]->(x)
WITH n, count(x) AS nexts,
     sum(CASE WHEN x.user_id = n.user_id AND x.vertex = n.vertex AND x.depth = n.depth THEN 1 ELSE 0 END) AS same
OPTIONAL MATCH (y)-[:NEXT_SAME_LABEL]->(n)
WITH n, nexts, same, count(y) AS previous
WHERE nexts > 1 OR same <> nexts OR previous <> CASE WHEN n.ring_head IS NULL THEN 1 ELSE 0 END
RETURN 'list: more than one next, a next of another label or depth, or a head with a previous (or another node without one)' AS problem, n.key AS key;
MATCH (n:SimplexNode {user_id: $user_id})
WITH n.vertex AS vertex, n.depth AS depth, count(n) AS size,
     count(CASE WHEN n.ring_head = toString(n.vertex) + ':' + toString(n.depth) THEN 1 END) AS heads,
     count(n.ring_head) AS marked
WHERE heads <> 1 OR marked <> 1
RETURN 'list: not exactly one head' AS problem, toString(vertex) + ':' + toString(depth) AS key;
MATCH (h:SimplexNode {user_id: $user_id})
WHERE h.ring_head IS NOT NULL
MATCH (n:SimplexNode {user_id: $user_id, vertex: h.vertex})
WHERE n.depth = h.depth
WITH h, count(n) AS size
MATCH walk = (h)-[:NEXT_SAME_LABEL*0..]->(t)
WITH h, size, max(length(walk)) AS length
WHERE length + 1 <> size
RETURN 'list: the walk from its head misses nodes' AS problem, h.ring_head AS key;
MATCH (u:User {id: $user_id})
OPTIONAL MATCH (m:Memory {user_id: $user_id})
WITH u, count(m) AS memories
WHERE u.memories IS NOT NULL AND u.memories <> memories
RETURN 'memory count out of date (an ingest did not finish)' AS problem, toString(memories) AS key;
MATCH (m:Memory {user_id: $user_id})
WHERE m.complete IS NULL
RETURN 'memory left incomplete by an interrupted ingest (run it again)' AS problem, m.uid AS key;
MATCH (m:Memory {user_id: $user_id})
WHERE m.complete = true AND m.embedding IS NULL
RETURN 'memory without its embedding' AS problem, m.uid AS key;
// counted by the relationship: FalkorDB matches two nodes once however many relationships join
// them, unless the statement uses the relationship itself
MATCH (m:Memory {user_id: $user_id})-[r:RECALLED_FOR]->(u:User)
WITH m, count(r) AS counts, collect(u.id) AS counted_for
WHERE counts > 1 OR any(owner IN counted_for WHERE owner <> $user_id)
RETURN 'memory whose recall counts are not on one relationship to its own user' AS problem, m.uid AS key;
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(:Entity)
WHERE m.complete = true
WITH DISTINCT m
OPTIONAL MATCH (s:SimplexNode {user_id: $user_id, kind: 'turn'})-[:WITNESSED_BY]->(m)
WITH m, count(s) AS turns
WHERE turns = 0
RETURN 'memory with entities but no turn simplex witnessed by it' AS problem, m.uid AS key;
OPTIONAL MATCH (u:User {id: $user_id})
WITH coalesce(u.unconsolidated, []) AS waiting
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(:Entity)
WHERE m.complete = true
WITH waiting, m.session AS session, collect(DISTINCT m.uid) AS uids
// a session holding a memory that `Memory.add` left waiting is witnessed by the next pass
// (graphmem/consolidation.py)
WHERE none(uid IN uids WHERE uid IN waiting)
WITH session, size(uids) AS memories
OPTIONAL MATCH (s:SimplexNode {user_id: $user_id})-[:WITNESSED_BY]->(x:Memory {user_id: $user_id, session: session})
WITH session, memories, s, count(DISTINCT x) AS seen
WITH session, max(CASE WHEN seen = memories THEN 1 ELSE 0 END) AS whole
WHERE whole = 0
RETURN 'session without its session simplex (one witnessed by all its memories)' AS problem, session AS key;
MATCH (s:SimplexNode {user_id: $user_id})-[:WITNESSED_BY]->(m)
WITH s, count(m) AS witnesses
WHERE s.count < witnesses
RETURN 'simplex counted fewer times than it was witnessed' AS problem, s.key AS key
