// recall_speakers (FalkorDB): which of the given names are speakers of the user's memories (an
// index seek and one row each): a subquery with LIMIT 1, where Neo4j has EXISTS { }.
// params: user_id, names
// mode: read
UNWIND $names AS name
CALL {
  WITH name
  MATCH (m:Memory {user_id: $user_id, speaker: name})
  RETURN m.uid AS said
  LIMIT 1
}
RETURN name
