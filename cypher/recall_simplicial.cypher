// recall_simplicial: the stored simplices sharing at least $min_overlap vertices with the
// query's matched vertices (the cofaces of the set and of its subsets, in one statement),
// with the memories that witnessed each. The trie nodes labelled with a query vertex, and
// every stored node below them, are exactly the simplices containing that vertex. Fuller
// overlap first, then the smaller simplex, then by key, alike on every backend (the witnesses
// of one simplex come in no order).
// params: user_id, vids, min_overlap, limit
// mode: read
MATCH (c:SimplexNode {user_id: $user_id})
WHERE c.vertex IN $vids
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH s, count(DISTINCT c.vertex) AS overlap
WHERE overlap >= $min_overlap
MATCH (s)-[:WITNESSED_BY]->(m:Memory)
WITH s, overlap, collect(m.uid) AS witnesses
RETURN s.path AS path, s.kind AS kind, s.count AS count, overlap, witnesses
ORDER BY overlap DESC, size(s.path) ASC, s.key
LIMIT $limit
