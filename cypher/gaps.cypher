// gaps: of the given faces ({key, vids}), those implied by a stored simplex (some trie node
// labelled with the face's last vertex has every face vertex on its path) but never
// observed themselves.
// params: user_id, faces
// mode: read
UNWIND $faces AS f
OPTIONAL MATCH (s:SimplexNode {user_id: $user_id, key: f.key})
WITH f, s
WHERE s IS NULL OR s.count = 0
MATCH (:Entity {user_id: $user_id, vid: last(f.vids)})<-[:LABEL]-(c)
// the containment test sits in WITH: FalkorDB 4.16 mis-evaluates it as a MATCH filter
WITH f, c, c.depth >= size(f.vids) AND all(v IN f.vids WHERE v IN c.path) AS holds
WHERE holds
// browser: each gap by its entities' names, with its dimension and how many trie nodes hold it
WITH f, count(c) AS holders
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN f.vids
WITH f, holders, e ORDER BY e.vid
WITH f, holders, collect(e.name) AS face
RETURN face, size(f.vids) - 1 AS dimension, holders
ORDER BY dimension, f.key
// library: the faces by key
//| RETURN f.key AS key, count(c) AS holders
