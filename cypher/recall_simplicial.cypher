// recall_simplicial: the stored simplices sharing at least $min_overlap vertices with the
// query's matched vertices (the cofaces of the set and of its subsets, in one statement),
// with the memories that witnessed each. The trie nodes labelled with a query vertex, and
// every stored node below them, are exactly the simplices containing that vertex. The walk
// starts only at nodes whose path (their simplex) holds $min_overlap query vertices: a simplex
// that holds that many lies at or below its deepest node labelled with a query vertex, whose
// path holds them all; and the walk below a frequent vertex's other nodes, which it spares, is
// most of the work. The nodes are reached from the query's entities (their LABEL edges), as
// cofaces.cypher reaches its candidates, and the path test sits in WITH (gap_holders.cypher
// says why). A simplex's overlap is read off its path. Fuller
// overlap first, then the smaller simplex, then by key, alike on every backend (the witnesses
// of one simplex come in no order).
// params: user_id, vids, min_overlap, limit
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
MATCH (e)<-[:LABEL]-(c)
WITH c WHERE size([v IN c.path WHERE v IN $vids]) >= $min_overlap
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH DISTINCT s
WITH s, size([v IN s.path WHERE v IN $vids]) AS overlap
MATCH (s)-[:WITNESSED_BY]->(m:Memory)
WITH s, overlap, collect(m.uid) AS witnesses
// browser: the query's subcomplex as a person reads it: each simplex by its entities' names,
// how many of the query's entities it holds, and the memories that observed it (sorted, as
// cofaces_witnesses.cypher does)
WITH s, overlap, witnesses ORDER BY overlap DESC, size(s.path) ASC, s.key
LIMIT $limit
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH s, overlap, witnesses, a, e ORDER BY a.key
WITH s, overlap, witnesses, collect(e.name) AS names
RETURN names, size(s.path) - 1 AS dimension, overlap, s.kind AS kind, toInteger(s.count) AS count,
       reduce(sorted = [], w IN witnesses | [x IN sorted WHERE x < w] + [w] + [x IN sorted WHERE x >= w]) AS witnesses
ORDER BY overlap DESC, dimension ASC, s.key
// library: vids
//| RETURN s.path AS path, s.kind AS kind, s.count AS count, overlap, witnesses
//| ORDER BY overlap DESC, size(s.path) ASC, s.key
//| LIMIT $limit
