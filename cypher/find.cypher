// find: the stored simplex with exactly these vertices (key = ascending vids joined by ',').
// params: user_id, key
// mode: read
MATCH (s:SimplexNode {user_id: $user_id, key: $key})
WHERE s.count > 0
RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
       s.first_seen AS first_seen, s.last_seen AS last_seen,
       [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
       [(s)-[:WITNESSED_BY]->(m) | m.uid] AS witnesses
