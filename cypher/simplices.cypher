// simplices: every stored simplex of the user, largest first.
// params: user_id, limit
// mode: read
MATCH (s:SimplexNode {user_id: $user_id})
WHERE s.count > 0
RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
       s.first_seen AS first_seen, s.last_seen AS last_seen,
       [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
       [(s)-[:WITNESSED_BY]->(m) | m.uid] AS witnesses
ORDER BY size(s.path) DESC, s.count DESC, s.key
LIMIT $limit
