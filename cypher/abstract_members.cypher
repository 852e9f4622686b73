// abstract_members: of each group (an entity and a span of time), its complete memories, each
// with its time, its embedding and the other entities it mentions ([name, frequency]), and the
// entity's frequency in the user's memory. A group larger than $max_members is not returned: it
// is too broad to summarise, and reading it would cost as much as the user.
// params: user_id, groups, max_members
// mode: read
UNWIND $groups AS g
MATCH (e:Entity {user_id: $user_id, vid: g.vid})<-[:MENTIONS]-(m:Memory {user_id: $user_id})
WHERE m.complete = true AND coalesce(m.observed_at, 0) >= g.since AND coalesce(m.observed_at, 0) < g.until
WITH g, e, collect(m) AS ms
WHERE size(ms) <= $max_members
UNWIND ms AS m
WITH g, e, size(ms) AS size, m, [(m)-[:MENTIONS]->(o:Entity) | [o.name, o.frequency]] AS mentioned
RETURN g.key AS key, e.vid AS vid, e.name AS name, e.frequency AS frequency, size,
       collect([m.uid, coalesce(m.observed_at, 0), m.embedding, mentioned]) AS members
