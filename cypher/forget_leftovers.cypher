// forget_leftovers: memories an interrupted forget marked and did not delete.
// params: user_id
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE m.forgetting = true
RETURN m.uid AS uid
ORDER BY uid
