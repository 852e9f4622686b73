// user_exists: whether anything has been stored for this user.
// params: user_id
// mode: read
OPTIONAL MATCH (u:User {id: $user_id})
RETURN u IS NOT NULL AS known
