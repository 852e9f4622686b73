// abstracts_to_refresh: the groups of the user's abstracts that a forget marked stale (their
// members changed), or with $all every abstract's group (a rebuild drops those gone).
// params: user_id, all
// mode: read
MATCH (a:Abstract {user_id: $user_id})
WHERE $all OR a.stale = true
RETURN a.vid AS vid, a.bucket AS bucket
