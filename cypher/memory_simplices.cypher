// memory_simplices: the stored simplices a memory witnessed (its turn's, its session's, ...),
// largest first.
// params: user_id, uid
// mode: read
MATCH (m:Memory {user_id: $user_id, uid: $uid})<-[:WITNESSED_BY]-(s:SimplexNode)
WHERE s.count > 0
// browser: who said what, and each simplex it witnessed by its entities' names, dimension, how
// often observed, what observed it, first and last seen (UTC)
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH m, s, a, e ORDER BY a.key
WITH m, s, collect(e.name) AS names
RETURN m.speaker AS speaker, m.text AS text, names, size(s.path) - 1 AS dimension, toInteger(s.count) AS count,
       s.kind AS kind,
       localdatetime({year: 1970}) + duration({days: toInteger(s.first_seen) / 86400, seconds: toInteger(s.first_seen) % 86400}) AS first_seen,
       localdatetime({year: 1970}) + duration({days: toInteger(s.last_seen) / 86400, seconds: toInteger(s.last_seen) % 86400}) AS last_seen
ORDER BY dimension DESC, count DESC, s.key
// library: find.cypher's columns, for Simplex.from_row
//| RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
//|        s.first_seen AS first_seen, s.last_seen AS last_seen,
//|        [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
//|        [(s)-[:WITNESSED_BY]->(w) | w.uid] AS witnesses
//| ORDER BY size(s.path) DESC, s.count DESC, s.key
