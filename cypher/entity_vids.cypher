// entity_vids: vids of entities by normalised name.
// params: user_id, norms
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.norm IN $norms
RETURN e.norm AS norm, e.vid AS vid, e.name AS name
