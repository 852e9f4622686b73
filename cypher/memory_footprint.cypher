// memory_footprint: what the given memories touch beyond themselves: their sessions and the
// entities they mention (read before forgetting them, to settle those afterwards).
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
RETURN m.uid AS uid, m.session AS session, collect(e.vid) AS vids
