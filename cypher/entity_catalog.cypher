// entity_catalog: every entity of the user with its aliases, for entity resolution at ingest.
// params: user_id
// mode: read
MATCH (e:Entity {user_id: $user_id})
RETURN e.vid AS vid, e.name AS name, e.norm AS norm, e.kind AS kind, e.aliases AS aliases
