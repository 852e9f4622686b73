// abstract_members: of each group (an entity and a span of time), its complete memories (id and
// time), and the entity's name and frequency in the user's memory. A group larger than
// $max_members is not returned: it is too broad to summarise. The entity is found first, so
// that each group walks its own mentions rather than the user's memories.
// params: user_id, groups, max_members
// mode: read
UNWIND $groups AS g
MATCH (e:Entity {user_id: $user_id, vid: g.vid})
WITH g, e
MATCH (e)<-[:MENTIONS]-(m:Memory)
WHERE m.user_id = $user_id AND m.complete = true
  AND coalesce(m.observed_at, 0) >= g.since AND coalesce(m.observed_at, 0) < g.until
WITH g, e, collect([m.uid, coalesce(m.observed_at, 0)]) AS members
WHERE size(members) <= $max_members
RETURN g.key AS key, e.vid AS vid, e.name AS name, e.frequency AS frequency, size(members) AS size, members
