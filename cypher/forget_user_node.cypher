// forget_user_node: delete the user node itself, the last of a user's nodes to go.
// params: user_id
// mode: write
OPTIONAL MATCH (u:User {id: $user_id})
DETACH DELETE u
RETURN count(u) AS deleted
