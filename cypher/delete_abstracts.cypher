// delete_abstracts: the abstracts of the given keys, with their links (a group left with fewer
// than two members, or one grown too broad).
// params: user_id, keys
// mode: write
UNWIND $keys AS key
MATCH (a:Abstract {user_id: $user_id, key: key})
DETACH DELETE a
RETURN count(*) AS deleted
