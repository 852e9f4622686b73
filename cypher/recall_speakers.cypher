// recall_speakers: which of the given names are speakers of the user's memories (an index seek
// and one row each, however many memories a speaker has).
// params: user_id, names
UNWIND $names AS name
CALL (name) {
  MATCH (m:Memory {user_id: $user_id, speaker: name})
  RETURN m.uid AS said
  LIMIT 1
}
RETURN name
