// export_counts: what `graphmem export` will write of the user's memory: its nodes grouped by
// labels, with how many relationships go out of them. graphmem/transfer.py refuses labels it
// does not know (it could not import them), and writes the counts in the file's header, so
// that an import can tell a file cut short. Reads every node once (no index spans labels).
// params: user_id
// mode: read
MATCH (n)
WHERE n.user_id = $user_id OR (n:User AND n.id = $user_id)
OPTIONAL MATCH (n)-[r]->()
RETURN labels(n) AS labels, count(DISTINCT n) AS nodes, count(r) AS relationships
