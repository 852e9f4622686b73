// gap_support: for each given face ({key, vids}), how often it was observed itself (its own
// count, 0 when never) and whether a stored simplex holds it: some trie node labelled with the
// face's last vertex has every face vertex on its path (every trie node lies on a stored
// simplex). A face no stored simplex holds returns no row: its vertices were never seen
// together.
// params: user_id, faces
// mode: read
UNWIND $faces AS f
OPTIONAL MATCH (own:SimplexNode {user_id: $user_id, key: f.key})
WITH f, coalesce(own.count, 0) AS count
MATCH (:Entity {user_id: $user_id, vid: last(f.vids)})<-[:LABEL]-(c:SimplexNode)
// the containment test sits in WITH: FalkorDB 4.16 mis-evaluates it as a MATCH filter
WITH f, count, c.depth >= size(f.vids) AND all(v IN f.vids WHERE v IN c.path) AS holds
WHERE holds
// browser: each face whose entities were seen together, by their names, and how often it was
// observed by itself (0: only inside larger simplices)
WITH DISTINCT f, count
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN f.vids
WITH f, count, e ORDER BY e.vid
WITH f, count, collect(e.name) AS face
RETURN face, size(f.vids) - 1 AS dimension, toInteger(count) AS observed
ORDER BY dimension, f.key
// library: the faces by key
//| RETURN DISTINCT f.key AS key, count
