// recall_entities_by_name (FalkorDB): as recall_entities_by_name.cypher, by two seeks: the
// name's index and the array index on alias_norms, which FalkorDB answers for `x IN list`.
// params: user_id, norms
// mode: read
CALL {
  UNWIND $norms AS norm
  MATCH (e:Entity {user_id: $user_id})
  WHERE e.norm = norm
  RETURN e
  UNION
  UNWIND $norms AS norm
  MATCH (e:Entity)
  WHERE norm IN e.alias_norms AND e.user_id = $user_id
  RETURN e
}
RETURN e.vid AS vid, e.name AS name, e.norm AS norm, e.kind AS kind, e.aliases AS aliases,
       e.frequency AS frequency
ORDER BY vid
