// insert_simplices: record observed simplices in the simplex tree, in one statement.
// $nodes holds every trie node the words need (each prefix of each word, ascending vids):
//   {key: "3,7", parent: "3", vertex: 7, depth: 2, path: [3, 7], ring: "7:2"}
// $words holds one row per distinct simplex: {key, kind, meta, count, first, last, witnesses: [uid]}.
// Nothing is written unless every vertex in $vids is an entity of the user.
// A word with witnesses counts each witnessing memory once, so a retry does not double it;
// a simplex keeps the kind of its first observation.
// params: user_id, vids, nodes, words
OPTIONAL MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
WITH count(e) = size($vids) AS ok
// 1. trie nodes, merged by their path key
UNWIND (CASE WHEN ok THEN $nodes ELSE [] END) AS t
MERGE (n:SimplexNode {user_id: $user_id, key: t.key})
  ON CREATE SET n.vertex = t.vertex, n.depth = t.depth, n.path = t.path, n.count = 0, n.fresh = true
WITH ok, count(*) AS merged
// 2. new nodes: PARENT and LABEL edges, then spliced into their NEXT_SAME_LABEL ring
UNWIND (CASE WHEN ok THEN $nodes ELSE [] END) AS t
MATCH (n:SimplexNode {user_id: $user_id, key: t.key})
WHERE n.fresh = true
MATCH (label:Entity {user_id: $user_id, vid: t.vertex})
OPTIONAL MATCH (parent:SimplexNode {user_id: $user_id, key: t.parent})
CREATE (n)-[:LABEL]->(label)
FOREACH (p IN CASE WHEN parent IS NULL THEN [] ELSE [parent] END | CREATE (n)-[:PARENT]->(p))
WITH t.ring AS ring, collect(n) AS fresh
OPTIONAL MATCH (head:SimplexNode {user_id: $user_id, ring_head: ring})
OPTIONAL MATCH (head)-[link:NEXT_SAME_LABEL]->(after)
DELETE link
WITH ring, fresh, head IS NULL AS new_ring,
     CASE WHEN head IS NULL THEN fresh + fresh[0..1] ELSE [head] + fresh + [after] END AS chain
FOREACH (f IN CASE WHEN new_ring THEN fresh[0..1] ELSE [] END | SET f.ring_head = ring)
FOREACH (i IN range(0, size(chain) - 2) |
  FOREACH (a IN [chain[i]] | FOREACH (b IN [chain[i + 1]] | CREATE (a)-[:NEXT_SAME_LABEL]->(b))))
FOREACH (f IN fresh | REMOVE f.fresh)
// an aggregate with no grouping key yields one row even when no node was new
WITH count(*) AS rings
OPTIONAL MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
WITH count(e) = size($vids) AS ok
// 3. the words themselves: observation counts, kind, metadata, times, witnesses
UNWIND (CASE WHEN ok THEN $words ELSE [] END) AS w
MATCH (s:SimplexNode {user_id: $user_id, key: w.key})
UNWIND (CASE WHEN size(w.witnesses) = 0 THEN [null] ELSE w.witnesses END) AS uid
OPTIONAL MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (s)-[seen:WITNESSED_BY]->(m)
FOREACH (x IN CASE WHEN m IS NOT NULL AND seen IS NULL THEN [m] ELSE [] END | CREATE (s)-[:WITNESSED_BY]->(x))
WITH s, w, sum(CASE WHEN m IS NOT NULL AND seen IS NULL THEN 1 ELSE 0 END) AS added
SET s.count = s.count + CASE
      WHEN size(w.witnesses) = 0 THEN w.count
      WHEN added > 0 THEN added
      WHEN s.count = 0 THEN 1
      ELSE 0 END,
    s.kind = coalesce(s.kind, w.kind),
    s.meta = coalesce(w.meta, s.meta),
    s.first_seen = CASE WHEN s.first_seen IS NULL OR w.first < s.first_seen THEN w.first ELSE s.first_seen END,
    s.last_seen = CASE WHEN s.last_seen IS NULL OR w.last > s.last_seen THEN w.last ELSE s.last_seen END
RETURN s.path AS path, s.count AS count, s.kind AS kind, s.meta AS meta,
       s.first_seen AS first_seen, s.last_seen AS last_seen,
       [(s)-[:WITNESSED_BY]->(x) | x.uid] AS witnesses
