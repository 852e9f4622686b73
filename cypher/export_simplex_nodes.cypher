// export_simplex_nodes: one page of the nodes of the user's simplex tree for `graphmem export`
// (graphmem/transfer.py): up to $limit nodes in order of their key, after $after (null: from the
// first), each as [every property, its outgoing relationships], a relationship as [type,
// properties, the other end's labels, the other end's key properties].
// params: user_id, after, limit
// mode: read
MATCH (n:SimplexNode {user_id: $user_id})
WHERE $after IS NULL OR n.key > $after
WITH n, n.key AS key ORDER BY key
LIMIT $limit
OPTIONAL MATCH (n)-[r]->(x)
WITH n, key, collect(CASE WHEN r IS NOT NULL THEN
       [type(r), properties(r), labels(x), x {.id, .uid, .n, .vid, .key, .word}] END) AS links
RETURN key, [[properties(n), links]] AS nodes
ORDER BY key
