// witness_groups: the entity sets of memories that share a session or a time window
// ($by = 'session' | 'window'; $window in seconds), with the memories that witness each.
// params: user_id, by, window
// mode: read
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e:Entity)
WITH m, e, CASE $by WHEN 'session' THEN m.session
                    ELSE toString(toInteger(floor(m.observed_at / $window))) END AS grp
WHERE grp IS NOT NULL
WITH grp, e, collect(DISTINCT m.uid) AS memories, min(m.observed_at) AS at
WITH grp, collect([e.vid, size(memories)]) AS vertices, collect(memories) AS memory_lists, min(at) AS at
RETURN grp, vertices, reduce(acc = [], ms IN memory_lists | acc + ms) AS memories, at
