// set_memory_states: move the user's memories to the states the maintenance pass chose
// (graphmem/lifecycle.py), each row {uid, state}; `state_since` is when it moved. Written only
// for memories whose state changes, so running it again changes nothing.
// params: user_id, changes, now
// mode: write
UNWIND $changes AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
WHERE m.state IS NULL OR m.state <> row.state
SET m.state = row.state, m.state_since = $now
RETURN count(m) AS moved
