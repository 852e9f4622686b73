// cofaces: every stored simplex that contains all of $vids (ascending), without witnesses
// (cofaces_witnesses.cypher adds them).
// Candidates are the trie nodes labelled with the largest vertex at depth >= |vids| (the
// L_j(last) lists) whose path holds every vertex; each stored node below them is a coface.
// One row of parallel lists, not a row per simplex: a result can hold thousands of simplices and
// the client's protocol parsing cost per value (FalkorDB's compact format sends a type with each
// value: 22 values per simplex as one row each). `rows` packs each simplex as one string,
// key $sep count $sep meta $sep kind (meta is JSON, which escapes control characters; kind is
// last so that it may hold anything, prefixed by '=' when not null); `times` holds
// [first_seen, last_seen] as numbers. No vertex names: graphmem resolves them from its entity
// cache (walking each path for its names cost more than the search, bench/README.md).
// params: user_id, vids, limit, sep
MATCH (c:SimplexNode {user_id: $user_id, vertex: last($vids)})
WHERE c.depth >= size($vids) AND all(v IN $vids WHERE v IN c.path)
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH s
ORDER BY s.depth DESC, s.count DESC, s.key
LIMIT $limit
RETURN collect(s.key + $sep + toString(s.count) + $sep + coalesce(s.meta, '') + $sep +
               coalesce('=' + s.kind, '')) AS rows,
       collect([s.first_seen, s.last_seen]) AS times
