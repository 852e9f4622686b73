// cofaces: every stored simplex that contains all of $vids (ascending).
// Candidates are the trie nodes labelled with the largest vertex at depth >= |vids| (the
// L_j(last) lists) whose path holds every vertex; each stored node below them is a coface.
// Rows carry the simplex's key ("3,7,12": its ascending vids) and no vertex names: a result can
// hold thousands of simplices, and walking each one's path for its names cost more than the
// search itself (bench/README.md); graphmem resolves names from its entity cache.
// params: user_id, vids, limit
MATCH (c:SimplexNode {user_id: $user_id, vertex: last($vids)})
WHERE c.depth >= size($vids) AND all(v IN $vids WHERE v IN c.path)
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
// witnesses by OPTIONAL MATCH + collect: on FalkorDB 4.16 a pattern comprehension here cost
// 2.5x the whole search on a 10^4-simplex result, even with no WITNESSED_BY edge at all
OPTIONAL MATCH (s)-[:WITNESSED_BY]->(m)
WITH s, collect(m.uid) AS witnesses
RETURN s.key AS key, s.count AS count, s.kind AS kind, s.meta AS meta,
       s.first_seen AS first_seen, s.last_seen AS last_seen, witnesses
ORDER BY s.depth DESC, s.count DESC, s.key
LIMIT $limit
