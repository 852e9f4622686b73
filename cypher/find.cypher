// find: the stored simplex with exactly these vertices (key = ascending vids joined by ',').
// params: user_id, key
// mode: read
MATCH (s:SimplexNode {user_id: $user_id, key: $key})
WHERE s.count > 0
// browser: the names in order, dimension, count, what observed it, metadata, first and last
// seen (UTC), the ids of the memories that observed it (sorted, as cofaces_witnesses.cypher does)
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH s, a, e ORDER BY a.key
WITH s, collect(e.name) AS names
RETURN names, size(s.path) - 1 AS dimension, toInteger(s.count) AS count, s.kind AS kind, s.meta AS meta,
       localdatetime({year: 1970}) + duration({days: toInteger(s.first_seen) / 86400, seconds: toInteger(s.first_seen) % 86400}) AS first_seen,
       localdatetime({year: 1970}) + duration({days: toInteger(s.last_seen) / 86400, seconds: toInteger(s.last_seen) % 86400}) AS last_seen,
       reduce(sorted = [], w IN [(s)-[:WITNESSED_BY]->(m) | m.uid] |
              [x IN sorted WHERE x < w] + [w] + [x IN sorted WHERE x >= w]) AS witnesses
// library: vids, epoch seconds, and [depth, name] pairs that Simplex.from_row orders
//| RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
//|        s.first_seen AS first_seen, s.last_seen AS last_seen,
//|        [(s)-[:PARENT*0..]->(a)-[:LABEL]->(e) | [a.depth, e.name]] AS names,
//|        [(s)-[:WITNESSED_BY]->(m) | m.uid] AS witnesses
