// memory_sessions: the sessions the given memories belong to (unknown ids: none).
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
RETURN DISTINCT m.session AS session
