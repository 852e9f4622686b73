// entity_names: names of the given vids (vertex labels of the simplex tree).
// params: user_id, vids
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
RETURN e.vid AS vid, e.name AS name, e.norm AS norm
