// face_membership: which of the given faces (by key) are stored simplices.
// params: user_id, keys
// mode: read
UNWIND $keys AS key
OPTIONAL MATCH (s:SimplexNode {user_id: $user_id, key: key})
RETURN key, coalesce(s.count, 0) AS count
