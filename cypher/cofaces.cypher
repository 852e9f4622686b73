// cofaces: every stored simplex that contains all of $vids (ascending).
// Candidates are the trie nodes labelled with the largest vertex at depth >= |vids| (the
// L_j(last) lists) whose path holds every vertex; each stored node below them is a coface.
// params: user_id, vids, limit
MATCH (c:SimplexNode {user_id: $user_id, vertex: last($vids)})
WHERE c.depth >= size($vids) AND all(v IN $vids WHERE v IN c.path)
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
       s.first_seen AS first_seen, s.last_seen AS last_seen,
       [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
       [(s)-[:WITNESSED_BY]->(m) | m.uid] AS witnesses
ORDER BY size(s.path) DESC, s.count DESC, s.key
LIMIT $limit
