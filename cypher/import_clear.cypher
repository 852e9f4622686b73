// import_clear: delete up to $limit of the user's nodes, whatever their label, with their
// relationships (an import that replaces the user's memory runs it until it deletes nothing;
// the user node, which holds the import's lease, stays). Reads every node: no index spans labels.
// params: user_id, limit
// mode: write
MATCH (n)
WHERE n.user_id = $user_id
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
