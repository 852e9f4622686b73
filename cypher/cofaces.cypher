// cofaces: every stored simplex that contains all of $vids (ascending), without witnesses
// (cofaces_witnesses.cypher adds them).
// Candidates are the trie nodes labelled with the largest vertex at depth >= |vids| (the
// L_j(last) lists) whose path holds every vertex; each stored node below them is a coface.
// One row, not a row per simplex: a result can hold thousands of simplices, and both the
// server's reply and the client's parsing cost per value (FalkorDB's compact format sends a
// type with each value). So each simplex is one string, its `packed` property, which
// insert_simplices.cypher writes with the fields it is made of: key, count, first_seen,
// last_seen (epoch seconds), meta (JSON, which escapes control characters) and kind (last, so
// that it may hold anything; prefixed by '=' when not null), joined by the client's separator.
// Building that string here cost as much as the search itself (bench/README.md).
// No vertex names: graphmem resolves them from its entity cache (walking each path for its
// names cost more than the search).
// params: user_id, vids, limit
MATCH (c:SimplexNode {user_id: $user_id, vertex: last($vids)})
WHERE c.depth >= size($vids) AND all(v IN $vids WHERE v IN c.path)
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH s
ORDER BY s.depth DESC, s.count DESC, s.key
LIMIT $limit
RETURN collect(s.packed) AS rows
