// kept_apart: of the given memories, each pair the user said does not supersede (a newer one,
// an older one it keeps apart from: keep_apart.cypher), for settling supersession from the
// claims (graphmem/supersession.py).
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (n:Memory {user_id: $user_id, uid: uid})-[:NOT_SUPERSEDES]->(o:Memory {user_id: $user_id})
RETURN n.uid AS newer, o.uid AS older
ORDER BY n.uid, o.uid
