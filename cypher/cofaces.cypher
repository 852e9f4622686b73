// cofaces: every stored simplex that contains all of $vids (ascending), without witnesses
// (cofaces_witnesses.cypher adds them).
// Candidates are the trie nodes labelled with the largest vertex (its L_j list: the nodes
// with a LABEL edge to that entity) at depth >= |vids| whose path holds every vertex; each
// stored node below them is a coface. Reached from the entity, not by the (user_id, vertex)
// index on SimplexNode: one key seek into the far smaller Entity index (faster on the server,
// bench/README.md). The path test sits in WITH: FalkorDB 4.16 otherwise applied it only after
// walking every candidate's subtree.
// Two results from one search (graphmem/queries.py): the Browser's, readable, and the library's,
// after `// library:`. The library's is unsorted: FalkorDB's sort was a large share of a big
// search; the client sorts the split rows in a fraction of that (bench/README.md). And it is one
// row, not a row per simplex: a result can hold thousands of simplices, and both the server's
// reply and the client's parsing cost per value (FalkorDB's compact format sends a type with
// each value). So each simplex is one string, its `packed` property, which
// insert_simplices.cypher writes with the fields it is made of: key, count, first_seen,
// last_seen (epoch seconds), meta (JSON, which escapes control characters) and kind (last, so
// that it may hold anything; prefixed by '=' when not null), joined by the client's separator.
// Building that string here cost as much as the search itself.
// No vertex names in it: graphmem resolves them from its entity cache (walking each path for
// its names cost more than the search).
// params: user_id, vids
// mode: read
MATCH (:Entity {user_id: $user_id, vid: last($vids)})<-[:LABEL]-(c)
WHERE c.depth >= size($vids)
WITH c WHERE all(v IN $vids WHERE v IN c.path)
MATCH (s)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH s
// browser: a row per simplex, largest first, as a person reads it: its entities' names in the
// trie's order (a prefix's key sorts before its extensions'; walked from the simplex, which the
// library leaves to its cache), dimension, how often observed, what observed it, first and last
// seen (UTC; the epoch as days and seconds apart: FalkorDB holds a duration's seconds as a float32,
// 16 s off at today's epoch)
MATCH (s)-[:PARENT*0..]->(a)-[:LABEL]->(e)
WITH s, a, e ORDER BY a.key
WITH s, collect(e.name) AS names
RETURN names, size(s.path) - 1 AS dimension, toInteger(s.count) AS count, s.kind AS kind,
       localdatetime({year: 1970}) + duration({days: toInteger(s.first_seen) / 86400, seconds: toInteger(s.first_seen) % 86400}) AS first_seen,
       localdatetime({year: 1970}) + duration({days: toInteger(s.last_seen) / 86400, seconds: toInteger(s.last_seen) % 86400}) AS last_seen
ORDER BY dimension DESC, count DESC, s.key
// library: one packed string per simplex, in one row (see above)
//| RETURN collect(s.packed) AS rows
