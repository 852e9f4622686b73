// supersession_pair: the given memories of the user's that are complete, with when each was said
// and its place in its conversation: a supersession set by hand names two of them, the newer
// said after the older (graphmem/supersession.py, `by_hand`).
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.complete = true
RETURN m.uid AS uid, m.observed_at AS at, m.position AS position
ORDER BY uid
