// face_membership: which of the given faces (by key) are stored simplices.
// params: user_id, keys
// mode: read
UNWIND $keys AS key
OPTIONAL MATCH (s:SimplexNode {user_id: $user_id, key: key})
// browser: each face by its entities' names, whether it is stored, and how often it was observed
WITH key, coalesce(s.count, 0) AS count
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN [v IN split(key, ',') | toInteger(v)]
WITH key, count, e ORDER BY e.vid
WITH key, count, collect(e.name) AS face
RETURN face, size(face) - 1 AS dimension, count > 0 AS stored, toInteger(count) AS count
ORDER BY dimension, key
// library: the faces by key
//| RETURN key, coalesce(s.count, 0) AS count
