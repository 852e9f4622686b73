// list_memories_mentioning: list_memories for the memories that mention one of the entities
// $vids, found from the entities (list_memories has no entity filter, so that a page that names
// no entity reads no memory's mentions).
// params: user_id, conversation, speaker, since, until, vids, after, limit, state, superseded, retired
// mode: read
OPTIONAL MATCH (c:Memory {user_id: $user_id, uid: $after})
WITH coalesce(c.observed_at, -1.0) AS after_at
MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e)
WITH DISTINCT m, after_at
WHERE m.complete = true
  AND ($conversation IS NULL OR m.conversation = $conversation)
  AND ($speaker IS NULL OR m.speaker = $speaker)
  AND ($since IS NULL OR m.observed_at >= $since)
  AND ($until IS NULL OR m.observed_at < $until)
  AND ($state IS NULL OR coalesce(m.state, 'active') = $state)
  AND ($superseded IS NULL OR (m.uid IN $retired) = $superseded)
  AND ($after IS NULL OR coalesce(m.observed_at, -1.0) > after_at
       OR (coalesce(m.observed_at, -1.0) = after_at AND m.uid > $after))
WITH m
ORDER BY coalesce(m.observed_at, -1.0), m.uid
LIMIT $limit
// one row per memory, should a race ever have left it two counts
OPTIONAL MATCH (m)-[a:RECALLED_FOR]->(:User)
WITH m, sum(a.accesses) AS accesses, max(a.last_accessed) AS last_accessed
RETURN m.uid AS id, m.conversation AS conversation, m.session AS session, m.speaker AS speaker, m.text AS text,
       m.session_date AS date, m.position AS position, m.source_id AS source_id, m.message_id AS message_id,
       m.observed_at AS observed_at, [(m)-[:MENTIONS]->(e:Entity) | e.name] AS entities,
       m.state AS state, accesses, last_accessed, m.standing AS standing,
       m.preference AS preference
ORDER BY coalesce(observed_at, -1.0), id
