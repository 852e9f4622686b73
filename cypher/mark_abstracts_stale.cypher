// mark_abstracts_stale: the abstracts the given memories (being forgotten) belong to must be
// derived again; marked before the memories go, so that an interrupted forget leaves the mark
// (the link to a deleted memory goes with it) for the next writer to act on.
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})<-[:SUMMARIZES]-(a:Abstract)
SET a.stale = true
RETURN count(DISTINCT a) AS marked
