// cofaces_witnesses: cofaces.cypher, with each simplex's witnessing memories as a second list.
// params: user_id, vids, limit
MATCH (c:SimplexNode {user_id: $user_id, vertex: last($vids)})
WHERE c.depth >= size($vids) AND all(v IN $vids WHERE v IN c.path)
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
// witnesses by OPTIONAL MATCH + collect: on FalkorDB 4.16 a pattern comprehension here cost
// 2.5x the whole search on a 10^4-simplex result, even with no WITNESSED_BY edge at all
OPTIONAL MATCH (s)-[:WITNESSED_BY]->(m)
WITH s, collect(m.uid) AS witnesses
ORDER BY s.depth DESC, s.count DESC, s.key
LIMIT $limit
RETURN collect(s.packed) AS rows,
       collect(witnesses) AS witnesses
