// get_memory: one of the user's memories by id, as list_memories gives it.
// params: user_id, uid
// mode: read
MATCH (m:Memory {user_id: $user_id, uid: $uid})
WHERE m.complete = true
// one row per memory, should a race ever have left it two counts
OPTIONAL MATCH (m)-[a:RECALLED_FOR]->(:User)
WITH m, sum(a.accesses) AS accesses, max(a.last_accessed) AS last_accessed
RETURN m.uid AS id, m.conversation AS conversation, m.session AS session, m.speaker AS speaker, m.text AS text,
       m.session_date AS date, m.position AS position, m.source_id AS source_id, m.message_id AS message_id,
       [(m)-[:MENTIONS]->(e:Entity) | e.name] AS entities, m.state AS state, accesses,
       last_accessed, m.standing AS standing,
       m.preference AS preference
