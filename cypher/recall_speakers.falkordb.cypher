// recall_speakers (FalkorDB): which of the given names are speakers of the user's memories (an
// index seek and one row each). FalkorDB takes a subquery's variables by an importing WITH, not
// by Neo4j's CALL (name) scope.
// params: user_id, names
UNWIND $names AS name
CALL {
  WITH name
  MATCH (m:Memory {user_id: $user_id, speaker: name})
  RETURN m.uid AS said
  LIMIT 1
}
RETURN name
