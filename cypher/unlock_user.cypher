// unlock_user: give the user's ingest lease back, when $token holds it. Only the token goes
// (lock_user.cypher reads a user with none as free): FalkorDB 4.16 removes the wrong properties
// when one statement removes two of one node (FalkorDB#1787), and here it took the lease's
// end and left the token, which kept the user locked for good.
// params: user_id, token
// mode: write
MATCH (u:User {id: $user_id})
WHERE u.lease = $token
REMOVE u.lease
RETURN count(u) AS released
