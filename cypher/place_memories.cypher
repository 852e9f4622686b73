// place_memories: move stored memories to the places a transcript read again gives them (a
// line added above them), so that their neighbours are the transcript's.
// $rows: {uid, position, observed_at}
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
SET m.position = row.position, m.observed_at = row.observed_at
RETURN count(m) AS placed
