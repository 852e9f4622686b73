// recall_speakers: which of the given names are speakers of the user's memories (an index seek
// each, stopping at the first memory: however many memories a speaker has).
// params: user_id, names
// mode: read
UNWIND $names AS name
WITH name
WHERE EXISTS { MATCH (:Memory {user_id: $user_id, speaker: name}) }
RETURN name
