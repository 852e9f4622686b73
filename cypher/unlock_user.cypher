// unlock_user: give the user's ingest lease back, when $token holds it.
// params: user_id, token
// mode: write
MATCH (u:User {id: $user_id})
WHERE u.lease = $token
REMOVE u.lease, u.lease_until
RETURN count(u) AS released
