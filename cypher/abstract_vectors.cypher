// abstract_vectors: of each given memory (a member of a group being summarised, read once however
// many groups it is in), its embedding (null without $vectors: the caller holds it) and the
// entities it mentions ([name, frequency]).
// params: user_id, uids, vectors
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN m.uid AS uid, CASE WHEN $vectors THEN m.embedding END AS embedding,
       [(m)-[:MENTIONS]->(o:Entity) | [o.name, o.frequency]] AS mentioned
