// gap_holders: for each given face ({key, vids}) seen together only inside larger simplices,
// the smallest stored simplex holding it: the trie nodes labelled with the face's last vertex
// whose path holds every face vertex, and the stored nodes at or below them. Smallest first,
// then by key, alike on every backend.
// params: user_id, faces
// mode: read
UNWIND $faces AS f
MATCH (:Entity {user_id: $user_id, vid: last(f.vids)})<-[:LABEL]-(c:SimplexNode)
// the containment test sits in WITH: FalkorDB 4.16 mis-evaluates it as a MATCH filter
WITH f, c, c.depth >= size(f.vids) AND all(v IN f.vids WHERE v IN c.path) AS holds
WHERE holds
MATCH (s:SimplexNode)-[:PARENT*0..]->(c)
WHERE s.count > 0
WITH f, s
ORDER BY size(s.path), s.key
WITH f, collect([s.path, s.kind])[0] AS smallest
// browser: each face and its smallest holder by their entities' names, and what observed it
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN f.vids
WITH f, smallest, e ORDER BY e.vid
WITH f, smallest, collect(e.name) AS face
MATCH (h:Entity {user_id: $user_id})
WHERE h.vid IN smallest[0]
WITH f, face, smallest, h ORDER BY h.vid
WITH f, face, smallest, collect(h.name) AS held_by
ORDER BY f.key
RETURN face, held_by, smallest[1] AS kind
// library: vids
//| RETURN f.key AS key, smallest[0] AS path, smallest[1] AS kind
