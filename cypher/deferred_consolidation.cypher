// deferred_consolidation: the memories whose groups wait to be derived again
// (defer_consolidation.cypher).
// params: user_id
// mode: read
MATCH (u:User {id: $user_id})
RETURN coalesce(u.unconsolidated, []) AS uids
