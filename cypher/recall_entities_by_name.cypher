// recall_entities_by_name: the user's entities a query names, by normalised name or alias
// (alias_norms: the aliases lower-cased, kept beside them by every statement that sets them,
// migrate_alias_norms.cypher for entities written before). Neo4j indexes no list's elements:
// the user's entities are read (the FalkorDB variant seeks).
// params: user_id, norms
// mode: read
MATCH (e:Entity {user_id: $user_id})
WHERE e.norm IN $norms OR any(n IN e.alias_norms WHERE n IN $norms)
RETURN e.vid AS vid, e.name AS name, e.norm AS norm, e.kind AS kind, e.aliases AS aliases,
       e.frequency AS frequency
ORDER BY vid
