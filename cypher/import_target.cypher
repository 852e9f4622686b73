// import_target: what the user an import writes into holds already: its memories and entities
// (an import into a user that holds some is refused unless it replaces them), and the key of
// an import left unfinished there (`importing`: a retry of that same file may go on).
// params: user_id
// mode: read
OPTIONAL MATCH (u:User {id: $user_id})
OPTIONAL MATCH (m:Memory {user_id: $user_id})
WITH u, count(m) AS memories
OPTIONAL MATCH (e:Entity {user_id: $user_id})
RETURN u.importing AS importing, memories, count(e) AS entities
