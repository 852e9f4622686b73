// cofaces_witnesses: cofaces.cypher, with each simplex's witnessing memories as a second list.
// params: user_id, vids
// mode: read
MATCH (:Entity {user_id: $user_id, vid: last($vids)})<-[:LABEL]-(c)
WHERE c.depth >= size($vids)
WITH c WHERE all(v IN $vids WHERE v IN c.path)
MATCH (s)-[:PARENT*0..]->(c)
WHERE s.count > 0
// witnesses by OPTIONAL MATCH + collect: on FalkorDB 4.16 a pattern comprehension here cost
// more than the whole search on a large result, even with no WITNESSED_BY edge at all
// (bench/README.md)
OPTIONAL MATCH (s)-[:WITNESSED_BY]->(m)
WITH s, collect(m.uid) AS witnesses
// browser: cofaces.cypher's readable rows, with the ids of the memories that observed each,
// sorted (an insertion sort: Cypher has no list sort) so that a result reads the same each time
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH s, witnesses, a, e ORDER BY a.key
WITH s, witnesses, collect(e.name) AS names
RETURN names, size(s.path) - 1 AS dimension, toInteger(s.count) AS count, s.kind AS kind,
       localdatetime({year: 1970}) + duration({days: toInteger(s.first_seen) / 86400, seconds: toInteger(s.first_seen) % 86400}) AS first_seen,
       localdatetime({year: 1970}) + duration({days: toInteger(s.last_seen) / 86400, seconds: toInteger(s.last_seen) % 86400}) AS last_seen,
       reduce(sorted = [], w IN witnesses | [x IN sorted WHERE x < w] + [w] + [x IN sorted WHERE x >= w]) AS witnesses
ORDER BY dimension DESC, count DESC, s.key
// library: cofaces.cypher's packed strings, and each one's witnesses as a second list
//| RETURN collect(s.packed) AS rows,
//|        collect(witnesses) AS witnesses
