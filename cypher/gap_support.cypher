// gap_support: for each given face ({key, vids}), how often it was observed itself (its own
// count, 0 when never) and the smallest stored simplex holding it: the trie nodes labelled
// with the face's last vertex whose path holds every face vertex, and the stored nodes at or
// below them. A face no stored simplex holds returns no row: its vertices were never seen
// together. Smallest first, then by key, alike on every backend.
// params: user_id, faces
// mode: read
UNWIND $faces AS f
OPTIONAL MATCH (own:SimplexNode {user_id: $user_id, key: f.key})
WITH f, coalesce(own.count, 0) AS count
MATCH (:Entity {user_id: $user_id, vid: last(f.vids)})<-[:LABEL]-(c:SimplexNode)
// the containment test sits in WITH: FalkorDB 4.16 mis-evaluates it as a MATCH filter
WITH f, count, c, c.depth >= size(f.vids) AND all(v IN f.vids WHERE v IN c.path) AS holds
WHERE holds
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH f, count, s
ORDER BY size(s.path), s.key
WITH f, count, collect([s.path, s.kind])[0] AS smallest
RETURN f.key AS key, count, smallest[0] AS path, smallest[1] AS kind
