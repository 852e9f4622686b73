// recall_entities_by_name: the user's entities a query names, by normalised name or alias.
// params: user_id, norms
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.norm IN $norms OR any(a IN e.aliases WHERE toLower(a) IN $norms)
RETURN e.vid AS vid, e.name AS name, e.norm AS norm, e.kind AS kind, e.aliases AS aliases,
       e.frequency AS frequency
