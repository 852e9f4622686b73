// stats: trie nodes and stored simplices per dimension.
// params: user_id
// mode: read
MATCH (n:SimplexNode {user_id: $user_id})
RETURN n.depth - 1 AS dimension,
       count(CASE WHEN n.count > 0 THEN 1 END) AS simplices,
       count(n) AS nodes
ORDER BY dimension
