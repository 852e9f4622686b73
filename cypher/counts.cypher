// counts: how much the user's memory holds, by label and relationship.
// params: user_id
// mode: read
OPTIONAL MATCH (e:Entity {user_id: $user_id})
WITH count(e) AS entities
OPTIONAL MATCH (m:Memory {user_id: $user_id})
WITH entities, count(m) AS memories
OPTIONAL MATCH (s:Session {user_id: $user_id})
WITH entities, memories, count(s) AS sessions
OPTIONAL MATCH (:Entity {user_id: $user_id})-[r:RELATES]->(:Entity)
WITH entities, memories, sessions, count(r) AS relations
OPTIONAL MATCH (:Memory {user_id: $user_id})-[x:MENTIONS]->(:Entity)
WITH entities, memories, sessions, relations, count(x) AS mentions
OPTIONAL MATCH (:SimplexNode {user_id: $user_id})-[w:WITNESSED_BY]->(:Memory)
RETURN entities, memories, sessions, relations, mentions, count(w) AS witnessed
