// simplices: every stored simplex of the user, largest first.
// params: user_id, limit
// mode: read
MATCH (s:SimplexNode {user_id: $user_id})
WHERE s.count > 0
// browser: the largest simplices as a person reads them (cofaces.cypher's columns), with how
// many memories observed each
WITH s ORDER BY size(s.path) DESC, s.count DESC, s.key
LIMIT $limit
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH s, a, e ORDER BY a.key
WITH s, collect(e.name) AS names
RETURN names, size(s.path) - 1 AS dimension, toInteger(s.count) AS count, s.kind AS kind,
       localdatetime({year: 1970}) + duration({days: toInteger(s.first_seen) / 86400, seconds: toInteger(s.first_seen) % 86400}) AS first_seen,
       localdatetime({year: 1970}) + duration({days: toInteger(s.last_seen) / 86400, seconds: toInteger(s.last_seen) % 86400}) AS last_seen,
       size([(s)-[:WITNESSED_BY]->(m) | m.uid]) AS witnesses
ORDER BY dimension DESC, count DESC, s.key
// library: vids, epoch seconds, [depth, name] pairs and witness ids, for Simplex.from_row
//| RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
//|        s.first_seen AS first_seen, s.last_seen AS last_seen,
//|        [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
//|        [(s)-[:WITNESSED_BY]->(m) | m.uid] AS witnesses
//| ORDER BY size(s.path) DESC, s.count DESC, s.key
//| LIMIT $limit
