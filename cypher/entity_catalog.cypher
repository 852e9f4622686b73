// entity_catalog: every settled entity of the user (none an unfinished ingest created) with its
// aliases, for entity resolution at ingest, and whether its name is embedded yet.
// params: user_id
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.pending IS NULL
RETURN e.vid AS vid, e.name AS name, e.norm AS norm, e.kind AS kind, e.aliases AS aliases,
       e.embedding IS NOT NULL AS embedded
