// unwitnessed_simplices: stored simplices that lost their last witness to an unwitness whose
// `remove` never ran (the run was interrupted between the two): the caller removes them.
// params: user_id
// mode: read
MATCH (s:SimplexNode {user_id: $user_id})
WHERE s.unwitnessed = true AND s.count > 0
RETURN s.path AS path, s.key AS key
ORDER BY key
